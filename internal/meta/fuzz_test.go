package meta

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
)

func addTestdataSeeds(f *testing.F, add func(name string, data []byte)) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.*"))
	hostile, _ := filepath.Glob(filepath.Join("testdata", "hostile", "*"))
	for _, p := range append(paths, hostile...) {
		data, err := os.ReadFile(p)
		if err != nil || len(data) > 64<<10 || filepath.Ext(p) == ".json" && filepath.Base(p) == "truth.json" {
			continue
		}
		add(filepath.Base(p), data)
	}
}

var fuzzNames = []string{"a.jpg", "a.heic", "a.mov", "a.cr2", "a.png", "a.xmp", "IMG_20190704_153000.bin",
	"a.bmp", "a.webm", "a.crm", "a.3fr", "a.raw", "a.thm"}

func FuzzBytes(f *testing.F) {
	addTestdataSeeds(f, func(_ string, data []byte) { f.Add(data, uint8(0)) })
	// Every generated format through the whole sniff, under a name whose
	// extension decides among look-alikes where one does.
	gen, _ := filepath.Glob(filepath.Join("testdata", "gen", "*.*"))
	dates, _ := filepath.Glob(filepath.Join(datesDir, "*.*"))
	for _, p := range append(gen, dates...) {
		if data, err := os.ReadFile(p); err == nil && len(data) <= 64<<10 && filepath.Ext(p) != ".json" && filepath.Ext(p) != ".sh" {
			f.Add(data, uint8(len(fuzzNames)-4+len(p)%4))
		}
	}
	f.Add(buildPMP([6]byte{98, 9, 1, 20, 19, 57}), uint8(0))
	f.Add(buildKyoceraRaw("2005:07:16 18:14:30 "), uint8(11))
	f.Add(sampleJPEG(1024), uint8(0))
	for _, seed := range gpsSeeds() {
		f.Add(seed, uint8(0))
	}
	f.Add(buildMOV(3e9, map[string]string{"com.apple.quicktime.creationdate": "2020-04-17T10:03:47-0600"}), uint8(2))
	r := NewReader(Options{Explain: true, VideoTZ: time.UTC})
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		info := r.Bytes(fuzzNames[int(which)%len(fuzzNames)], data, fixedMtime)
		if info.Date.IsZero() {
			t.Fatalf("no date at all, even the mtime: %+v", info)
		}
		if len(info.Candidates) > maxCandidates {
			t.Fatalf("%d candidates", len(info.Candidates))
		}
	})
}

func FuzzTIFF(f *testing.F) {
	f.Add(buildTIFF([]exifTag{{tagMake, "Canon"}, {tagDateTime, "2020:01:02 03:04:05"}},
		[]exifTag{{tagDTOriginal, "2019:07:04 15:30:00"}, {tagSubSecOrig, "031"}}))
	for _, seed := range gpsSeeds() {
		f.Add(seed[jpegTIFFAt:])
	}
	f.Add(gpsTIFF(binary.BigEndian, "2021:08:14", [6]uint32{12, 1, 12, 1, 315, 10}, true))
	f.Add(gpsTIFF(binary.LittleEndian, "2021:08:14", [6]uint32{12, 1, 12, 0, 31, 1}, true))
	addTestdataSeeds(f, func(name string, data []byte) {
		if filepath.Ext(name) == ".cr2" || filepath.Ext(name) == ".nef" || filepath.Ext(name) == ".dng" {
			f.Add(data)
		}
	})
	addGenSeeds(f, ".btf", ".3fr", ".iiq", ".mos", ".pef")
	f.Add(buildBigTIFF(binary.BigEndian, []exifTag{{tagDateTime, "2020:01:02 03:04:05"}},
		[]exifTag{{tagDTOriginal, "2019:07:04 15:30:00"}}, `<x:xmpmeta xmp:CreateDate="2018-05-06T07:08:09"/>`))
	r := NewReader(Options{Explain: true})
	f.Fuzz(func(t *testing.T, data []byte) {
		p := r.newParse("x.tif", &input{head: data, size: int64(len(data))}, fixedMtime)
		p.readTIFF(0, false)
		p.readTIFF(0, true)
		p.finish()
	})
}

