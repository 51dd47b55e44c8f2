package meta

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var fixedMtime = time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)

// What content sniffing must say for each testdata file.
var wantFormat = map[string]struct {
	format string
	kind   Kind
}{
	"Apple.jpg": {"jpeg", KindPhoto}, "Canon.jpg": {"jpeg", KindPhoto}, "Nikon.jpg": {"jpeg", KindPhoto},
	"Sony.jpg": {"jpeg", KindPhoto}, "Pentax.jpg": {"jpeg", KindPhoto}, "FujiFilm.jpg": {"jpeg", KindPhoto},
	"CasioQVCI.jpg": {"jpeg", KindPhoto}, "image01137.jpg": {"jpeg", KindPhoto},
	"Reconyx_HC500_Hyperfire.jpg": {"jpeg", KindPhoto}, "olympus-d320l.jpg": {"jpeg", KindPhoto},
	"PNG.png": {"png", KindPhoto}, "RIFF.webp": {"webp", KindPhoto}, "QuickTime.heic": {"heic", KindPhoto},
	"IMG_5195.HEIC": {"heic", KindPhoto}, "QuickTime.mov": {"mov", KindVideo}, "P1000244.MOV": {"mov", KindVideo},
	"RIFF.avi": {"avi", KindVideo}, "Pentax.avi": {"avi", KindVideo}, "CanonRaw.crw": {"crw", KindPhoto},
	"CanonRaw.cr2": {"cr2", KindPhoto}, "CanonRaw.cr3": {"cr3", KindPhoto}, "Nikon.nef": {"nef", KindPhoto},
	"Panasonic.rw2": {"rw2", KindPhoto}, "FujiFilm.raf": {"raf", KindPhoto}, "DNG.dng": {"dng", KindPhoto},
	"XMP.xmp": {"xmp", KindSidecar}, "PLIST.aae": {"aae", KindSidecar}, "JSON.json": {"json", KindSidecar},
	"CRW_0101.THM": {"thm", KindSidecar},
}

func TestTestdataAgreesWithExifTool(t *testing.T) {
	entries := loadTruth(t, filepath.Join("testdata", "truth.json"))
	if len(entries) < 20 {
		t.Fatalf("truth.json has %d entries", len(entries))
	}
	r := NewReader(Options{VideoTZ: time.UTC, Explain: true})
	for _, e := range entries {
		name := e.Str("SourceFile")
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", name)
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			info := r.File(path, st.Size(), fixedMtime)
			checkFormat(t, name, info)
			checkDate(t, e, info)
			checkMakeModel(t, e, info)
		})
	}
}

func checkFormat(t *testing.T, name string, info Info) {
	want, ok := wantFormat[name]
	if !ok {
		t.Fatalf("no expected format for %s", name)
	}
	if info.Format != want.format || info.Kind != want.kind {
		t.Errorf("format/kind = %s/%s, want %s/%s", info.Format, info.Kind, want.format, want.kind)
	}
}

func checkDate(t *testing.T, e truthEntry, info Info) {
	tag, want := e.CaptureDate()
	if tag == "" {
		if info.Date.Source != SourceModTime && info.Date.Source != SourceFilename && info.Date.Source != SourceXMP {
			t.Errorf("no date in truth, but we found %s %v", info.Date.Tag, info.Date.Wall)
		}
		return
	}
	got := info.Date.Wall.Format("2006:01:02 15:04:05")
	if got != want[:19] && !(tag == tagRIFF && got[:10] == want[:10]) { // ExifTool drops the seconds of Pentax's IDIT
		t.Errorf("date = %s (%s), exiftool %s = %s; candidates %+v", got, info.Date.Tag, tag, want, info.Candidates)
	}
	if tag == tagDTO {
		if sub := e.Str("ExifIFD:SubSecTimeOriginal"); sub != "" {
			if ns, _ := parseSubSec([]byte(sub)); info.Date.Wall.Nanosecond() != ns {
				t.Errorf("subsec = %d ns, exiftool %q", info.Date.Wall.Nanosecond(), sub)
			}
		}
		if off := e.Str("ExifIFD:OffsetTimeOriginal"); off != "" {
			want, _, _ := parseOffset([]byte(off))
			if !info.Date.HasOffset || info.Date.Offset != want {
				t.Errorf("offset = %d (%v), exiftool %q", info.Date.Offset, info.Date.HasOffset, off)
			}
		}
	}
}

