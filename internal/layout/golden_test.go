package layout

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/expand.golden from the current output")

var goldenTemplates = []string{
	"{year}/{year}-{month}-{day}/{name}{ext}",
	"{year}/{month}/{name}{ext:lower}",
	"{date}/{name:lower}{ext:lower}",
	"{year}/{monthname}/{day} {mon}/{name}{ext}",
	"{yy}{month}{day}/{hour}{minute}{second}_{name}{ext:upper}",
	"{make}/{model}/{year}/{name}{ext}",
	"{kind:upper}/{make:lower} {model:lower}/{name}{ext}",
	"{date}/{date}_{counter:4}{ext:lower}",
	"{year}/{name}-{counter}{ext}",
	"Library/{{{year}}}/{name}{ext}",
	"{name}{ext}",
}

var goldenFields = []struct {
	label string
	f     Fields
}{
	{"phone", Fields{Time: time.Date(2019, 7, 4, 9, 5, 3, 0, time.UTC), Name: "IMG_0042", Ext: ".HEIC", Make: "Apple", Model: "iPhone XS", Kind: "photo", Counter: 1}},
	{"dslr-padded", Fields{Time: time.Date(2004, 12, 31, 23, 59, 59, 0, time.UTC), Name: "DSC_0001", Ext: ".NEF", Make: "NIKON CORPORATION\x00", Model: "NIKON D70 ", Kind: "photo", Counter: 12}},
	{"video-no-make", Fields{Time: time.Date(2021, 1, 2, 0, 0, 0, 0, time.UTC), Name: "clip", Ext: ".mov", Kind: "video", Counter: 9999}},
	{"hostile", Fields{Time: time.Date(1999, 2, 28, 12, 0, 0, 0, time.UTC), Name: "../../etc/passwd", Ext: ".JPG", Make: "CON", Model: "a:b*c?", Kind: "photo", Counter: 3}},
	{"unicode", Fields{Time: time.Date(2010, 5, 6, 7, 8, 9, 0, time.UTC), Name: "Ce\u0301sar à Zürich", Ext: ".Jpg", Make: "ÉCLAIR", Model: "Ωmega", Kind: "photo", Counter: 5}},
	{"invalid-utf8", Fields{Time: time.Date(2015, 8, 9, 10, 11, 12, 0, time.UTC), Name: "caf\xe9 \xff", Ext: ".jpg", Make: "\xc0\xafmake", Kind: "photo", Counter: 2}},
	{"long", Fields{Time: time.Date(2022, 3, 4, 5, 6, 7, 0, time.UTC), Name: strings.Repeat("長い名前", 30), Ext: ".png", Make: strings.Repeat("M", 300), Kind: "photo", Counter: 4}},
	{"no-ext-dots", Fields{Time: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), Name: "trailing...", Ext: "", Make: " ", Model: "...", Kind: "", Counter: 0}},
}

func TestExpandGolden(t *testing.T) {
	var buf bytes.Buffer
	for _, tmpl := range goldenTemplates {
		tm, err := Parse(tmpl)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tmpl, err)
		}
		fmt.Fprintf(&buf, "# %s\n", tmpl)
		for _, c := range goldenFields {
			dir, file := tm.Expand(c.f)
			fmt.Fprintf(&buf, "%-14s %q %q\n", c.label, dir, file)
		}
	}
	golden := filepath.Join("testdata", "expand.golden")
	if *update {
		must(t, os.MkdirAll("testdata", 0o755))
		must(t, os.WriteFile(golden, buf.Bytes(), 0o644))
	}
	want, err := os.ReadFile(golden)
	must(t, err)
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("expansion differs from %s (run with -update after checking):\n%s", golden, buf.String())
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