func FuzzISOBMFF(f *testing.F) {
	f.Add(buildMOV(3e9, map[string]string{"com.apple.quicktime.creationdate": "2020-04-17T10:03:47-0600",
		"com.apple.quicktime.content.identifier": "X"}))
	addTestdataSeeds(f, func(name string, data []byte) {
		switch filepath.Ext(name) {
		case ".heic", ".HEIC", ".mov", ".MOV", ".cr3":
			f.Add(data)
		}
	})
	addGenSeeds(f, ".avif", ".heic")
	r := NewReader(Options{Explain: true, VideoTZ: time.UTC})
	f.Fuzz(func(t *testing.T, data []byte) {
		p := r.newParse("x.mov", &input{head: data, size: int64(len(data))}, fixedMtime)
		p.readBMFF()
		p.finish()
	})
}

func FuzzFilenameDate(f *testing.F) {
	for _, s := range []string{"IMG_20190704_153000.jpg", "PXL_20230101_123456789.jpg", "2019-07-04 15.30.00.jpg",
		"Screenshot_20200101-101010.png", "IMG-20200101-WA0001.jpg", "IMG_1234.JPG", "2019-07-0", "20190704_1530"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d, ok := FilenameDate(s); ok && (d.Year() < minFilenameYear || d.Location() != time.UTC) {
			t.Fatalf("FilenameDate(%q) = %v", s, d)
		}
	})
}

// gpsSeeds are generated JPEGs with a GPS IFD, sound and not.
func gpsSeeds() [][]byte {
	wall := time.Date(2021, 8, 14, 14, 12, 31, 0, time.UTC)
	var out [][]byte
	for _, e := range []fixture.EXIF{
		{When: wall, GPS: wall.Add(-5*time.Hour - 30*time.Minute)},
		{When: wall, GPS: wall.Add(22 * time.Hour)},
		{When: wall, GPS: wall, GPSDate: "2021:13:99"},
	} {
		out = append(out, fixture.JPEG(e))
	}
	return out
}

// jpegTIFFAt is where the TIFF block starts in a fixture JPEG: after SOI,
// the APP1 marker and length, and "Exif\x00\x00".
const jpegTIFFAt = 2 + 4 + 6

// addGenSeeds adds the generated files (testdata/gen and testdata/dates)
// whose name ends in one of exts.
func addGenSeeds(f *testing.F, exts ...string) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "gen", "*.*"))
	dates, _ := filepath.Glob(filepath.Join(datesDir, "*.*"))
	for _, p := range append(paths, dates...) {
		for _, ext := range exts {
			if filepath.Ext(p) == ext {
				if data, err := os.ReadFile(p); err == nil {
					f.Add(data)
				}
			}
		}
	}
}

// fuzzReader runs read over data as the whole file, and checks the result
// is bounded.
func fuzzReader(t *testing.T, r *Reader, name string, data []byte, read func(p *parse)) {
	p := r.newParse(name, &input{head: data, size: int64(len(data))}, fixedMtime)
	read(p)
	info := p.finish()
	if info.Date.IsZero() || len(info.Candidates) > maxCandidates {
		t.Fatalf("date %+v, %d candidates", info.Date, len(info.Candidates))
	}
}

func FuzzPNG(f *testing.F) {
	addGenSeeds(f, ".png")
	f.Add(pngWith(pngChunk("zTXt", append([]byte("Creation Time\x00\x00"), zlibBytes("Thu, 04 Jul 2019 15:30:00 +0200")...))))
	f.Add(pngWith(pngChunk("tIME", []byte{0x07, 0xE3, 7, 4, 15, 30, 0})))
	r := NewReader(Options{Explain: true})
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzReader(t, r, "a.png", data, func(p *parse) { p.readPNG() })
	})
}

func FuzzIPTC(f *testing.F) {
	addGenSeeds(f, ".jpg", ".tif")
	f.Add([]byte("8BIM\x04\x04\x00\x00\x00\x00\x00\x1a\x1c\x02\x37\x00\x0820190704\x1c\x02\x3c\x00\x0b153000+0200"))
	r := NewReader(Options{Explain: true})
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzReader(t, r, "a.jpg", data, func(p *parse) {
			p.readJPEG(0)
			p.readAFCP()
			p.readIRB(0, int64(len(data)), true)
			p.readIPTC(data)
		})
	})
}

func FuzzMatroska(f *testing.F) {
	addGenSeeds(f, ".mkv", ".webm")
	r := NewReader(Options{Explain: true, VideoTZ: time.UTC})
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzReader(t, r, "a.mkv", data, func(p *parse) { p.readMatroska() })
	})
}