func checkMakeModel(t *testing.T, e truthEntry, info Info) {
	for k := range e {
		if strings.HasPrefix(k, "XMP") {
			continue
		}
		if strings.HasSuffix(k, ":Make") && info.Make != strings.TrimSpace(e.Str(k)) {
			t.Errorf("make = %q, exiftool %s = %q", info.Make, k, e.Str(k))
		}
		if strings.HasSuffix(k, ":Model") && info.Model != strings.TrimSpace(e.Str(k)) {
			t.Errorf("model = %q, exiftool %s = %q", info.Model, k, e.Str(k))
		}
	}
}

func TestHEICSubSecOffsetAndXMP(t *testing.T) {
	path := filepath.Join("testdata", "IMG_5195.HEIC")
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	info := NewReader(Options{Explain: true}).File(path, st.Size(), fixedMtime)
	want := time.Date(2021, 4, 11, 15, 47, 53, 54_000_000, time.UTC)
	if !info.Date.Wall.Equal(want) || info.Date.Offset != -5*3600 || info.Date.Tag != tagDTO {
		t.Errorf("date = %v %d %s, want %v -05:00 DateTimeOriginal", info.Date.Wall, info.Date.Offset, info.Date.Tag, want)
	}
	var sawXMP bool
	for _, c := range info.Candidates {
		sawXMP = sawXMP || c.Tag == tagXMPCreate
	}
	if !sawXMP {
		t.Errorf("XMP CreateDate of the HEIC not among candidates: %+v", info.Candidates)
	}
}

func TestXMPSidecarDates(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "XMP.xmp"))
	if err != nil {
		t.Fatal(err)
	}
	info := NewReader(Options{}).Bytes("XMP.xmp", data, fixedMtime)
	want := time.Date(2005, 6, 9, 20, 9, 27, 0, time.UTC)
	if info.Kind != KindSidecar || !info.Date.Wall.Equal(want) || info.Date.Offset != 7200 || info.Date.Source != SourceXMP {
		t.Errorf("xmp sidecar = %s %+v, want %v +02:00 from XMP", info.Kind, info.Date, want)
	}
}

func TestAbsurdDatesFallThrough(t *testing.T) {
	cases := []struct {
		dto, create, modify string
		want                string
		tag                 string
	}{
		{"0000:00:00 00:00:00", "2019:07:04 15:30:01", "", "2019-07-04T15:30:01", tagCreate},
		{"2019:13:04 15:30:00", "", "2018:01:01 00:00:00", "2018-01-01T00:00:00", tagModify},
		{"2019:00:04 15:30:00", "2019:02:30 10:00:00", "2018:01:01 00:00:00", "2018-01-01T00:00:00", tagModify},
		{"2019:07:32 15:30:00", "2019:07:00 15:30:00", "", "2001-02-03T04:05:06", tagModTime},
		// A damaged time keeps its sound day (issue 25): hour 25 files by 2019-07-04.
		{"2019:07:04 25:30:00", "1899:12:31 10:00:00", "", "2019-07-04T00:00:00", tagDTO},
		{"2019:07:32 25:30:00", "1899:12:31 10:00:00", "", "2001-02-03T04:05:06", tagModTime},
		{"9999:07:04 10:30:00", "    :  :     :  :  ", "", "2001-02-03T04:05:06", tagModTime},
		{"2016:02:29 23:59:59", "", "", "2016-02-29T23:59:59", tagDTO},
	}
	r := NewReader(Options{Explain: true})
	for _, c := range cases {
		exif := []exifTag{{tagDTOriginal, c.dto}}
		if c.create != "" {
			exif = append(exif, exifTag{tagDTDigitized, c.create})
		}
		var ifd0 []exifTag
		if c.modify != "" {
			ifd0 = append(ifd0, exifTag{tagDateTime, c.modify})
		}
		info := r.Bytes("x.jpg", buildJPEG(buildTIFF(ifd0, exif), 0), fixedMtime)
		got := info.Date.Wall.Format("2006-01-02T15:04:05")
		if got != c.want || info.Date.Tag != c.tag {
			t.Errorf("dto %q create %q: got %s %s, want %s %s", c.dto, c.create, got, info.Date.Tag, c.want, c.tag)
		}
		if c.tag != tagDTO && !hasRejection(info.Candidates, tagDTO) {
			t.Errorf("dto %q: no rejection note among %+v", c.dto, info.Candidates)
		}
	}
}

func hasRejection(cs []Candidate, tag string) bool {
	for _, c := range cs {
		if c.Tag == tag && strings.HasPrefix(c.Note, "rejected:") {
			return true
		}
	}
	return false
}

