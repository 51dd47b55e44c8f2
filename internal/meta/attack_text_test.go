package meta

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Attack (false negatives): a note saved under a photo's name is text even
// when it starts with a UTF-8 byte order mark (Notepad, TextEdit) or holds a
// zero-width joiner (an emoji sequence), a soft hyphen or a right-to-left
// mark: those are format characters (Cf), not printable ones, and
// looksLikeText took the file for a damaged photo, to be sorted into the
// library dated by its file time.
func TestAttackTextWithFormatCharactersIsText(t *testing.T) {
	cases := []struct{ name, content string }{
		{"bom.jpg", "\ufeffremember the card\n"},
		{"family.jpg", "us \U0001F468\u200D\U0001F469\u200D\U0001F467 at the lake\n"},
		{"hebrew.mov", "\u200Fשלום\n"},
		{"shy.heic", "photo\u00ADgraph\n"},
	}
	dir := t.TempDir()
	r := NewReader(Options{})
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		info := r.File(p, int64(len(c.content)), time.Now())
		if info.Kind != KindOther || !strings.Contains(info.Warning, "its content is text") {
			t.Errorf("%s: kind %v, warning %q; want not media: its content is text", c.name, info.Kind, info.Warning)
		}
	}
}

// Attack (false positive): a real JPEG behind a text prefix longer than the
// 512 bytes looksLikeText samples (saved with "curl -i", the HTTP response
// headers in front, as a proxy cache or a recovery tool leaves it) is taken
// for text and left behind as "not media", although its image is whole
// and a binary prefix of the same length would not have hidden it.
func TestAttackJPEGBehindATextPrefixIsNotText(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\n")
	for b.Len() < 700 {
		b.WriteString("Set-Cookie: session=abcdefghijklmnopqrstuvwxyz0123456789; Path=/\r\n")
	}
	b.WriteString("\r\n")
	b.Write([]byte{0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 'J', 'F', 'I', 'F', 0x00})
	b.Write(bytes.Repeat([]byte{0x80, 0x00}, 100))
	b.Write([]byte{0xff, 0xd9})
	p := filepath.Join(t.TempDir(), "IMG_1.jpg")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	info := NewReader(Options{}).File(p, int64(b.Len()), time.Now())
	if info.Kind != KindPhoto {
		t.Errorf("a JPEG behind a text prefix: kind %v (warning %q); want photo", info.Kind, info.Warning)
	}
}