func FuzzASF(f *testing.F) {
	addGenSeeds(f, ".wmv", ".wma")
	r := NewReader(Options{Explain: true, VideoTZ: time.UTC})
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzReader(t, r, "a.wmv", data, func(p *parse) { p.readASF() })
	})
}

func FuzzStreams(f *testing.F) {
	addGenSeeds(f, ".dv")
	f.Add(buildTS(188, 0x02, [4]byte{0x20, 0x08, 0x12, 0x31}, [4]byte{0x23, 0x16, 0x24}))
	f.Add(buildTS(192, 0x25, [4]byte{0x20, 0x19, 0x07, 0x04}, [4]byte{0x15, 0x30, 0x00}))
	f.Add(buildX3F("1088955000", buildJPEG(buildTIFF(nil, []exifTag{{tagDTOriginal, "2009:11:28 13:05:20"}}), 0)))
	r := NewReader(Options{Explain: true})
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzReader(t, r, "a.mts", data, func(p *parse) {
			p.readMTS(188, 0)
			p.readMTS(192, 4)
			p.readDV()
			p.readX3F()
		})
	})
}

// FuzzStillFormats runs the PSD, GIF, JPEG XL, FLV, PMP and Kyocera RAW readers over one
// input each, seeded with the generated files of those formats.
func FuzzStillFormats(f *testing.F) {
	addGenSeeds(f, ".psd", ".gif", ".jxl", ".flv")
	f.Add(buildPMP([6]byte{98, 9, 1, 20, 19, 57}))
	f.Add(buildKyoceraRaw("2005:07:16 18:14:30 "))
	r := NewReader(Options{Explain: true})
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzReader(t, r, "a.psd", data, func(p *parse) {
			p.readPSD()
			p.readGIF()
			p.readJXL()
			p.readFLV()
			p.readPMP()
			p.readKyoceraRaw()
		})
	})
}

// FuzzDateTime parses date text as EXIF, XMP, IPTC and PNG hold it: a
// date it accepts is a real one, and a lost time leaves midnight.
func FuzzDateTime(f *testing.F) {
	for _, s := range []string{"2011:10:06 17:47:14", "20111006 17:47:14.264", "2005.09.15", "2011:10:06 17:47:88",
		"2011:10:06 57:47:14", "2011:10:06 1\r:47:14", "2005-09-15T10:11:12+02:00", "2005-09-15T10:11:12.5Z",
		"Thu, 04 Jul 2019 15:30:00 GMT", "2011:10:06 17:47:14+99:00", "2011:10:06 ", "2011:10:06T"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, reason := parseDateTime(b, 2100)
		if reason != "" {
			return
		}
		if c.check(2100) != "" {
			t.Fatalf("%q accepted as %+v", b, c)
		}
		if c.lostTime != "" && (c.h != 0 || c.mi != 0 || c.s != 0 || c.hasOff) {
			t.Fatalf("%q: a lost time keeps %+v", b, c)
		}
		r := NewReader(Options{Explain: true})
		p := r.newParse("a.png", &input{}, fixedMtime)
		p.readPNGCreation(rankPNGCreation, tagPNGCreation, b)
		if info := p.finish(); info.Date.IsZero() {
			t.Fatalf("%q: no date", b)
		}
	})
}

// FuzzDateTags: any --date-tags text is an order of every kind, or an error.
func FuzzDateTags(f *testing.F) {
	for _, s := range []string{"", "CreateDate", "xmp:createdate, DateTimeOriginal", "Nope", "CreateDate,CreateDate", ",,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseDateTags(s)
		if err != nil {
			return
		}
		var seen [numRanks]bool
		for _, rk := range o.orDefault().ranks {
			if rk >= numRanks || seen[rk] {
				t.Fatalf("%q: order %v", s, o.ranks)
			}
			seen[rk] = true
		}
	})
}

// FuzzExtendedXMP walks JPEG segments, extended XMP chunks included.
func FuzzExtendedXMP(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "gen", "xmp-extended-*.jpg"))
	flir, _ := filepath.Glob(filepath.Join(datesDir, "flir-*.jpg"))
	for _, p := range append(paths, flir...) {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	r := NewReader(Options{Explain: true})
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzReader(t, r, "a.jpg", data, func(p *parse) { p.readJPEG(0) })
	})
}
