package layout

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSafeName(t *testing.T) {
	cases := map[string]string{
		"IMG_0001.JPG":          "IMG_0001.JPG",
		"":                      "_",
		".":                     "_",
		"..":                    "_",
		"...":                   "_",
		"   ":                   "_",
		"a<b>c:d\"e/f\\g|h?i*j": "a_b_c_d_e_f_g_h_i_j",
		"tab\there\nnl\x00nul":  "tab_here_nl_nul",
		"del\x7f":               "del_",
		"trailing. . .":         "trailing",
		"name.jpg ":             "name.jpg",
		"CON":                   "CON_",
		"con.txt":               "con_.txt",
		"Aux.tar.gz":            "Aux_.tar.gz",
		"NUL .jpg":              "NUL_ .jpg",
		"COM1":                  "COM1_",
		"lpt9.log":              "lpt9_.log",
		"COM10":                 "COM10",
		"CONSOLE":               "CONSOLE",
		"prn.":                  "prn_",
		"caf\xe9.jpg":           "caf_.jpg",
		"\xff\xfe":              "__",
		"日本の写真.heic":            "日本の写真.heic",
		"e\u0301te\u0301.jpg":   "e\u0301te\u0301.jpg", // NFD is left alone: FoldKey deals with it
		".hidden":               ".hidden",
	}
	for in, want := range cases {
		if got := SafeName(in); got != want {
			t.Errorf("SafeName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSafeNameLength uses names of exactly NAME_MAX bytes and beyond, made
// of multibyte runes, and checks the result fits with headroom, keeps the
// extension and never splits a rune.
func TestSafeNameLength(t *testing.T) {
	cases := []struct{ in, ext string }{
		{strings.Repeat("é", 127) + "a", ""},              // 255 bytes, 2-byte runes
		{strings.Repeat("写", 83) + ".jp", ".jp"},          // 252 bytes, 3-byte runes
		{strings.Repeat("😀", 62) + ".jpeg", ".jpeg"},      // 253 bytes, 4-byte runes
		{strings.Repeat("x", 300) + ".MOV", ".MOV"},       // longer than NAME_MAX
		{strings.Repeat("ab", 200), ""},                   // no extension
		{"a." + strings.Repeat("e", 100), ""},             // an "extension" too long to keep
		{strings.Repeat("a", 220) + ". . . .jpg", ".jpg"}, // cut leaves dots before the extension
		{"CON." + strings.Repeat("x", 300), ""},           // reserved and long
	}
	for _, c := range cases {
		got := SafeName(c.in)
		if len(got)+len("-9999")+24 > 255 {
			t.Errorf("SafeName(%d bytes) = %d bytes: no headroom for suffixes", len(c.in), len(got))
		}
		if !utf8.ValidString(got) {
			t.Errorf("SafeName(%q) split a rune: %q", c.in, got)
		}
		if c.ext != "" && !strings.HasSuffix(got, c.ext) {
			t.Errorf("SafeName(...%q) = ...%q: lost the extension", c.in[len(c.in)-10:], got[len(got)-10:])
		}
		if strings.HasSuffix(strings.TrimSuffix(got, c.ext), ".") || strings.HasSuffix(got, " ") {
			t.Errorf("SafeName = %q ends with a dot or space", got)
		}
		if again := SafeName(got); again != got {
			t.Errorf("SafeName is not idempotent: %q -> %q", got, again)
		}
	}
}

// TestSafeNameCreatable creates every hostile name's safe form on the real
// filesystem, suffixes included.
func TestSafeNameCreatable(t *testing.T) {
	dir := t.TempDir()
	for _, in := range []string{strings.Repeat("é", 200) + ".jpg", "a/b", "..", "\x00", strings.Repeat("😀", 100)} {
		safe := SafeName(in)
		stem, ext := strings.TrimSuffix(safe, filepath.Ext(safe)), filepath.Ext(safe)
		name := WithSuffix(stem, ext, 9999) + strings.Repeat("t", 24)
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Errorf("cannot create %q: %v", name, err)
		}
	}
}

func TestWithSuffix(t *testing.T) {
	if got := WithSuffix("IMG_1", ".jpg", 2); got != "IMG_1-2.jpg" {
		t.Errorf("WithSuffix = %q", got)
	}
	if got := WithSuffix("README", "", 10); got != "README-10" {
		t.Errorf("WithSuffix without ext = %q", got)
	}
}

func TestFoldKey(t *testing.T) {
	collide := [][2]string{
		{"IMG_1.JPG", "img_1.jpg"},
		{"caf\u00e9.jpg", "cafe\u0301.jpg"}, // NFC and NFD é
		{"CAF\u00c9.JPG", "cafe\u0301.jpg"}, // and across case
		{"Straße.jpg", "STRASSE.JPG"},
		{"ǅ.jpg", "ǆ.jpg"}, // titlecase digraph
		{"Ωmega", "ωMEGA"},
	}
	for _, c := range collide {
		if FoldKey(c[0]) != FoldKey(c[1]) {
			t.Errorf("FoldKey(%q) = %q, FoldKey(%q) = %q: want equal", c[0], FoldKey(c[0]), c[1], FoldKey(c[1]))
		}
	}
	distinct := [][2]string{
		{"IMG_1.JPG", "IMG_1.JPEG"},
		{"a.jpg", "á.jpg"},
		{"IMG_1.jpg", "IMG_l.jpg"},
	}
	for _, c := range distinct {
		if FoldKey(c[0]) == FoldKey(c[1]) {
			t.Errorf("FoldKey(%q) == FoldKey(%q): want distinct", c[0], c[1])
		}
	}
	if got := FoldKey("already_lower.jpg"); got != "already_lower.jpg" {
		t.Errorf("FoldKey of lower ASCII = %q", got)
	}
}

func BenchmarkSafeName(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		SafeName("IMG_0042.JPG")
		SafeName("Ce\u0301sar: vacances?.jpg")
	}
}

func BenchmarkFoldKey(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		FoldKey("IMG_0042.JPG")
		FoldKey("Ce\u0301sar vacances.jpg")
	}
}
