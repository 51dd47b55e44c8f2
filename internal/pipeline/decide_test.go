package pipeline

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/meta"
)

// A file named with "./" or "dir/../" is the same file of its folder, not
// a second member of its group: a RAW+JPEG pair is still one pair, with
// the RAW leading and the JPEG following, however the JPEG is spelt.
func TestDecideSeesOneFileUnderAnySpelling(t *testing.T) {
	dir := t.TempDir()
	when := time.Date(2019, 7, 4, 15, 30, 0, 0, time.UTC)
	raw := fixture.JPEG(fixture.EXIF{When: when, Comment: "raw"}) // read as a photo of this date; the .dng name makes it the RAW
	for name, b := range map[string][]byte{"IMG_1.DNG": raw, "IMG_1.JPG": fixture.JPEG(fixture.EXIF{When: when, Comment: "jpeg"})} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opt := meta.Options{VideoTZ: time.UTC}
	want, err := Decide(filepath.Join(dir, "IMG_1.JPG"), opt, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, spelt := range []string{dir + "/./IMG_1.JPG", dir + "/sub/../IMG_1.JPG"} {
		got, err := Decide(spelt, opt, false)
		if err != nil {
			t.Fatal(err)
		}
		if got.Role != want.Role || got.Leader != want.Leader || !got.Date.Wall.Equal(want.Date.Wall) {
			t.Errorf("%s: %s (leader %q), want %s (leader %q)", spelt, got.Role, got.Leader, want.Role, want.Leader)
		}
	}
	if want.Date.Wall.Year() != 2019 {
		t.Errorf("date %v, want 2019", want.Date.Wall)
	}
}
