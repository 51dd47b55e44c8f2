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

	"github.com/shoebox-photos/shoebox/internal/fixture"
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
	for _, f := range []string{"png", "jpeg", "mkv", "webm", "wmv", "tiff", "psd", "gif", "jxl", "flv", "avif", "webp", "heic",
		"dng", "3fr", "fff", "erf", "mef", "mos", "iiq", "nrw", "srw", "pef", "gpr", "mpg", "bmp"} {
		if perFormat[f] < 2 {
			t.Errorf("%d generated %s files, want more than one", perFormat[f], f)
		}
	}
}

func TestGeneratedFormatsAndKinds(t *testing.T) {
	r := NewReader(Options{})
	for name, want := range map[string]string{
		"png-xmp.png": "png/photo", "iptc.tif": "tiff/photo", "iptc-created.jpg": "jpeg/photo",
		"mkv-dated.mkv": "mkv/video", "webm-dated.webm": "webm/video", "asf-dated.wmv": "wmv/video",
		"asf-audio.wma": "wma/other", "bigtiff-le.btf": "tiff/photo", "raw-iiq.iiq": "iiq/photo",
		"raw-fff.fff": "fff/photo", "raw-mos.mos": "mos/photo", "psd-xmp.psd": "psd/photo",
		"gif-xmp.gif": "gif/photo", "jxl-exif.jxl": "jxl/photo", "jxl-codestream.jxl": "jxl/photo",
		"flv-dated.flv": "flv/video", "mpeg-ps.mpg": "mpg/video", "bmp-plain.bmp": "bmp/photo",
		"mpeg-ps-vob.mpg": "mpg/video", "bmp-v3.bmp": "bmp/photo", "webm-nodate.webm": "webm/video",
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

// buildTS writes an AVCHD-like transport stream: a PAT packet, then the
// video PES whose first NAL is an SEI with Sony's MDPM (time zone byte,
// BCD date and time), cut over two TS packets. stride is 188 (TS) or 192
// (M2TS, with a 4-byte time code before each packet).
func buildTS(stride int, tz byte, ymd, hms [4]byte) []byte {
	sei := []byte{0, 0, 0, 1, 0x06, 0x05, 0x40}
	sei = append(sei, mdpmUUID...)
	sei = append(sei, "MDPM"...)
	sei = append(sei, 3, 0x18, tz, ymd[0], ymd[1], ymd[2], 0x19, ymd[3], hms[0], hms[1], hms[2], 0x70, 0, 0, 3, 0)
	pes := append([]byte{0, 0, 1, 0xE0, 0, 0, 0x80, 0x80, 5, 0x21, 0, 1, 0, 1}, bytes.Repeat([]byte{0xAA}, 170)...)
	pes = append(pes, sei...) // the SEI straddles the first two video packets
	var out []byte
	packet := func(pid int, start bool, payload []byte) {
		pkt := make([]byte, 188)
		for i := range pkt {
			pkt[i] = 0xFF
		}
		pkt[0], pkt[1], pkt[2], pkt[3] = 0x47, byte(pid>>8), byte(pid), 0x10
		if start {
			pkt[1] |= 0x40
		}
		copy(pkt[4:], payload)
		if stride == 192 {
			out = append(out, 0, 0, 0, 0)
		}
		out = append(out, pkt...)
	}
	packet(0, true, []byte{0, 0, 0xB0, 0x0D})
	packet(0x1011, true, pes[:184])
	packet(0x1100, true, []byte{0, 0, 1, 0xC0}) // audio between the video packets
	packet(0x1011, false, pes[184:])
	return out
}

func TestAVCHDDateFromMDPM(t *testing.T) {
	r := NewReader(Options{Explain: true})
	for _, c := range []struct {
		name     string
		data     []byte
		want     string
		offset   int
		hasOffst bool
	}{
		{"a.mts", buildTS(188, 0x02, [4]byte{0x20, 0x08, 0x12, 0x31}, [4]byte{0x23, 0x16, 0x24}), "2008-12-31 23:16:24", 3600, true},
		{"a.m2ts", buildTS(192, 0x25, [4]byte{0x20, 0x19, 0x07, 0x04}, [4]byte{0x15, 0x30, 0x00}), "2019-07-04 15:30:00", -(2*3600 + 1800), true},
		{"b.mts", buildTS(188, 0xFF, [4]byte{0x20, 0x15, 0x01, 0x02}, [4]byte{0x03, 0x04, 0x05}), "2015-01-02 03:04:05", 0, false},
	} {
		info := r.Bytes(c.name, c.data, fixedMtime)
		got := info.Date.Wall.Format(time.DateTime)
		if info.Format != "mts" || got != c.want || info.Date.Tag != tagH264 || info.Date.HasOffset != c.hasOffst || info.Date.Offset != c.offset {
			t.Errorf("%s: %s %s %s offset %d/%v; candidates %+v", c.name, info.Format, got, info.Date.Tag, info.Date.Offset, info.Date.HasOffset, info.Candidates)
		}
		for _, v := range damaged(c.data) {
			if d := r.Bytes(c.name, v, fixedMtime); d.Date.IsZero() {
				t.Fatalf("%s damaged: no date", c.name)
			}
		}
	}
	bad := buildTS(188, 0x02, [4]byte{0x20, 0x08, 0x1A, 0x31}, [4]byte{0x23, 0x16, 0x24}) // month "1A" is not BCD
	if info := r.Bytes("c.mts", bad, fixedMtime); info.Date.Source != SourceModTime || !hasRejection(info.Candidates, tagH264) {
		t.Errorf("non-BCD month: %+v", info)
	}
}

// buildX3F writes a Sigma X3F v2 skeleton: header, a PROP section whose
// TIME is unix (UTF-16 properties), optionally a JPEG preview section,
// and the section directory the last four bytes point to.
func buildX3F(unix string, preview []byte) []byte {
	out := append([]byte("FOVb"), 0, 0, 2, 0)
	out = append(out, make([]byte, 56)...)
	utf16 := func(s string) []byte {
		var b []byte
		for _, c := range s + "\x00" {
			b = append(b, byte(c), 0)
		}
		return b
	}
	names := []string{"CAMMANUF", "SIGMA", "CAMMODEL", "SD9", "TIME", unix}
	var chars []byte
	var table []byte
	for i := 0; i < len(names); i += 2 {
		table = binary.LittleEndian.AppendUint32(table, uint32(len(chars)/2))
		chars = append(chars, utf16(names[i])...)
		table = binary.LittleEndian.AppendUint32(table, uint32(len(chars)/2))
		chars = append(chars, utf16(names[i+1])...)
	}
	prop := append([]byte("SECp"), 0, 0, 2, 0)
	prop = binary.LittleEndian.AppendUint32(prop, uint32(len(names)/2))
	prop = binary.LittleEndian.AppendUint32(prop, 0)
	prop = binary.LittleEndian.AppendUint32(prop, 0)
	prop = binary.LittleEndian.AppendUint32(prop, uint32(len(chars)/2))
	prop = append(append(prop, table...), chars...)
	type section struct {
		typ       string
		off, size int
	}
	secs := []section{{"PROP", len(out), len(prop)}}
	out = append(out, prop...)
	if preview != nil {
		ima := append([]byte("SECi"), 0, 0, 2, 0, 2, 0, 0, 0, 18, 0, 0, 0)
		ima = append(append(ima, make([]byte, 12)...), preview...)
		secs = append(secs, section{"IMA2", len(out), len(ima)})
		out = append(out, ima...)
	}
	dirAt := len(out)
	out = append(append(out, "SECd"...), 0, 0, 2, 0)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(secs)))
	for _, s := range secs {
		out = binary.LittleEndian.AppendUint32(out, uint32(s.off))
		out = binary.LittleEndian.AppendUint32(out, uint32(s.size))
		out = append(out, s.typ...)
	}
	return binary.LittleEndian.AppendUint32(out, uint32(dirAt))
}

