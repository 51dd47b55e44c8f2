package meta

import (
	"bytes"
	"github.com/shoebox-photos/shoebox/internal/fixture"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// datesDir holds real files of issue 25's date classes, made by
// testdata/dates/gen.sh with ImageMagick 6 and ExifTool (damaged
// variants by byte edits), and ExifTool's reading of them.
const datesDir = "testdata/dates"

// TestDateClasses checks each generated file is dated by the field the
// README's precedence names, and that explain says why (note).
func TestDateClasses(t *testing.T) {
	tests := []struct {
		file, want, tag, note string
	}{
		// MWG: photoshop:DateCreated / IPTC DateCreated are DateTimeOriginal's
		// equivalents and beat CreateDate (the scan day).
		{"mwg-scan.jpg", "2003-07-08 00:00:00", tagXMPCreated, "used"},
		{"mwg-scan-iptc.jpg", "2003-07-08 12:00:00", tagIPTCCreated, "used"},
		{"mwg-nodigest.jpg", "2002-03-04 05:06:07", tagXMPCreated, "XMP comes before IPTC"},
		{"mwg-synced.jpg", "2002-03-04 05:06:07", tagXMPCreated, "XMP comes before IPTC"},
		{"mwg-iptc-changed.jpg", "2005-06-07 00:00:00", tagIPTCCreated, "the IPTC was changed after the XMP"},
		{"mwg-digital-changed.jpg", "2009-01-02 00:00:00", tagIPTCDigital, "the IPTC was changed after the XMP"},
		// A print dated by its owner with a year, or a year and month.
		{"mwg-year-only.jpg", "1975-01-01 00:00:00", tagXMPCreated, "only the year is given: filed on its first day"},
		{"mwg-year-month.jpg", "1975-06-01 00:00:00", tagXMPCreated, "only the year and month are given"},
		{"xmp-modify-only.jpg", "2019-10-11 12:13:14", "XMP-xmp:ModifyDate", "the last edit"},
		{"xmp-modify-exif.jpg", "2018-01-02 03:04:05", tagModify, "used"},
		// A damaged time keeps its day.
		{"time-sec70.jpg", "2011-10-06 00:00:00", tagDTO, "time unreadable, filed by its day: second out of range"},
		{"time-sec88.jpg", "2011-10-06 00:00:00", tagDTO, "time unreadable, filed by its day: second out of range"},
		{"time-hour57.jpg", "2011-10-06 00:00:00", tagDTO, "time unreadable, filed by its day: hour out of range"},
		{"time-cr.jpg", "2011-10-06 00:00:00", tagDTO, "time unreadable, filed by its day: time is not digits"},
		{"time-xmp-sec88.jpg", "2012-03-04 00:00:00", tagXMPCreated, "time unreadable, filed by its day: second out of range"},
		{"date-dotted.jpg", "2005-09-15 10:11:12", tagDTO, "used"},
		// ImageMagick's PNG text.
		{"png-create-date.png", "2007-08-09 10:11:12", "PNG:CreateDate", "used"},
		{"png-modify-date.png", "2008-02-03 04:05:06", "PNG:ModDate", "the last edit"},
		{"png-rfc1123.png", "2006-05-04 03:02:01", tagPNGCreation, "used"},
		{"png-rfc3339.png", "2006-05-04 03:02:01", tagPNGCreation, "used"},
		{"png-stamps-and-creation.png", "2005-06-04 10:00:00", tagPNGCreation, "used"},
		{"png-rawprofile-xmp.png", "2004-05-06 07:08:09", tagXMPDTO, "used"},
		{"png-rawprofile-xmp-only.png", "2004-05-06 07:08:09", tagXMPDTO, "used"},
		// FLIR's record, the only date left.
		{"flir-only.jpg", "2012-02-11 14:17:08", "FLIR:DateTimeOriginal", "used"},
		{"flir-bad-dir.jpg", "", tagModTime, ""},
	}
	r := NewReader(Options{Explain: true})
	for _, tc := range tests {
		path := filepath.Join(datesDir, tc.file)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		info := r.Bytes(tc.file, data, fixedMtime)
		got := info.Date.Wall.Format(time.DateTime)
		if info.Date.Tag != tc.tag || (tc.want != "" && got != tc.want) {
			t.Errorf("%s: dated %s by %s, want %s by %s; candidates %+v", tc.file, got, info.Date.Tag, tc.want, tc.tag, info.Candidates)
			continue
		}
		if tc.note != "" && !candidateNoted(info.Candidates, tc.tag, tc.note) {
			t.Errorf("%s: no candidate %s noted %q: %+v", tc.file, tc.tag, tc.note, info.Candidates)
		}
	}
}

// TestDateClassesAgreeWithExifTool: where ExifTool reads a real date, the
// file is dated by the reference's capture date (fixture.CaptureDate,
// which follows the same MWG order); a damaged time, which the
// reference skips, is the one difference, on purpose.
func TestDateClassesAgreeWithExifTool(t *testing.T) {
	r := NewReader(Options{})
	for _, e := range fixture.LoadTruth(t, filepath.Join(datesDir, "truth-exiftool.json")) {
		rel := e.Str("SourceFile")
		data, err := os.ReadFile(filepath.Join(datesDir, rel))
		if err != nil {
			t.Fatal(err)
		}
		info := r.Bytes(rel, data, fixedMtime)
		tag, want := e.CaptureDate()
		if why := onPurpose(e, info, want); why != "" {
			t.Logf("%s: differs from the reference on purpose: %s", rel, why)
			continue // TestDateClasses checks the date
		}
		if tag == "" {
			if info.Date.Source.FromFile() {
				t.Errorf("%s: ExifTool finds no date, we %s=%s", rel, info.Date.Tag, info.Date.Wall)
			}
			continue
		}
		if got := info.Date.Wall.Format("2006:01:02"); got != want[:10] {
			t.Errorf("%s: ExifTool %s=%s, we %s=%s", rel, tag, want, info.Date.Tag, got)
		}
	}
}

func TestDateForms(t *testing.T) {
	for in, want := range map[string]string{
		"20111006 17:47:14.264":     "2011-10-06 17:47:14.264",
		"2005.09.15":                "2005-09-15 00:00:00",
		"2005.09.15 10:11:12":       "2005-09-15 10:11:12",
		"2005-09-15T10:11:12+02:00": "2005-09-15 10:11:12",
		"2005-09-15T10:11:12":       "2005-09-15 10:11:12",
		"2005-09-15T10:11:12.5Z":    "2005-09-15 10:11:12.5",
		"2005-09-15T10:11":          "2005-09-15 10:11:00",
		"2011:10:06 17:47:70":       "2011-10-06 00:00:00",
		"2011:10:06 24:00:00":       "2011-10-06 00:00:00",
		"2011:10:06 17:61:00":       "2011-10-06 00:00:00",
		"2011:10:06 1\r:47:14":      "2011-10-06 00:00:00",
		"2011:10:06 17:47:14+99:00": "2011-10-06 00:00:00",
		"2011:10:06 ":               "2011-10-06 00:00:00",
	} {
		c, reason := parseDateTime([]byte(in), 2100)
		if got := c.wall().Format("2006-01-02 15:04:05.999"); reason != "" || got != want {
			t.Errorf("%q: %s %q, want %s", in, got, reason, want)
		}
	}
	for _, in := range []string{"2011:13:06 17:47:14", "2011:10:32", "201110061", "20111306", "0000:00:00 00:00:00", "1970:01:01 00:00:00", "2011:10"} {
		if c, reason := parseDateTime([]byte(in), 2100); reason == "" {
			t.Errorf("%q accepted as %v", in, c.wall())
		}
	}
}

func TestDateTagsOrder(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(datesDir, "mwg-scan.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	for tags, want := range map[string]string{
		"":                             tagXMPCreated,
		"CreateDate":                   tagCreate,
		"xmp:createdate":               tagXMPCreate,
		" XMP:CreateDate , CreateDate": tagXMPCreate,
	} {
		o, err := ParseDateTags(tags)
		if err != nil {
			t.Fatalf("%q: %v", tags, err)
		}
		if got := NewReader(Options{DateTags: o}).Bytes("a.jpg", data, fixedMtime).Date.Tag; got != want {
			t.Errorf("--date-tags %q: dated by %s, want %s", tags, got, want)
		}
	}
	// Named, the IPTC/XMP pair keeps the user's order whatever the digest says.
	changed, err := os.ReadFile(filepath.Join(datesDir, "mwg-iptc-changed.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	o, _ := ParseDateTags("XMP:DateCreated")
	if got := NewReader(Options{DateTags: o}).Bytes("a.jpg", changed, fixedMtime).Date.Tag; got != tagXMPCreated {
		t.Errorf("--date-tags XMP:DateCreated on a changed IPTC: dated by %s", got)
	}
	for _, bad := range []string{"Nope", "CreateDate,createdate", "CreateDate,,ModifyDate"} {
		if _, err := ParseDateTags(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if got := defaultOrder.String(); got != strings.Join(DateTagNames(), ",") {
		t.Errorf("default order %s", got)
	}
}

// A date whose time was lost has no instant: --tz must not give it an
// offset (its midnight would then pair with a video shot at that hour).
func TestLostTimeTakesNoZone(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(datesDir, "time-hour57.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skip("no zone data:", err)
	}
	d := NewReader(Options{PhotoTZ: paris}).Bytes("time-hour57.jpg", data, fixedMtime).Date
	if _, ok := d.Instant(); ok || d.TimeLost == "" || d.Wall.Format(time.DateTime) != "2011-10-06 00:00:00" {
		t.Errorf("lost time with --tz: %+v", d)
	}
}

// One Reader's zlib decompressor serves file after file: a damaged
// stream between two good ones changes nothing for the second.
func TestInflaterReusedAcrossFiles(t *testing.T) {
	good, err := os.ReadFile(filepath.Join(datesDir, "png-rawprofile-xmp-only.png"))
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(good, []byte("Raw profile type xmp\x00\x00")) + len("Raw profile type xmp\x00\x00")
	bad := append([]byte(nil), good...)
	for k := i + 2; k < i+40 && k < len(bad); k++ {
		bad[k] ^= 0x5a // the deflate stream garbled after its header
	}
	r := NewReader(Options{})
	for n, data := range [][]byte{good, bad, good[:i+1], good} {
		d := r.Bytes("a.png", data, fixedMtime).Date
		want := n == 0 || n == 3
		if got := d.Tag == tagXMPDTO && d.Wall.Format(time.DateTime) == "2004-05-06 07:08:09"; got != want {
			t.Errorf("file %d: dated %+v, want the XMP date: %v", n, d, want)
		}
	}
}
