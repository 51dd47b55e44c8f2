package quote

import (
	"fmt"
	"path/filepath"
	"testing"
)

func TestWithSeparator(t *testing.T) {
	for _, c := range []struct {
		path string
		sep  rune
		want string
	}{
		{`/home/ann/IMG 1.JPG`, '/', `"/home/ann/IMG 1.JPG"`},
		{`/home/ann/a\b.jpg`, '/', `"/home/ann/a\\b.jpg"`}, // a backslash in a POSIX name is a character: escaped, as %q does
		{"/home/ann/new\nline.jpg", '/', `"/home/ann/new\nline.jpg"`},
		{`C:\Users\ann\IMG 1.JPG`, '\\', `"C:\Users\ann\IMG 1.JPG"`},
		{`\\server\share\photos`, '\\', `"\\server\share\photos"`},
		{`\\?\C:\long\path`, '\\', `"\\?\C:\long\path"`},
		{`C:\Users\ann\`, '\\', `"C:\Users\ann\"`},
		{"C:\\Users\\a\x1b[2Jb\\\u202egpj.exe", '\\', `"C:\Users\a\x1b[2Jb\` + `\u202egpj.exe"`}, // controls and bidi overrides still escaped
		{"C:\\bad\xffbyte", '\\', `"C:\bad\xffbyte"`},
		{`C:/Users/ann`, '\\', `"C:/Users/ann"`},
		{``, '\\', `""`},
	} {
		if got := withSeparator(c.path, c.sep); got != c.want {
			t.Errorf("withSeparator(%q, %q) = %s, want %s", c.path, c.sep, got, c.want)
		}
	}
}

// Path is the platform's form: %q where the separator is a slash, single
// backslashes where it is a backslash.
func TestPathOnThisPlatform(t *testing.T) {
	p := filepath.Join("photos", "2024", "IMG 1.JPG")
	want := fmt.Sprintf("%q", p)
	if filepath.Separator == '\\' {
		want = `"photos\2024\IMG 1.JPG"`
	}
	if got := Path(p); got != want {
		t.Errorf("Path(%q) = %s, want %s", p, got, want)
	}
	if got, want := Paths([]string{p, "b"}), "["+want+` "b"]`; got != want {
		t.Errorf("Paths = %s, want %s", got, want)
	}
}
