package meta

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
)

// gpsJPEG is a generated camera JPEG whose clock read wall when GPS said utc.
func gpsJPEG(wall, utc time.Time, offset string) []byte {
	return fixture.JPEG(fixture.EXIF{When: wall, GPS: utc, Offset: offset, Camera: fixture.Camera{Make: "Canon", Model: "EOS"}})
}

func readExplained(t *testing.T, name string, data []byte, opt Options) Info {
	t.Helper()
	opt.Explain = true
	p := writeTemp(t, name, data)
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return NewReader(opt).File(p, st.Size(), fixedMtime)
}

func candidateNoted(cs []Candidate, tag, note string) bool {
	for _, c := range cs {
		if c.Tag == tag && strings.Contains(c.Note, note) {
			return true
		}
	}
	return false
}

func TestOffsetFromGPSTime(t *testing.T) {
	wall := time.Date(2021, 8, 14, 14, 12, 31, 0, time.UTC)
	for _, tc := range []struct {
		name      string
		wall, utc time.Time
		want      int
	}{
		{"+02:00, 29 s of drift", wall, wall.Add(-2*time.Hour + 29*time.Second), 2 * 3600},
		{"-07:00", wall, wall.Add(7*time.Hour - 650*time.Millisecond), -7 * 3600},
		{"+05:30 India, 70 s of drift", wall, wall.Add(-5*time.Hour - 30*time.Minute - 70*time.Second), 5*3600 + 1800},
		{"+05:45 Nepal, UTC still the day before", time.Date(2021, 8, 15, 3, 0, 0, 0, time.UTC),
			time.Date(2021, 8, 14, 21, 15, 0, 0, time.UTC), 5*3600 + 45*60},
		{"+14:00 Kiribati", wall, wall.Add(-14 * time.Hour), 14 * 3600},
		{"-12:00", wall, wall.Add(12 * time.Hour), -12 * 3600},
		{"UTC", wall, wall.Add(time.Minute), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info := readExplained(t, "a.jpg", gpsJPEG(tc.wall, tc.utc, ""), Options{})
			d := info.Date
			if d.Tag != tagDTO || !d.Wall.Equal(tc.wall) || !d.HasOffset || d.Offset != tc.want {
				t.Fatalf("date %+v, want %v with offset %d; candidates %+v", d, tc.wall, tc.want, info.Candidates)
			}
			if !candidateNoted(info.Candidates, tagGPSDateTime, noteGPSOffset+": "+offsetText(tc.want)) ||
				!candidateNoted(info.Candidates, tagDTO, "used; "+noteGPSOffset) {
				t.Errorf("explain does not say the offset came from GPS time: %+v", info.Candidates)
			}
		})
	}
}

func TestGPSTimeIgnored(t *testing.T) {
	wall := time.Date(2021, 8, 14, 14, 12, 31, 0, time.UTC)
	bad := func(date string) []byte {
		return fixture.JPEG(fixture.EXIF{When: wall, GPS: wall.Add(-2 * time.Hour), GPSDate: date})
	}
	for _, tc := range []struct {
		name, why string
		data      []byte
	}{
		{"clock 3 minutes off a quarter hour", "off a whole quarter hour", gpsJPEG(wall, wall.Add(-2*time.Hour-3*time.Minute), "")},
		{"drift at the 2 minute limit", "off a whole quarter hour", gpsJPEG(wall, wall.Add(-2*time.Hour+2*time.Minute), "")},
		{"a day off: beyond any zone", "beyond any time zone", gpsJPEG(wall, wall.Add(22*time.Hour), "")},
		{"GPSDateStamp month 13", "GPSDateStamp \"2021:13:14\" rejected: month out of range", bad("2021:13:14")},
		{"GPSDateStamp not a date", "GPSDateStamp \"garbage\"", bad("garbage")},
		{"zero denominator", "is not a time of day", gpsTIFF(binary.BigEndian, "2021:08:14", [6]uint32{12, 1, 12, 0, 31, 1}, true)},
		{"hour 24", "is not a time of day", gpsTIFF(binary.LittleEndian, "2021:08:14", [6]uint32{24, 1, 0, 1, 0, 1}, true)},
		{"no date stamp", "no GPSDateStamp", gpsTIFF(binary.LittleEndian, "", [6]uint32{12, 1, 12, 1, 31, 1}, true)},
		{"time stamp of the wrong type", "no GPSTimeStamp of three rationals", gpsTIFF(binary.LittleEndian, "2021:08:14", [6]uint32{12, 1, 12, 1, 31, 1}, false)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := "a.jpg"
			if tc.data[0] != 0xFF {
				name = "a.tif"
			}
			info := readExplained(t, name, tc.data, Options{})
			if info.Date.Tag != tagDTO || info.Date.HasOffset {
				t.Fatalf("date %+v, want DateTimeOriginal without an offset; candidates %+v", info.Date, info.Candidates)
			}
			if !candidateNoted(info.Candidates, tagGPSDateTime, "not used for the offset: ") ||
				!candidateNoted(info.Candidates, tagGPSDateTime, tc.why) {
				t.Errorf("no candidate says why the GPS time was ignored (%q): %+v", tc.why, info.Candidates)
			}
		})
	}
}