func TestSubSecIsADecimalFraction(t *testing.T) {
	for in, ns := range map[string]int{"031": 31_000_000, "91": 910_000_000, "5": 500_000_000, "123456789": 123456789, " 80 ": 800_000_000} {
		if got, ok := parseSubSec([]byte(in)); !ok || got != ns {
			t.Errorf("subsec %q = %d, want %d", in, got, ns)
		}
	}
	if _, ok := parseSubSec([]byte("   ")); ok {
		t.Error("blank subsec accepted")
	}
}

func TestJPEGDateSubSecOffsetMakeModel(t *testing.T) {
	info := NewReader(Options{}).File(writeTemp(t, "a.jpg", sampleJPEG(1024)), 1024, fixedMtime)
	want := time.Date(2019, 7, 4, 15, 30, 0, 31_000_000, time.UTC)
	if !info.Date.Wall.Equal(want) || !info.Date.HasOffset || info.Date.Offset != 7200 {
		t.Errorf("date %+v, want %v +02:00", info.Date, want)
	}
	if info.Make != "Canon" || info.Model != "Canon EOS 5D" || info.Format != "jpeg" || info.Warning != "" {
		t.Errorf("info %+v", info)
	}
}

func qtSeconds(t time.Time) uint32 { return uint32(t.Unix() + qtEpochOffset) }

func TestMOVKeysBeatMvhdAndCarryContentID(t *testing.T) {
	utc := time.Date(2020, 4, 17, 16, 3, 47, 0, time.UTC)
	mov := buildMOV(qtSeconds(utc), map[string]string{
		"com.apple.quicktime.creationdate":       "2020-04-17T10:03:47-0600",
		"com.apple.quicktime.make":               "Apple",
		"com.apple.quicktime.model":              "iPhone XR",
		"com.apple.quicktime.content.identifier": "1EA799FF-8384-4BC4-87AA-139A814D9125",
	})
	info := NewReader(Options{VideoTZ: time.UTC}).File(writeTemp(t, "IMG_1.MOV", mov), int64(len(mov)), fixedMtime)
	if info.Date.Tag != tagKeys || info.Date.Wall != time.Date(2020, 4, 17, 10, 3, 47, 0, time.UTC) || info.Date.Offset != -6*3600 {
		t.Errorf("date %+v", info.Date)
	}
	if info.ContentID != "1EA799FF-8384-4BC4-87AA-139A814D9125" || info.Make != "Apple" || info.Model != "iPhone XR" {
		t.Errorf("info %+v", info)
	}
}

func TestMvhdIsUTCForPhonesAndLocalForCameras(t *testing.T) {
	stamp := time.Date(2023, 10, 21, 10, 20, 1, 0, time.UTC)
	tz := time.FixedZone("test", -5*3600)
	r := NewReader(Options{VideoTZ: tz})
	phone := buildMOV(qtSeconds(stamp), nil)
	info := r.Bytes("clip.mov", phone, fixedMtime)
	if info.Date.Wall != time.Date(2023, 10, 21, 5, 20, 1, 0, time.UTC) || info.Date.Offset != -5*3600 {
		t.Errorf("unknown maker: %+v, want UTC converted to VideoTZ", info.Date)
	}
	inf := box4("\xa9inf", []byte("\x00\x14\x00\x00Panasonic  PV-SD4090"))
	camera := buildMOV(qtSeconds(stamp), nil, inf)
	info = r.Bytes("clip.mov", camera, fixedMtime)
	if info.Date.Wall != stamp || info.Date.HasOffset {
		t.Errorf("camera maker: %+v, want mvhd as local wall clock", info.Date)
	}
	canon := buildMOV(qtSeconds(stamp), nil, box4("CNCV", []byte("CanonMOV")))
	if info = r.Bytes("MVI_1.MOV", canon, fixedMtime); info.Date.Wall != stamp {
		t.Errorf("Canon atom: %+v, want local", info.Date)
	}
	zero := buildMOV(0, nil)
	if info = r.Bytes("VID_20191231_235959.mp4", zero, fixedMtime); info.Date.Source != SourceFilename {
		t.Errorf("mvhd 0 must fall back to the file name: %+v", info.Date)
	}
}

