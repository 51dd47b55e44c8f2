package layout

import (
	"strings"
	"testing"
	"time"

	"golang.org/x/text/unicode/norm"
)

// hostileStateNames are spellings of shoebox's own names that some
// filesystem, or some user, would take for them.
var hostileStateNames = []string{
	".shoebox", ".SHOEBOX", ".ShoeBox", ".shoebox.", ".shoebox ", ".shoebox. . ",
	" .shoebox", ".ſhoebox", ".shoe\u200bbox", "\ufeff.shoebox", ".sho\u200debox\u200e",
	"．ｓｈｏｅｂｏｘ", ".shoebox\uf029", ".shoebox-1", ".shoebox_",
	".IMG.JPG.shoebox-tmp-0123456789abcdef", ".x.SHOEBOX-TMP-1", ".a.shoebox-tmp.jpg",
	norm.NFD.String(".shoebox-é.jpg"),
	"SHOEBO~1", "shoeb~12", "SH1F2A~1", "SHOE~3",
	"_SHO~E2X", "_sho~1ab", "_~1ABCD", // Wine's and Samba's hashed aliases
}

func TestReserved(t *testing.T) {
	for _, s := range hostileStateNames {
		if !Reserved(s) {
			t.Errorf("Reserved(%q) = false", s)
		}
	}
	for _, s := range []string{
		"shoebox", "_.shoebox", "IMG.shoebox.jpg", "x.shoebox-tmp-1.jpg", ".hidden", "IMG_0001.JPG",
		"PHOTO~1.JPG", "SHOEBO~1.JPG", "MYDOCU~1", "shoebox~", "~1", ".shoebo", "2019",
		"_PHO~E2X", "_SHO~E2X.JPG", "__SHO~E2X", "_SHO~",
	} {
		if Reserved(s) {
			t.Errorf("Reserved(%q) = true, want false", s)
		}
	}
}

// TestSafeNameEscapesReservedNames: every reserved spelling becomes a
// visible, non-reserved, stable name; nothing else changes.
func TestSafeNameEscapesReservedNames(t *testing.T) {
	for _, s := range hostileStateNames {
		got, escaped := SafeSegment(s)
		if !escaped || Reserved(got) || !strings.HasPrefix(got, "_") {
			t.Errorf("SafeSegment(%q) = %q, %v", s, got, escaped)
		}
		if again := SafeName(got); again != got {
			t.Errorf("SafeName not idempotent on %q: %q then %q", s, got, again)
		}
	}
	long := "." + strings.Repeat("a", 230) + ".shoebox-tmp-1.jpg"
	if got := SafeName(long); Reserved(got) || len(got) > maxSafe {
		t.Errorf("SafeName(long reserved) = %q (%d bytes)", got, len(got))
	}
	if got, escaped := SafeSegment("IMG_0001.JPG"); got != "IMG_0001.JPG" || escaped {
		t.Errorf("an ordinary name changed: %q, %v", got, escaped)
	}
}