// gpsTIFF is a TIFF whose DateTimeOriginal is 2021:08:14 14:12:31 and whose
// GPS IFD holds date (none when "") and the rationals hms, as RATIONALs
// when rational is set, else as LONGs.
func gpsTIFF(order interface {
	binary.ByteOrder
	binary.AppendByteOrder
}, date string, hms [6]uint32, rational bool) []byte {
	// header 8, IFD0 at 8 (2 entries), Exif IFD at 38 (1 entry), GPS IFD at 56 (2 entries), data at 86.
	const ifd0, exif, gps, data = 8, 38, 56, 86
	out := make([]byte, data)
	if order.String() == binary.BigEndian.String() {
		copy(out, "MM\x00*")
	} else {
		copy(out, "II*\x00")
	}
	order.PutUint32(out[4:], ifd0)
	put := func(at, i int, tag, typ uint16, count, val uint32) {
		p := at + 2 + 12*i
		order.PutUint16(out[p:], tag)
		order.PutUint16(out[p+2:], typ)
		order.PutUint32(out[p+4:], count)
		order.PutUint32(out[p+8:], val)
	}
	order.PutUint16(out[ifd0:], 2)
	put(ifd0, 0, tagExifIFD, 4, 1, exif)
	put(ifd0, 1, tagGPSIFD, 4, 1, gps)
	order.PutUint16(out[exif:], 1)
	put(exif, 0, tagDTOriginal, 2, 20, uint32(len(out)))
	out = append(out, "2021:08:14 14:12:31\x00"...)
	order.PutUint16(out[gps:], 2)
	typ, count := uint16(typeRational), uint32(3)
	if !rational {
		typ, count = 4, 6
	}
	put(gps, 0, tagGPSTimeStamp, typ, count, uint32(len(out)))
	for _, v := range hms {
		out = order.AppendUint32(out, v)
	}
	if date != "" {
		put(gps, 1, tagGPSDateStamp, 2, uint32(len(date)+1), uint32(len(out)))
		out = append(out, date+"\x00"...)
	} else {
		put(gps, 1, 0x0001, 2, 2, 'N') // GPSLatitudeRef, so the IFD still has two entries
	}
	return out
}

func TestGPSTimeFromBigEndianTIFF(t *testing.T) {
	// 12:12:31.5 UTC against a 14:12:31 clock: +02:00.
	info := readExplained(t, "a.tif", gpsTIFF(binary.BigEndian, "2021:08:14", [6]uint32{12, 1, 12, 1, 315, 10}, true), Options{})
	if !info.Date.HasOffset || info.Date.Offset != 7200 {
		t.Fatalf("date %+v; candidates %+v", info.Date, info.Candidates)
	}
}

func TestOwnOffsetBeatsGPS(t *testing.T) {
	wall := time.Date(2021, 8, 14, 14, 12, 31, 0, time.UTC)
	// GPS says +02:00; OffsetTimeOriginal says +03:00 and is the camera's own word.
	info := readExplained(t, "a.jpg", gpsJPEG(wall, wall.Add(-2*time.Hour), "+03:00"), Options{PhotoTZ: time.UTC})
	if !info.Date.HasOffset || info.Date.Offset != 3*3600 {
		t.Fatalf("date %+v, want +03:00 from OffsetTimeOriginal", info.Date)
	}
	if candidateNoted(info.Candidates, "", noteGPSOffset) || candidateNoted(info.Candidates, tagDTO, "time zone") {
		t.Errorf("an offset other than the file's own was mentioned: %+v", info.Candidates)
	}
}

