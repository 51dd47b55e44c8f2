package meta

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func writeSidecar(t *testing.T, name, text string) (string, int64) {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p, int64(len(text))
}

func takeoutJSONText(timestamp string) string {
	return fmt.Sprintf(`{
  "title": "IMG_20190704_153000.jpg",
  "description": "",
  "imageViews": "3",
  "creationTime": {"timestamp": "1600000000", "formatted": "Sep 13, 2020, 12:26:40 PM UTC"},
  "photoTakenTime": {"timestamp": %s, "formatted": "Jul 4, 2019, 1:30:00 PM UTC"},
  "geoData": {"latitude": 48.1, "longitude": 11.5, "altitude": 0.0},
  "url": "https://photos.google.com/photo/x"
}`, timestamp)
}

func TestSidecarTakeoutJSON(t *testing.T) {
	berlin := time.FixedZone("CEST", 2*3600)
	const utc = 1562247000 // 2019-07-04 13:30:00 UTC
	tests := []struct {
		name, timestamp string
		loc             *time.Location
		wall            string
		offset          int
	}{
		{"IMG_1.jpg.json", `"1562247000"`, time.UTC, "2019-07-04 13:30:00", 0},
		{"IMG_1.jpg.supplemental-metadata.json", `"1562247000"`, berlin, "2019-07-04 15:30:00", 7200},
		{"number.json", `1562247000`, time.FixedZone("", -5*3600), "2019-07-04 08:30:00", -18000},
	}
	for _, tc := range tests {
		p, size := writeSidecar(t, tc.name, takeoutJSONText(tc.timestamp))
		d, ok, err := SidecarDate(p, size, tc.loc)
		if err != nil || !ok {
			t.Fatalf("SidecarDate(%s) = %v, %v, %v", tc.name, d, ok, err)
		}
		if got := d.Wall.Format("2006-01-02 15:04:05"); got != tc.wall || d.Offset != tc.offset || !d.HasOffset ||
			d.Source != SourceSidecar || d.Tag != tagTakeout {
			t.Errorf("%s: got %s %+v; want %s offset %d", tc.name, got, d, tc.wall, tc.offset)
		}
		if at, _ := d.Instant(); at.Unix() != utc {
			t.Errorf("%s: instant %v, want unix %d", tc.name, at, utc)
		}
	}
}

func TestSidecarTakeoutWithoutDate(t *testing.T) {
	for name, text := range map[string]string{
		"zero":        takeoutJSONText(`"0"`),
		"not digits":  takeoutJSONText(`"soon"`),
		"far future":  takeoutJSONText(`"99999999999"`),
		"album":       `{"title": "Trip", "date": {"timestamp": "1562247000"}, "access": "protected"}`,
		"null":        `{"photoTakenTime": null}`,
		"empty taken": `{"photoTakenTime": {}}`,
	} {
		p, size := writeSidecar(t, "x.json", text)
		d, ok, err := SidecarDate(p, size, time.UTC)
		if err != nil || ok {
			t.Errorf("%s: SidecarDate = %v, %v, %v; want no date and no error", name, d, ok, err)
		}
	}
}

func TestSidecarErrors(t *testing.T) {
	p, size := writeSidecar(t, "broken.json", `{"photoTakenTime": {"timestamp": "1562247000"`)
	if _, ok, err := SidecarDate(p, size, time.UTC); ok || err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("truncated JSON: ok=%v err=%v, want an error naming the file", ok, err)
	}
	missing := filepath.Join(t.TempDir(), "gone.xmp")
	if _, _, err := SidecarDate(missing, 10, time.UTC); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: err = %v", err)
	}
	// ExifTool's JSON sample has trailing commas: not JSON, so not Takeout.
	if _, ok, err := SidecarDate(filepath.Join("testdata", "JSON.json"), 1<<10, time.UTC); ok || err == nil {
		t.Errorf("testdata/JSON.json: ok=%v err=%v, want a JSON error", ok, err)
	}
}

