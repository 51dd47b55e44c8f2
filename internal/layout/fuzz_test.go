package layout

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func FuzzParse(f *testing.F) {
	for _, s := range goldenTemplates {
		f.Add(s, "IMG_1", ".JPG", "Apple", 3)
	}
	for _, s := range []string{"", "/", "{", "}", "{{", "}}", "{year", "{counter:9}/{name}{ext}",
		"{name}{ext}/", "../{name}{ext}", "{name:upper:lower}{ext}", "{{name}}{ext}", "a//b", `\`, "C:x",
		"{name}{ext}{counter:1}", "{nam\xff}{ext}", "{date}/{counter}{ext}"} {
		f.Add(s, "..", "", "", -1)
	}
	f.Add("{make}/{model}/{name}{ext}", "IMG", ".JPG", ".shoebox", 0)
	f.Add("{make}{name}{ext}", ".shoebox-tmp-", "", ".", 0)
	f.Fuzz(func(t *testing.T, tmpl, name, ext, make string, counter int) {
		tm, err := Parse(tmpl)
		if err != nil {
			if !strings.Contains(err.Error(), "layout") {
				t.Fatalf("error %q does not say what failed", err)
			}
			return
		}
		fields := Fields{Time: time.Date(2019, 7, 4, 1, 2, 3, 0, time.UTC), Name: name, Ext: ext, Make: make, Model: make, Kind: name, Counter: counter}
		dir, file := tm.Expand(fields)
		if strings.Contains(file, "/") {
			t.Fatalf("file name %q contains a separator", file)
		}
		checkSegment(t, file)
		if dir == "" {
			return
		}
		for _, seg := range strings.Split(dir, "/") {
			checkSegment(t, seg)
		}
	})
}

func checkSegment(t *testing.T, seg string) {
	t.Helper()
	switch {
	case seg == "" || seg == "." || seg == "..":
		t.Fatalf("unsafe segment %q", seg)
	case SafeName(seg) != seg:
		t.Fatalf("segment %q is not safe: SafeName gives %q", seg, SafeName(seg))
	case Reserved(seg):
		t.Fatalf("segment %q is a name shoebox keeps for itself", seg)
	}
}

func FuzzSafeName(f *testing.F) {
	for _, s := range []string{"", ".", "..", "CON", "con.txt", "a/b", "a\\b", "\x00", "\xff\xfe", "e\u0301",
		strings.Repeat("é", 128), strings.Repeat("😀", 64) + ".jpeg", "trailing. ", "COM1.tar.gz", "NUL .",
		".shoebox", ".ſhoebox. ", "SHOEBO~1", ".a.shoebox-tmp-1", "\u200b.SHOEBOX"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got := SafeName(in)
		switch {
		case got == "" || got == "." || got == "..":
			t.Fatalf("SafeName(%q) = %q", in, got)
		case len(got) > maxSafe:
			t.Fatalf("SafeName(%q) is %d bytes, over %d", in, len(got), maxSafe)
		case !utf8.ValidString(got):
			t.Fatalf("SafeName(%q) = %q is not valid UTF-8", in, got)
		case strings.ContainsAny(got, `<>:"/\|?*`):
			t.Fatalf("SafeName(%q) = %q keeps a forbidden character", in, got)
		case strings.HasSuffix(got, ".") || strings.HasSuffix(got, " "):
			t.Fatalf("SafeName(%q) = %q ends with a dot or space", in, got)
		case reserved(got):
			t.Fatalf("SafeName(%q) = %q is a reserved device name", in, got)
		case Reserved(got):
			t.Fatalf("SafeName(%q) = %q is a name shoebox keeps for itself", in, got)
		case SafeName(got) != got:
			t.Fatalf("SafeName is not idempotent on %q: %q then %q", in, got, SafeName(got))
		}
		for _, r := range got {
			if r < 0x20 || r == 0x7f {
				t.Fatalf("SafeName(%q) = %q keeps a control character", in, got)
			}
		}
		_ = FoldKey(in)
	})
}

// FuzzReserved: the fast path agrees with the full comparison, and
// SafeName never returns a reserved name.
func FuzzReserved(f *testing.F) {
	for _, s := range hostileStateNames {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k := reservedKey(s)
		full := (strings.HasPrefix(k, ".") && strings.Contains(k, StateDirName)) || shortAliasOfState(k)
		if full != Reserved(s) {
			t.Fatalf("Reserved(%q) = %v, full comparison (key %q) %v", s, Reserved(s), k, full)
		}
		if got := SafeName(s); Reserved(got) {
			t.Fatalf("SafeName(%q) = %q is reserved", s, got)
		}
	})
}
