package meta

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"shoebox/internal/fixture"
)

// genDir holds small real files written by ImageMagick, ExifTool and
// ffmpeg (testdata/gen/gen.sh), with ExifTool's reading of them.
var genDir = filepath.Join("testdata", "gen")

// TestGeneratedFilesAgreeWithExifTool reads every generated file and
// checks it is dated by ExifTool's capture date (fixture.Truth.CaptureDate,
// the README's precedence), to the second; a file ExifTool finds no date
// in must not get one from its content either.
func TestGeneratedFilesAgreeWithExifTool(t *testing.T) {
	entries := fixture.LoadTruth(t, filepath.Join(genDir, "truth-exiftool.json"))
	if len(entries) < 20 {
		t.Fatalf("only %d generated files", len(entries))
	}
	r := NewReader(Options{Explain: true, VideoTZ: time.UTC})
	perFormat := map[string]int{}
	for _, e := range entries {
		name := filepath.Base(e.Str("SourceFile"))
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(genDir, name)
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			info := r.File(path, st.Size(), fixedMtime)
			perFormat[info.Format]++
			tag, want := e.CaptureDate()
			if info.Warning != "" && tag != "" {
				t.Errorf("warning %q", info.Warning)
			}
			if tag == "" {
				if info.Date.Source.FromFile() {
					t.Errorf("ExifTool finds no date, we read %s %v", info.Date.Tag, info.Date.Wall)
				}
				return
			}
			got := info.Date.Wall.Format("2006:01:02 15:04:05")
			if got != want[:19] || !info.Date.Source.FromFile() {
				t.Errorf("dated %s by %s (%s), ExifTool %s=%s; candidates %+v", got, info.Date.Tag, info.Date.Source, tag, want, info.Candidates)
			}
		})
	}
	for _, f := range []string{"png", "jpeg", "mkv", "webm", "wmv"} {
		if perFormat[f] < 2 && f != "webm" {
			t.Errorf("%d generated %s files, want more than one", perFormat[f], f)
		}
	}
}

func TestGeneratedFormatsAndKinds(t *testing.T) {
	r := NewReader(Options{})
	for name, want := range map[string]string{
		"png-xmp.png": "png/photo", "iptc.tif": "tiff/photo", "iptc-created.jpg": "jpeg/photo",
		"mkv-dated.mkv": "mkv/video", "webm-dated.webm": "webm/video", "asf-dated.wmv": "wmv/video",
		"asf-audio.wma": "wma/other",
	} {
		data, err := os.ReadFile(filepath.Join(genDir, name))
		if err != nil {
			t.Fatal(err)
		}
		info := r.Bytes(name, data, fixedMtime)
		if got := info.Format + "/" + info.Kind.String(); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
}

// TestDamagedGeneratedFilesStayBounded truncates and bit-flips every
// generated file: each still gets a date (at worst its mtime), none
// panics, and no rejected or impossible date is used.
func TestDamagedGeneratedFilesStayBounded(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(genDir, "*.*"))
	r := NewReader(Options{Explain: true, VideoTZ: time.UTC})
	n := 0
	for _, p := range paths {
		if strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".sh") {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range damaged(data) {
			n++
			info := r.Bytes(filepath.Base(p), v, fixedMtime)
			if info.Date.IsZero() || len(info.Candidates) > maxCandidates {
				t.Fatalf("%s damaged: %+v", p, info)
			}
			if y := info.Date.Wall.Year(); y < minYear || y > time.Now().Year()+1 {
				t.Errorf("%s damaged: dated %v by %s", p, info.Date.Wall, info.Date.Tag)
			}
		}
	}
	if n < 200 {
		t.Errorf("only %d damaged variants", n)
	}
}

// damaged returns truncations of data and copies with one byte inverted.
func damaged(data []byte) [][]byte {
	var out [][]byte
	for _, cut := range []int{len(data) / 8, len(data) / 4, len(data) / 2, len(data) - 13, len(data) - 1} {
		if cut > 0 {
			out = append(out, data[:cut])
		}
	}
	for i := 0; i < 16; i++ {
		v := bytes.Clone(data)
		v[i*len(v)/16] ^= 0xFF
		out = append(out, v)
	}
	return out
}

// pngWith returns a one-pixel PNG carrying the given chunks before IEND.
func pngWith(chunks ...[]byte) []byte {
	b := append([]byte(nil), pngMagic...)
	b = append(b, pngChunk("IHDR", []byte{0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0})...)
	for _, c := range chunks {
		b = append(b, c...)
	}
	return append(b, pngChunk("IEND", nil)...)
}

func pngChunk(typ string, data []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	b = append(append(b, typ...), data...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(append([]byte(typ), data...)))
}

func zlibBytes(s string) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

// TestPNGTextChunks covers what the generated files do not: a zTXt
// "Creation Time" in RFC 1123, and a zlib bomb in a compressed XMP.
func TestPNGTextChunks(t *testing.T) {
	r := NewReader(Options{Explain: true})
	ztxt := pngWith(pngChunk("zTXt", append([]byte("Creation Time\x00\x00"), zlibBytes("Thu, 04 Jul 2019 15:30:00 +0200")...)))
	info := r.Bytes("a.png", ztxt, fixedMtime)
	if got := info.Date.Wall.Format(time.DateTime); got != "2019-07-04 15:30:00" || info.Date.Tag != tagPNGCreation || info.Date.Offset != 7200 {
		t.Errorf("zTXt Creation Time: %s %s %d", got, info.Date.Tag, info.Date.Offset)
	}
	bomb := "<x:xmpmeta " + strings.Repeat(" ", 2*maxInflated) + `exif:DateTimeOriginal="2019:07:04 15:30:00"/>`
	itxt := pngWith(pngChunk("iTXt", append([]byte("XML:com.adobe.xmp\x00\x01\x00\x00\x00"), zlibBytes(bomb)...)))
	info = r.Bytes("a.png", itxt, fixedMtime)
	if info.Date.Source != SourceModTime {
		t.Errorf("the date past the inflate bound was read: %+v", info.Date)
	}
	small := pngWith(pngChunk("iTXt", append([]byte("XML:com.adobe.xmp\x00\x01\x00\x00\x00"), zlibBytes(`<x:xmpmeta exif:DateTimeOriginal="2019:07:04 15:30:00"/>`)...)))
	if info = r.Bytes("a.png", small, fixedMtime); info.Date.Tag != tagXMPDTO {
		t.Errorf("compressed iTXt XMP: %+v", info.Date)
	}
}