func TestSidecarBoundedRead(t *testing.T) {
	pad := strings.Repeat(" ", 2<<20)
	p, size := writeSidecar(t, "big.json", takeoutJSONText(`"1562247000"`)+pad)
	if _, ok, err := SidecarDate(p, size, time.UTC); ok || err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("2 MiB JSON: ok=%v err=%v, want too large", ok, err)
	}
	xmp := `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:Description xmp:CreateDate="2018-03-04T05:06:07"/>` + pad + "</x:xmpmeta>"
	p, size = writeSidecar(t, "big.xmp", xmp)
	d, ok, err := SidecarDate(p, size, time.UTC)
	if err != nil || !ok || d.Wall.Format(time.DateTime) != "2018-03-04 05:06:07" || d.Tag != tagXMPCreate {
		t.Errorf("2 MiB XMP with the date at the top: %+v, %v, %v", d, ok, err)
	}
	late := `<x:xmpmeta>` + pad + `<rdf:Description xmp:CreateDate="2018-03-04T05:06:07"/></x:xmpmeta>`
	p, size = writeSidecar(t, "late.xmp", late)
	if d, ok, err := SidecarDate(p, size, time.UTC); err != nil || ok {
		t.Errorf("a date past the first MiB is not read: %+v, %v, %v", d, ok, err)
	}
	// A size smaller than the file (it grew since the scan) bounds the read too.
	p, _ = writeSidecar(t, "grew.xmp", `<x:xmpmeta xmp:CreateDate="2018-03-04T05:06:07"/>`)
	if _, ok, err := SidecarDate(p, 12, time.UTC); err != nil || ok {
		t.Errorf("read past the scanned size: ok=%v err=%v", ok, err)
	}
}

func TestSidecarXMPPrecedence(t *testing.T) {
	// MWG (issue 25): photoshop:DateCreated is the equivalent of
	// DateTimeOriginal and comes before XMP's exif:DateTimeOriginal and
	// xmp:CreateDate (the digitisation: a scan's day).
	tests := []struct{ xmp, wall, tag string }{
		{`<x:xmpmeta><rdf:Description photoshop:DateCreated="2001-01-01" xmp:CreateDate="2002-02-02T02:02:02" exif:DateTimeOriginal="2003-03-03T03:03:03+01:00"/></x:xmpmeta>`,
			"2001-01-01 00:00:00", tagXMPCreated},
		{`<x:xmpmeta><rdf:Description xmp:CreateDate="2002-02-02T02:02:02" exif:DateTimeOriginal="2003-03-03T03:03:03+01:00"/></x:xmpmeta>`,
			"2003-03-03 03:03:03", tagXMPDTO},
		{`<?xml version="1.0"?><x:xmpmeta><rdf:Description><photoshop:DateCreated>2001-01-01T10:00:00</photoshop:DateCreated><xmp:CreateDate>2002-02-02T02:02:02</xmp:CreateDate></rdf:Description></x:xmpmeta>`,
			"2001-01-01 10:00:00", tagXMPCreated},
		{`<x:xmpmeta><rdf:Description xmp:CreateDate="2002-02-02T02:02:02" xmp:ModifyDate="2009-09-09T09:09:09"/></x:xmpmeta>`,
			"2002-02-02 02:02:02", tagXMPCreate},
		{`<x:xmpmeta><rdf:Description xmp:ModifyDate="2009-09-09T09:09:09"/></x:xmpmeta>`,
			"2009-09-09 09:09:09", tagXMPModify},
		{`<x:xmpmeta photoshop:DateCreated="2001-05-06"/>`, "2001-05-06 00:00:00", tagXMPCreated},
		// A year, or a year and month, alone (a scanned print's owner's date).
		{`<x:xmpmeta photoshop:DateCreated="1975" xmp:CreateDate="2024-05-06T07:08:09"/>`, "1975-01-01 00:00:00", tagXMPCreated},
		{`<x:xmpmeta photoshop:DateCreated=" 1970-06 " xmp:CreateDate="2024-05-06T07:08:09"/>`, "1970-06-01 00:00:00", tagXMPCreated},
		// Out of range or not that form: the next date is used.
		{`<x:xmpmeta photoshop:DateCreated="1899" xmp:CreateDate="2024-05-06T07:08:09"/>`, "2024-05-06 07:08:09", tagXMPCreate},
		{`<x:xmpmeta photoshop:DateCreated="1975-13" xmp:CreateDate="2024-05-06T07:08:09"/>`, "2024-05-06 07:08:09", tagXMPCreate},
		{`<x:xmpmeta photoshop:DateCreated="197A" xmp:CreateDate="2024-05-06T07:08:09"/>`, "2024-05-06 07:08:09", tagXMPCreate},
		{`<x:xmpmeta photoshop:DateCreated="19750" xmp:CreateDate="2024-05-06T07:08:09"/>`, "2024-05-06 07:08:09", tagXMPCreate},
		{`<x:xmpmeta photoshop:DateCreated="9999" xmp:CreateDate="2024-05-06T07:08:09"/>`, "2024-05-06 07:08:09", tagXMPCreate},
	}
	for _, tc := range tests {
		p, size := writeSidecar(t, "IMG_20190704_153000.CR2.xmp", tc.xmp)
		d, ok, err := SidecarDate(p, size, time.UTC)
		if err != nil || !ok || d.Wall.Format(time.DateTime) != tc.wall || d.Tag != tc.tag || d.Source != SourceSidecar {
			t.Errorf("%s\n got %+v, %v, %v; want %s from %s", tc.xmp, d, ok, err, tc.wall, tc.tag)
		}
	}
	// No date in the packet: the date in the file name is not used.
	p, size := writeSidecar(t, "IMG_20190704_153000.CR2.xmp", `<x:xmpmeta><rdf:Description xmp:Rating="3"/></x:xmpmeta>`)
	if d, ok, err := SidecarDate(p, size, time.UTC); ok || err != nil {
		t.Errorf("XMP without a date: %+v, %v, %v", d, ok, err)
	}
}