// TestExpandEscapesReservedSegments: metadata that spells a reserved name,
// alone or across tokens, is escaped in every segment, and ExpandNoted says
// which segment.
func TestExpandEscapesReservedSegments(t *testing.T) {
	cases := []struct{ tmpl, make, model, name, wantDir, wantFile, segment string }{
		{"{make}/{model}/{name}{ext}", ".shoebox", "run", "IMG_1", "_.shoebox/run", "IMG_1.JPG", "{make}"},
		{"{make}{model}/{name}{ext}", ".shoe", "box", "IMG_1", "_.shoebox", "IMG_1.JPG", "{make}{model}"},
		{"{make:lower}/{name}{ext}", ".SHOEBOX", "", "IMG_1", "_.shoebox", "IMG_1.JPG", "{make:lower}"},
		{"{year}/{make}{name}{ext}", ".a", "", "b.shoebox-tmp-1", "2019", "_.ab.shoebox-tmp-1.JPG", "{make}{name}{ext}"},
		{"{year}/{name}{ext}", "", "", ".shoebox", "2019", "_.shoebox.JPG", "{name}{ext}"},
		{"{model}/{name}{ext}", "", "SHOEBO~1", "IMG_1", "_SHOEBO~1", "IMG_1.JPG", "{model}"},
	}
	for _, c := range cases {
		tm, err := Parse(c.tmpl)
		if err != nil {
			t.Fatal(err)
		}
		dir, file, esc := tm.ExpandNoted(Fields{Time: time.Date(2019, 7, 4, 0, 0, 0, 0, time.UTC),
			Name: c.name, Ext: ".JPG", Make: c.make, Model: c.model})
		if dir != c.wantDir || file != c.wantFile {
			t.Errorf("%s with %q %q %q: %q %q, want %q %q", c.tmpl, c.make, c.model, c.name, dir, file, c.wantDir, c.wantFile)
		}
		if esc == nil || esc.Segment != c.segment {
			t.Errorf("%s: escape %+v, want segment %s", c.tmpl, esc, c.segment)
		}
	}
}

// TestParseRefusesReservedLiterals: a template that spells a reserved
// name outright is refused, with a sentence saying why.
func TestParseRefusesReservedLiterals(t *testing.T) {
	for _, s := range []string{
		".shoebox/{name}{ext}", ".Shoebox/run/{name}{ext}", "{year}/.shoebox./{name}{ext}",
		"SHOEBO~1/{name}{ext}", ".shoebox-{year}/{name}{ext}", "{year}/.shoebox{name}{ext}",
		"{year}/.x.shoebox-tmp-/{name}{ext}",
	} {
		_, err := Parse(s)
		if err == nil || !strings.Contains(err.Error(), "shoebox keeps") {
			t.Errorf("Parse(%q) = %v, want a refusal naming shoebox's own files", s, err)
		}
	}
	for _, s := range []string{"github.com/shoebox-photos/shoebox/{name}{ext}", "{year}/.{name}{ext}", "_.shoebox/{name}{ext}"} {
		if _, err := Parse(s); err != nil {
			t.Errorf("Parse(%q): %v", s, err)
		}
	}
}

// TestWithSuffixNeverReserved: a conflict counter never turns a safe name
// into a reserved one.
func TestWithSuffixNeverReserved(t *testing.T) {
	for _, name := range append(hostileStateNames, "IMG_1.jpg", ".a.shoebox-tmp", "SHOEBO~", "x") {
		safe := SafeName(name)
		stem, ext := safe, ""
		if i := strings.LastIndexByte(safe, '.'); i > 0 {
			stem, ext = safe[:i], safe[i:]
		}
		for _, n := range []int{1, 9, 10, 9999} {
			if got := WithSuffix(stem, ext, n); Reserved(got) {
				t.Errorf("WithSuffix(%q, %q, %d) = %q is reserved", stem, ext, n, got)
			}
		}
	}
}

// TestReservedFastPathAgrees: the fast path never skips a name the full
// comparison would reserve.
func TestReservedFastPathAgrees(t *testing.T) {
	for _, s := range append(hostileStateNames, "\u3000.shoebox", "\u00a0.shoebox", "\u2024shoebox", "\ufe52shoebox",
		"ＳＨＯＥＢＯ～１", "IMG_0001.JPG", "Ce\u0301sar.jpg", "é.shoebox") {
		k := reservedKey(s)
		full := (strings.HasPrefix(k, ".") && strings.Contains(k, StateDirName)) || shortAliasOfState(k)
		if full && !mayBeReserved(s) {
			t.Errorf("fast path skips %q (key %q)", s, k)
		}
		if full != Reserved(s) {
			t.Errorf("Reserved(%q) = %v, full comparison %v", s, Reserved(s), full)
		}
	}
}
