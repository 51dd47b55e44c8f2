package filter

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadList(t *testing.T) {
	in := "# comment\r\n; also a comment\n\n  \nTrash\r\n name with spaces \n#not\\n\nDCIM/**\n"
	got, err := ReadList(strings.NewReader(in), "x.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := []Line{{5, "Trash"}, {6, " name with spaces "}, {8, "DCIM/**"}}
	if len(got) != len(want) {
		t.Fatalf("ReadList = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("entry %d = %v, want %v", i, got[i], want[i])
		}
	}
}

// Hostile lists are refused with the list's name, never read without bound.
func TestReadListBounds(t *testing.T) {
	for name, in := range map[string]string{
		"long line": strings.Repeat("a", MaxListLine+1),
		"NUL":       "a\nb\x00c\n",
		"too big":   strings.Repeat(strings.Repeat("b", 1000)+"\n", MaxListBytes/1000+2),
	} {
		_, err := ReadList(strings.NewReader(in), "list.txt")
		if !errors.Is(err, ErrList) || !strings.Contains(err.Error(), "list.txt") {
			t.Errorf("%s: err = %v, want ErrList naming list.txt", name, err)
		}
	}
	// At the limit and one byte past it (a smaller limit: 32 million
	// lines of the real one took minutes under the race detector).
	const limit = 64 << 10
	if _, err := readList(bytes.NewReader(bytes.Repeat([]byte("x\n"), limit/2)), "ok", limit); err != nil {
		t.Errorf("a list of exactly the limit: %v", err)
	}
	if _, err := readList(bytes.NewReader(append(bytes.Repeat([]byte("x\n"), limit/2), 'y')), "over", limit); !errors.Is(err, ErrList) {
		t.Errorf("a list one byte past the limit: %v, want ErrList", err)
	}
}

func TestListed(t *testing.T) {
	abs, err := filepath.Abs("/media/card/x.jpg") // C:\media\card\x.jpg on Windows
	if err != nil {
		t.Fatal(err)
	}
	l := NewListed([]Line{{1, "DCIM/IMG_1.JPG"}, {2, "./a//b/../c.jpg"}, {3, abs}})
	for _, c := range []struct {
		p, rel string
		want   bool
	}{
		{"card/DCIM/IMG_1.JPG", "DCIM/IMG_1.JPG", true},
		{"card/a/c.jpg", "a/c.jpg", true},
		{abs, "x.jpg", true},
		{"card/DCIM/IMG_2.JPG", "DCIM/IMG_2.JPG", false},
		{"card/dcim/img_1.jpg", "dcim/img_1.jpg", false},
	} {
		if got := l.Has(c.p, c.rel); got != c.want {
			t.Errorf("Has(%q, %q) = %v, want %v", c.p, c.rel, got, c.want)
		}
	}
}

func FuzzReadList(f *testing.F) {
	for _, s := range []string{"a\nb\n", "# c\r\n;d\n\n", "x\x00", strings.Repeat("z", 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lines, err := ReadList(strings.NewReader(s), "f")
		if err != nil {
			return
		}
		for _, l := range lines {
			if l.Text == "" || l.Text[0] == '#' || l.Text[0] == ';' || strings.HasSuffix(l.Text, "\r") {
				t.Errorf("kept %q", l.Text)
			}
		}
		NewListed(lines).Has("a", "a")
	})
}