func TestSidecarTestdataFiles(t *testing.T) {
	tests := []struct {
		file, wall, tag string
		offset          int
		ok              bool
	}{
		{"XMP.xmp", "2005-06-09 20:09:27", tagXMPDTO, 7200, true},
		{"CRW_0101.THM", "2021-04-08 14:51:13", tagDTO, 0, true},
		{"PLIST.aae", "", "", 0, false},
	}
	for _, tc := range tests {
		p := filepath.Join("testdata", tc.file)
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		d, ok, err := SidecarDate(p, st.Size(), time.UTC)
		if err != nil || ok != tc.ok {
			t.Errorf("%s: ok=%v err=%v, want ok=%v", tc.file, ok, err, tc.ok)
			continue
		}
		if ok && (d.Wall.Format(time.DateTime) != tc.wall || d.Tag != tc.tag || d.Offset != tc.offset || d.Source != SourceSidecar) {
			t.Errorf("%s: got %+v; want %s %s offset %d", tc.file, d, tc.wall, tc.tag, tc.offset)
		}
	}
}

// TestSidecarCorpusAgreesWithExifTool reads every THM and XMP file in the
// corpus and compares with ExifTool's first capture-date field.
func TestSidecarCorpusAgreesWithExifTool(t *testing.T) {
	dir := corpusDir(t)
	checked := 0
	for _, e := range loadTruth(t, filepath.Join(dir, "truth-exiftool.json")) {
		rel := e.Str("SourceFile")
		ext := strings.ToLower(filepath.Ext(rel))
		if ext != ".thm" && ext != ".xmp" || strings.Contains(rel, "hangs/") {
			continue
		}
		path := filepath.Join(dir, rel)
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		d, ok, err := SidecarDate(path, st.Size(), time.UTC)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		want := ""
		for _, tag := range []string{"ExifIFD:DateTimeOriginal", "XMP-exif:DateTimeOriginal", "XMP-xmp:CreateDate", "XMP-photoshop:DateCreated"} {
			if want = e.Str(tag); want != "" {
				break
			}
		}
		got := ""
		if ok {
			got = d.Wall.Format("2006:01:02 15:04:05")
		}
		if len(want) > len(got) {
			want = want[:len(got)] // drop ExifTool's "+02:00"
		}
		if got != want {
			t.Errorf("%s: SidecarDate %q, ExifTool %q", rel, got, want)
		}
		checked++
	}
	if checked < 15 {
		t.Errorf("checked only %d THM/XMP files", checked)
	}
}

// TestSidecarCandidatesFindCorpusPairs checks that each Canon CRW in the
// corpus finds its THM among its candidates, and that the THM dates the
// raw within a second of the CRW's own time stamp.
func TestSidecarCandidatesFindCorpusPairs(t *testing.T) {
	dir := corpusDir(t)
	crws, _ := filepath.Glob(filepath.Join(dir, "digicam", "Canon", "*", "*.CRW"))
	if len(crws) == 0 {
		t.Skip("no CRW files in the corpus")
	}
	r := NewReader(Options{})
	for _, crw := range crws {
		var thm string
		for _, c := range SidecarCandidates(crw) {
			if _, err := os.Stat(c); err == nil && strings.HasSuffix(c, ".THM") {
				thm = c
				break
			}
		}
		if thm == "" {
			t.Errorf("%s: no THM among its existing candidates", crw)
			continue
		}
		st, _ := os.Stat(thm)
		d, ok, err := SidecarDate(thm, st.Size(), time.UTC)
		cst, _ := os.Stat(crw)
		own := r.File(crw, cst.Size(), cst.ModTime()).Date
		if err != nil || !ok || own.Source != SourceEXIF || d.Wall.Sub(own.Wall).Abs() > time.Second {
			t.Errorf("%s: THM date %v (%v, %v), CRW date %v", crw, d.Wall, ok, err, own.Wall)
		}
	}
}