func TestSigmaX3FDates(t *testing.T) {
	r := NewReader(Options{Explain: true})
	// TIME is the camera's clock as Unix seconds: 2004-07-04 15:30:00.
	info := r.Bytes("a.x3f", buildX3F("1088955000", nil), fixedMtime)
	if got := info.Date.Wall.Format(time.DateTime); got != "2004-07-04 15:30:00" || info.Date.Tag != tagX3F || info.Make != "SIGMA" || info.Model != "SD9" {
		t.Errorf("PROP TIME: %s %s %q %q; %+v", got, info.Date.Tag, info.Make, info.Model, info.Candidates)
	}
	// A JPEG preview's EXIF DateTimeOriginal wins over PROP TIME.
	jpeg := buildJPEG(buildTIFF(nil, []exifTag{{tagDTOriginal, "2009:11:28 13:05:20"}}), 0)
	data := buildX3F("1088955000", jpeg)
	info = r.Bytes("b.x3f", data, fixedMtime)
	if got := info.Date.Wall.Format(time.DateTime); info.Format != "x3f" || got != "2009-11-28 13:05:20" || info.Date.Tag != tagDTO {
		t.Errorf("preview EXIF: %s %s %s", info.Format, got, info.Date.Tag)
	}
	if info = r.Bytes("c.x3f", buildX3F("12x", nil), fixedMtime); info.Date.Source != SourceModTime || !hasRejection(info.Candidates, tagX3F) {
		t.Errorf("bad TIME: %+v", info)
	}
	for _, v := range damaged(data) {
		if d := r.Bytes("b.x3f", v, fixedMtime); d.Date.IsZero() {
			t.Fatal("damaged x3f: no date")
		}
	}
}
