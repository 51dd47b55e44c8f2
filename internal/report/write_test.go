package report

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// A report is published whole, leaves no temp, replaces an earlier report,
// and never replaces anything else — also when that thing appeared at the
// path while the run was going on (checked again just before the rename).
func TestWriteReplacesOnlyAReport(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.html")
	page := func(w io.Writer) error {
		_, err := io.WriteString(w, reportPrologue+"\n<p>run</p>")
		return err
	}

	if err := writeAtomic(path, page); err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(path, page); err != nil {
		t.Fatalf("an earlier report is not replaced: %v", err)
	}
	assertOnly(t, dir, "r.html")

	photo := filepath.Join(dir, "IMG_1.JPG")
	if err := os.WriteFile(photo, []byte("\xff\xd8\xff photo"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := writeAtomic(photo, page)
	if !errors.Is(err, ErrNotReport) {
		t.Fatalf("writing over a photo: %v, want ErrNotReport", err)
	}
	if b, _ := os.ReadFile(photo); string(b) != "\xff\xd8\xff photo" {
		t.Fatalf("the photo was changed: %q", b)
	}
	// A photo whose own metadata carries the marker (an EXIF description
	// in its first bytes) is still a photo: a report begins as shoebox
	// writes one, and no photo begins that way.
	crafted := filepath.Join(dir, "IMG_2.JPG")
	craftedBytes := "\xff\xd8\xff\xe1\x00\x40Exif\x00\x00" + generatorMarker + " photo"
	if err := os.WriteFile(crafted, []byte(craftedBytes), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(crafted, page); !errors.Is(err, ErrNotReport) {
		t.Fatalf("writing over a photo that carries the marker: %v, want ErrNotReport", err)
	}
	if b, _ := os.ReadFile(crafted); string(b) != craftedBytes {
		t.Fatalf("the photo carrying the marker was changed: %q", b)
	}
	link := filepath.Join(dir, "link.html")
	fsxtest.Symlink(t, "r.html", link) // or skip where links cannot be made (the cases above ran)
	if err := writeAtomic(link, page); !errors.Is(err, ErrNotReport) {
		t.Fatalf("writing over a symlink to a report: %v, want ErrNotReport", err)
	}
	if err := writeAtomic(filepath.Join(dir, "new.html"), func(io.Writer) error { return errors.New("template broke") }); err == nil {
		t.Fatal("a failed page was published")
	}
	assertOnly(t, dir, "IMG_1.JPG", "IMG_2.JPG", "link.html", "r.html")
}

func assertOnly(t *testing.T, dir string, want ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("folder holds %q, want %q (a temp left behind?)", got, want)
	}
}
