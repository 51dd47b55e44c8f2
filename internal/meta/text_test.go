package meta

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Text under a photo's or a video's name is not media; a damaged photo
// (binary bytes, zeros where a card lost them, a JPEG cut short) still is.
func TestTextUnderAPhotoName(t *testing.T) {
	long := strings.Repeat("é", textSniff) // a sample that ends inside a rune
	cases := []struct {
		name    string
		content []byte
		kind    Kind
	}{
		{"page.jpg", []byte("<!DOCTYPE html><html><body>404 Not Found</body></html>\r\n"), KindOther},
		{"note.mov", []byte("remember\tthe card\n"), KindOther},
		{"long.heic", []byte(long), KindOther},
		{"zeros.jpg", make([]byte, 4096), KindPhoto},
		{"binary.jpg", []byte{0x12, 0x80, 0xfe, 0x00, 'a', 'b'}, KindPhoto},
		{"nul-text.jpg", []byte("text\x00with a NUL"), KindPhoto},
		{"latin1.jpg", []byte("caf\xe9 au lait"), KindPhoto},
		{"control.jpg", []byte("ab\x1bcd"), KindPhoto},
		{"cut.jpg", append([]byte{0xff, 0xd8, 0xff}, bytes.Repeat([]byte{'x'}, 10)...), KindPhoto},
	}
	dir := t.TempDir()
	r := NewReader(Options{})
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, c.content, 0o644); err != nil {
			t.Fatal(err)
		}
		info := r.File(p, int64(len(c.content)), time.Now())
		if info.Kind != c.kind {
			t.Errorf("%s: kind %v, want %v (format %q, warning %q)", c.name, info.Kind, c.kind, info.Format, info.Warning)
		}
		if c.kind == KindOther && !strings.Contains(info.Warning, "its content is text") {
			t.Errorf("%s: warning %q does not say its content is text", c.name, info.Warning)
		}
	}
}