func TestCorpusMovies(t *testing.T) {
	dir := corpusDir(t)
	r := NewReader(Options{VideoTZ: time.UTC})
	cases := map[string]string{
		"digicam/Panasonic/DS CAMERA/DCIM/100_PANA/P1000244.MOV": "2023-10-21T10:20:01", // camera: local mvhd
		"digicam/Apple/iPhone XR/IMG_3589.mov":                   "2020-04-17T10:03:47", // Keys, local with offset
		"exiftool-images/QuickTime.mov":                          "2005-08-11T14:03:54", // Pentax: local mvhd
	}
	for rel, want := range cases {
		p := filepath.Join(dir, rel)
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		info := r.File(p, st.Size(), fixedMtime)
		if got := info.Date.Wall.Format("2006-01-02T15:04:05"); got != want {
			t.Errorf("%s: %s (%s), want %s", rel, got, info.Date.Tag, want)
		}
		if strings.Contains(rel, "IMG_3589") && info.ContentID != "1EA799FF-8384-4BC4-87AA-139A814D9125" {
			t.Errorf("%s: content id %q", rel, info.ContentID)
		}
	}
}

func TestFilenameDate(t *testing.T) {
	cases := map[string]string{
		"IMG_20190704_153000.jpg":        "2019-07-04T15:30:00.000",
		"PXL_20230101_123456789.jpg":     "2023-01-01T12:34:56.789",
		"2019-07-04 15.30.00.jpg":        "2019-07-04T15:30:00.000",
		"Screenshot_20200101-101010.png": "2020-01-01T10:10:10.000",
		"IMG-20200101-WA0001.jpg":        "2020-01-01T00:00:00.000",
		"VID_20191231_235959.mp4":        "2019-12-31T23:59:59.000",
		"20190704_153000.jpg":            "2019-07-04T15:30:00.000",
		"20190704153000.jpg":             "2019-07-04T15:30:00.000",
		"2019_07_04.jpg":                 "2019-07-04T00:00:00.000",
		"IMG_20190704_256000.jpg":        "2019-07-04T00:00:00.000", // bad time: date only
		"signal-2021-03-04-10-20-30.jpg": "2021-03-04T10:20:30.000",
	}
	for name, want := range cases {
		got, ok := FilenameDate(name)
		if !ok || got.Format("2006-01-02T15:04:05.000") != want {
			t.Errorf("FilenameDate(%q) = %v %v, want %s", name, got, ok, want)
		}
	}
	for _, name := range []string{"IMG_1234.JPG", "DSC09999.ARW", "P1000244.MOV", "123456789012.jpg",
		"IMG_20191399_101010.jpg", "20190230.jpg", "1234-56-78.jpg", "DSC_19991231.jpg1", "x99999999.jpg", ""} {
		if got, ok := FilenameDate(name); ok && name != "DSC_19991231.jpg1" {
			t.Errorf("FilenameDate(%q) = %v, want none", name, got)
		}
	}
}

func TestMissingFileWarnsAndFallsBack(t *testing.T) {
	info := NewReader(Options{}).File(filepath.Join(t.TempDir(), "IMG_20190704_153000.jpg"), 10, fixedMtime)
	if info.Warning == "" || info.Date.Source != SourceFilename {
		t.Errorf("info %+v", info)
	}
	info = NewReader(Options{}).Bytes("broken.jpg", []byte{0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x01}, fixedMtime)
	if info.Warning == "" || info.Date.Source != SourceModTime || info.Date.Tag != tagModTime || info.Format != "jpeg" {
		t.Errorf("broken jpeg: %+v", info)
	}
}

func TestKindAndSourceNames(t *testing.T) {
	if KindVideo.String() != "video" || KindSidecar.String() != "sidecar" || KindOther.String() != "other" || KindPhoto.String() != "photo" {
		t.Error("kind names")
	}
	want := []string{"none", "exif", "quicktime", "xmp", "sidecar", "filename", "mtime", "iptc", "container", "png"}
	for i, w := range want {
		if Source(i).String() != w {
			t.Errorf("Source(%d) = %s, want %s", i, Source(i), w)
		}
	}
}

// TestKindByName: the extension alone, as an unreadable file is
// classified; .raw names other things too, so only content makes it a photo.
func TestKindByName(t *testing.T) {
	for name, want := range map[string]Kind{
		"IMG_0001.JPG": KindPhoto, "a/b/x.jpeg": KindPhoto, "IMG_0001.CR3": KindPhoto, "P1.hif": KindPhoto,
		"MVI_0001.MOV": KindVideo, "00001.MTS": KindVideo, "clip.m2ts": KindVideo,
		"IMG_0001.xmp": KindSidecar, "MVI_0001.THM": KindSidecar, "IMG_0001.JPG.json": KindSidecar,
		"notes.txt": KindOther, "card.raw": KindOther, "README": KindOther,
	} {
		if got := KindByName(name); got != want {
			t.Errorf("KindByName(%q) = %s, want %s", name, got, want)
		}
	}
}