func TestSidecarCandidates(t *testing.T) {
	long := "Screenshot_20220207_102421_com.snapchat.android.jpg" // 51 bytes
	tests := []struct {
		media string
		want  []string // must all be present
		not   []string
	}{
		{"/c/IMG_1.CR2", []string{"/c/IMG_1.CR2.xmp", "/c/IMG_1.CR2.XMP", "/c/IMG_1.xmp", "/c/IMG_1.XMP", "/c/IMG_1.AAE",
			"/c/IMG_O1.AAE", "/c/IMG_1.THM", "/c/IMG_1.CR2.json", "/c/IMG_1.CR2.supplemental-metadata.json"}, nil},
		{"IMG_1.jpg", []string{"IMG_1.jpg.json", "IMG_1.jpg.supplemental-metadata.json", "IMG_1.json"}, []string{"IMG_1.jpg"}},
		{"/t/image(1).jpg", []string{"/t/image.jpg(1).json", "/t/image.jpg.supplemental-metadata(1).json", "/t/image(1).jpg.json"}, nil},
		{"/t/IMG_1-edited.jpg", []string{"/t/IMG_1.jpg.json", "/t/IMG_1.jpg.supplemental-metadata.json", "/t/IMG_1-edited.jpg.json"}, nil},
		{"/t/Screenshot_2017-07-05-10-05-26.png", []string{"/t/Screenshot_2017-07-05-10-05-26.png.supplementa.json"}, nil},
		{"/t/" + long, []string{"/t/Screenshot_20220207_102421_com.snapchat.androi.json"}, nil},
		{"/t/CRW_0101.THM", []string{"/t/CRW_0101.thm", "/t/CRW_0101.THM.xmp"}, []string{"/t/CRW_0101.THM"}},
	}
	for _, tc := range tests {
		got := SidecarCandidates(tc.media)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("SidecarCandidates(%q) lacks %q; got %q", tc.media, w, got)
			}
		}
		for _, n := range tc.not {
			if slices.Contains(got, n) {
				t.Errorf("SidecarCandidates(%q) lists %q", tc.media, n)
			}
		}
		if len(slices.Compact(slices.Sorted(slices.Values(got)))) != len(got) {
			t.Errorf("SidecarCandidates(%q) has duplicates: %q", tc.media, got)
		}
	}
}

func TestClipKeepsRunes(t *testing.T) {
	s := strings.Repeat("a", 45) + "é.jpg" // é spans bytes 45-46
	if got := clip(s); got != strings.Repeat("a", 45) {
		t.Errorf("clip = %q", got)
	}
}

func FuzzSidecar(f *testing.F) {
	for _, name := range []string{"XMP.xmp", "CRW_0101.THM", "PLIST.aae", "JSON.json"} {
		if data, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(takeoutJSONText(`"1562247000"`)))
	f.Add([]byte(`{"photoTakenTime":{"timestamp":1}}`))
	f.Add([]byte(`<x:xmpmeta xmp:CreateDate="2018-03-04T05:06:07"/>`))
	f.Add([]byte(`<x:xmpmeta photoshop:DateCreated="1975"/>`))
	f.Add([]byte(`<x:xmpmeta photoshop:DateCreated="1975-06" xmp:CreateDate="2018"/>`))
	r := NewReader(Options{VideoTZ: time.UTC})
	f.Fuzz(func(t *testing.T, data []byte) {
		d, ok, err := r.sidecarBytes("x.json", data, false)
		if ok && (err != nil || d.IsZero() || d.Source != SourceSidecar || d.Tag == "") {
			t.Fatalf("ok date %+v with err %v", d, err)
		}
		if !ok && !d.IsZero() {
			t.Fatalf("date %+v without ok", d)
		}
	})
}