func TestPhotoTZOnlyWhenNoOffsetIsKnown(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	summer := time.Date(2021, 8, 14, 14, 12, 31, 0, time.UTC)
	winter := time.Date(2021, 1, 14, 14, 12, 31, 0, time.UTC)
	plain := func(w time.Time) []byte { return fixture.JPEG(fixture.EXIF{When: w}) }
	for _, tc := range []struct {
		name    string
		data    []byte
		file    string
		opt     Options
		want    int
		has     bool
		noteHas string
	}{
		{"no zone given: no offset", plain(summer), "a.jpg", Options{}, 0, false, ""},
		{"Berlin in summer", plain(summer), "a.jpg", Options{PhotoTZ: berlin}, 7200, true, "used; offset from the camera's time zone Europe/Berlin"},
		{"Berlin in winter", plain(winter), "a.jpg", Options{PhotoTZ: berlin}, 3600, true, "time zone Europe/Berlin"},
		{"fixed -07:00", plain(summer), "a.jpg", Options{PhotoTZ: time.FixedZone("-07:00", -7*3600)}, -7 * 3600, true, "time zone -07:00"},
		{"OffsetTimeOriginal wins", fixture.JPEG(fixture.EXIF{When: summer, Offset: "-04:00"}), "a.jpg", Options{PhotoTZ: berlin}, -4 * 3600, true, ""},
		{"GPS wins", gpsJPEG(summer, summer.Add(-5*time.Hour-30*time.Minute), ""), "a.jpg", Options{PhotoTZ: berlin}, 5*3600 + 1800, true, noteGPSOffset},
		{"file name date of a photo", []byte("\x00not a jpeg"), "IMG_20210814_141231.jpg", Options{PhotoTZ: berlin}, 7200, true, "time zone Europe/Berlin"},
		{"mtime keeps its own offset", []byte("\x00not a jpeg"), "x.jpg", Options{PhotoTZ: berlin}, 0, true, ""},
		{"a phone video keeps its UTC", buildMOV(qtSeconds(summer), nil), "a.mov", Options{PhotoTZ: berlin, VideoTZ: time.UTC}, 0, true, ""},
		{"a camera video is not a photo", buildMOV(qtSeconds(summer), nil, box4("CNCV", []byte("CanonMOV"))), "MVI_1.MOV",
			Options{PhotoTZ: berlin}, 0, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info := readExplained(t, tc.file, tc.data, tc.opt)
			if d := info.Date; d.HasOffset != tc.has || d.Offset != tc.want {
				t.Fatalf("date %+v, want offset %d (%v); candidates %+v", d, tc.want, tc.has, info.Candidates)
			}
			if tc.noteHas != "" && !candidateNoted(info.Candidates, info.Date.Tag, tc.noteHas) {
				t.Errorf("the used candidate does not say %q: %+v", tc.noteHas, info.Candidates)
			}
			for _, c := range info.Candidates {
				if strings.Contains(c.Note, "; ;") || strings.HasSuffix(c.Note, "; ") {
					t.Errorf("note %q has an empty part", c.Note)
				}
			}
			if tc.noteHas == "" && candidateNoted(info.Candidates, info.Date.Tag, "time zone") {
				t.Errorf("the camera's zone was applied: %+v", info.Candidates)
			}
		})
	}
}

func TestTestdataAppleGPSOffset(t *testing.T) {
	// ExifTool: DateTimeOriginal 2016:09:28 18:18:05, GPSDateTime 2016:09:28 17:17:58.65Z.
	p := filepath.Join("testdata", "Apple.jpg")
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	info := NewReader(Options{}).File(p, st.Size(), fixedMtime)
	if !info.Date.HasOffset || info.Date.Offset != 3600 {
		t.Fatalf("date %+v, want +01:00 from GPS time", info.Date)
	}
}

// The corpus files with a GPS time stamp, by hand from ExifTool's
// DateTimeOriginal, OffsetTimeOriginal, GPSDateStamp and GPSTimeStamp.
var corpusGPS = []struct {
	file string
	off  int
	has  bool
}{
	{"exif-samples/jpg/hdr/iphone_hdr_YES.jpg", 2 * 3600, true}, // 20:12:23 vs 18:12:23.06Z
	{"exif-samples/jpg/hdr/iphone_hdr_NO.jpg", 2 * 3600, true},  // 20:12:23 vs 18:12:22.06Z
	{"exiftool-images/Apple.jpg", 3600, true},                   // 18:18:05 vs 17:17:58.65Z
	{"exiftool-images/GoPro.jpg", -4 * 3600, true},              // 10:58:29 vs 14:58:14Z
	{"exiftool-images/Ricoh2.jpg", 3600, true},                  // 11:48:48 vs 10:47:24Z: 84 s of drift
	{"exiftool-images/Google.jpg", 2 * 3600, true},              // its own +02:00 (GPS agrees within 2 min)
	{"exif-samples/jpg/mobile/HMD_Nokia_8.3_5G.jpg", 3 * 3600, true},
	{"exif-samples/jpg/gps/DSCN0010.jpg", 0, false}, // 2008:10:22 16:28:39 vs 2008:10:23 14:27:07Z: -22 h
	{"exif-samples/jpg/gps/DSCN0029.jpg", 0, false},
	{"exiftool-images/GPS.jpg", 0, false}, // GPSTimeStamp without GPSDateStamp
}

func TestCorpusGPSOffsets(t *testing.T) {
	dir := corpusDir(t)
	r := NewReader(Options{Explain: true})
	for _, c := range corpusGPS {
		p := filepath.Join(dir, c.file)
		st, err := os.Stat(p)
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		info := r.File(p, st.Size(), st.ModTime())
		if info.Date.HasOffset != c.has || info.Date.Offset != c.off {
			t.Errorf("%s: offset %d (%v), want %d (%v); candidates %+v", c.file, info.Date.Offset, info.Date.HasOffset, c.off, c.has, info.Candidates)
		}
	}
}
