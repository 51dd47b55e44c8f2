package layout

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
)

var july4 = Fields{
	Time:    time.Date(2019, 7, 4, 9, 5, 3, 0, time.UTC),
	Name:    "IMG_0042",
	Ext:     ".JPG",
	Make:    "Apple",
	Model:   "iPhone XS",
	Kind:    "photo",
	Counter: 7,
}

func TestParseRejects(t *testing.T) {
	cases := []struct {
		tmpl string
		pos  int
		want string // substring of the message
	}{
		{"", 0, "empty"},
		{"   ", 0, "empty"},
		{"/photos/{name}{ext}", 1, "absolute"},
		{"C:/photos/{name}{ext}", 1, "absolute"},
		{"{yaer}/{name}{ext}", 1, "unknown token {yaer}; did you mean {year}?"},
		{"{year}/{mnth}/{name}{ext}", 8, "did you mean {month}?"},
		{"{year}/{name}{extension}", 14, "did you mean {ext}?"},
		{"{year/{name}{ext}", 1, "never closed"},
		{"{year}/{name}{ext", 14, "never closed"},
		{"{year}/{name}{ext}x}", 20, `"}" closes no "{"`},
		{"{year}/../{name}{ext}", 8, `".." segment`},
		{"./{name}{ext}", 1, `"." segment`},
		{"{year}//{name}{ext}", 8, "empty folder name"},
		{"{year}/", 7, `ends with "/"`},
		{`{year}\{name}{ext}`, 7, "backslash"},
		{"{counter}/{name}{ext}", 1, "{counter} may only appear in the last segment"},
		{"{year}/{date}{ext}", 8, "neither {name} nor {counter}"},
		{"{year}/{name}", 8, "drops the extension"},
		{"{ext}/{name}", 7, "drops the extension"},
		{"{year:lower}/{name}{ext}", 1, "is a number and takes no modifier"},
		{"{name:title}{ext}", 1, `unknown modifier "title"; did you mean :lower?`},
		{"{name}-{counter:0}{ext}", 8, "width must be a digit from 1 to 9"},
		{"{name}-{counter:12}{ext}", 8, "width must be a digit"},
		{"{}/{name}{ext}", 1, "empty token {}"},
	}
	for _, c := range cases {
		_, err := Parse(c.tmpl)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q) = %v, want a *ParseError", c.tmpl, err)
			continue
		}
		if pe.Pos != c.pos || !strings.Contains(pe.Msg, c.want) {
			t.Errorf("Parse(%q) = %q at %d, want %q at %d", c.tmpl, pe.Msg, pe.Pos, c.want, c.pos)
		}
		if !strings.Contains(err.Error(), strconv.Quote(c.tmpl)) {
			t.Errorf("error %q does not quote the template", err)
		}
	}
}

func TestExpand(t *testing.T) {
	cases := []struct {
		tmpl      string
		f         Fields
		dir, file string
	}{
		{"{year}/{year}-{month}-{day}/{name}{ext}", july4, "2019/2019-07-04", "IMG_0042.JPG"},
		{"{date}/{name}{ext:lower}", july4, "2019-07-04", "IMG_0042.jpg"},
		{"{name}{ext}", july4, "", "IMG_0042.JPG"},
		{"{yy}{month}{day}_{hour}{minute}{second}/{name:lower}{ext:upper}", july4, "190704_090503", "img_0042.JPG"},
		{"{monthname}/{mon:upper}/{mon:lower}/{name}{ext}", july4, "July/JUL/jul", "IMG_0042.JPG"},
		{"{make}/{model}/{kind}/{name}{ext}", july4, "Apple/iPhone XS/photo", "IMG_0042.JPG"},
		{"{make:lower}/{name}{ext}", Fields{Name: "a", Ext: ".jpg"}, "unknown", "a.jpg"},
		{"{make} {model}/{name}{ext}", Fields{Make: "NIKON CORPORATION \x00\x00", Model: " ", Name: "a"}, "NIKON CORPORATION unknown", "a"},
		{"{date}/{counter:4}{ext}", july4, "2019-07-04", "0007.JPG"},
		{"{date}/{name}-{counter}{ext}", july4, "2019-07-04", "IMG_0042-7.JPG"},
		{"{{{year}}}/{name}{ext}", july4, "{2019}", "IMG_0042.JPG"},
		{"photos/{year}/{name}{ext}", july4, "photos/2019", "IMG_0042.JPG"},
		// Tokens cannot smuggle in separators, traversal or reserved names.
		{"{model}/{name}{ext}", Fields{Model: "../..", Name: "a/b", Ext: ".jpg"}, ".._", "a_b.jpg"},
		{"{make}/{name}{ext}", Fields{Make: "CON", Name: "nul", Ext: ".txt"}, "CON_", "nul_.txt"},
		{"{make}/{name}{ext}", Fields{Make: "Canon:EOS*", Name: "x?", Ext: ".CR2"}, "Canon_EOS_", "x_.CR2"},
		{"{year}/{name}{ext}", Fields{Time: time.Date(33, 1, 2, 0, 0, 0, 0, time.UTC), Name: "a"}, "0033", "a"},
		// Wall clock as recorded: the location is not converted.
		{"{date} {hour}/{name}{ext}", Fields{Time: time.Date(2020, 12, 31, 23, 30, 0, 0, time.FixedZone("X", -5*3600)), Name: "a"}, "2020-12-31 23", "a"},
	}
	for _, c := range cases {
		tm, err := Parse(c.tmpl)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.tmpl, err)
			continue
		}
		dir, file := tm.Expand(c.f)
		if dir != c.dir || file != c.file {
			t.Errorf("%q.Expand(%+v) = %q, %q, want %q, %q", c.tmpl, c.f, dir, file, c.dir, c.file)
		}
		if tm.String() != c.tmpl {
			t.Errorf("String() = %q, want %q", tm.String(), c.tmpl)
		}
	}
}

func TestHasCounter(t *testing.T) {
	for tmpl, want := range map[string]bool{
		"{date}/{name}{ext}":           false,
		"{date}/{counter:3}{ext}":      true,
		"{date}/{name}-{counter}{ext}": true,
	} {
		tm, err := Parse(tmpl)
		if err != nil {
			t.Fatal(err)
		}
		if tm.HasCounter() != want {
			t.Errorf("%q.HasCounter() = %v", tmpl, !want)
		}
	}
}

func BenchmarkExpand(b *testing.B) {
	tm, err := Parse("{year}/{year}-{month}-{day}/{name}{ext:lower}")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		tm.Expand(july4)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "expands/s")
}

// A companion's ending is cased by the file name's {ext}, not by another
// token's modifier, and as found when {ext} has none.
func TestCaseExt(t *testing.T) {
	for _, c := range []struct{ template, ending, want string }{
		{"{year}/{counter:4}{ext:lower}", ".JPG.XMP", ".jpg.xmp"},
		{"{year}/{name:lower}{ext:upper}", ".mov", ".MOV"},
		{"{ext:lower}/{name:upper}{ext}", ".Aae", ".Aae"},
		{"{year}/{name}{ext:upper}", ".supplemental-metadata.json", ".SUPPLEMENTAL-METADATA.JSON"},
		{"{year}/{name}{ext:lower}", ".ÄAE", ".äae"},
	} {
		tmpl, err := Parse(c.template)
		if err != nil {
			t.Fatal(err)
		}
		if got := tmpl.CaseExt(c.ending); got != c.want {
			t.Errorf("%s: CaseExt(%q) = %q, want %q", c.template, c.ending, got, c.want)
		}
	}
}
