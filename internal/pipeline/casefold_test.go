package pipeline

import (
	"path"
	"path/filepath"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/layout"
)

// Two photos whose {make} differ only by case ("Canon", "CANON") were
// planned into two folders, but a case-insensitive filesystem (NTFS, APFS,
// exFAT, SMB; Wine) has one: both got IMG_1.JPG and the second failed
// "destination already exists" (found by the Windows attacker). Folders
// that fold alike are now one folder on every filesystem, spelt as the
// first planned, and their names resolved together: both photos land, one
// renamed, and the library is the same wherever it is copied.
func TestFoldedFolderNamesShareOneFolder(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "card"), filepath.Join(root, "lib")
	when := time.Date(2019, 7, 4, 15, 0, 0, 0, time.UTC)
	tree(t, src, map[string][]byte{
		"A/IMG_1.JPG": fixture.JPEG(fixture.EXIF{When: when, Camera: fixture.Camera{Make: "Canon"}, Comment: "a"}),
		"B/IMG_1.JPG": fixture.JPEG(fixture.EXIF{When: when, Camera: fixture.Camera{Make: "CANON"}, Comment: "b"}),
	})
	sum, rec := sortTree(t, []string{src}, dst, func(c *Config) {
		tmpl, err := layout.Parse("{make}/{name}{ext}")
		if err != nil {
			t.Fatal(err)
		}
		c.Template = tmpl
	})
	if sum.Failed != 0 {
		t.Errorf("%d of 2 files failed (%v); both should land, one renamed", sum.Failed, rec.failed())
	}
	got := snapshot(t, dst)
	if len(got) != 2 {
		t.Fatalf("library holds %d files, want 2: %v", len(got), keys(got))
	}
	dirs := map[string]bool{}
	for rel := range got {
		dirs[path.Dir(rel)] = true
	}
	if len(dirs) != 1 {
		t.Errorf("the photos are in %d folders, want one: %v", len(dirs), keys(got))
	}
}

// A photo already in the library in a folder spelt otherwise ("CANON/",
// on a filesystem that tells the two apart) stays where it is: folding
// the new files' folders together never moves the place an existing copy
// is judged at, so it is "already there" and its sidecar with it, not a
// photo whose copy "changed since it was compared".
func TestFoldingLeavesAPresentCopyWhereItIs(t *testing.T) {
	root := t.TempDir()
	if caseInsensitive(t, root) {
		t.Skip("this filesystem has one folder for Canon and CANON")
	}
	src, dst := filepath.Join(root, "card"), filepath.Join(root, "lib")
	when := time.Date(2019, 7, 4, 15, 0, 0, 0, time.UTC)
	old := fixture.JPEG(fixture.EXIF{When: when, Camera: fixture.Camera{Make: "CANON"}, Comment: "old"})
	xmp := []byte("<x:xmpmeta/>")
	tree(t, dst, map[string][]byte{"CANON/IMG_1.JPG": old}) // its sidecar is still to come
	tree(t, src, map[string][]byte{
		"A/IMG_1.JPG": old, "A/IMG_1.xmp": xmp,
		"B/IMG_0.JPG": fixture.JPEG(fixture.EXIF{When: when, Camera: fixture.Camera{Make: "Canon"}, Comment: "new"}), // sorts before IMG_1
	})
	tmpl := func(c *Config) {
		tm, err := layout.Parse("{make}/{name}{ext}")
		if err != nil {
			t.Fatal(err)
		}
		c.Template = tm
	}
	sum, rec := sortTree(t, []string{src}, dst, tmpl)
	if sum.Failed != 0 || len(rec.ofType("warning")) != 0 {
		t.Errorf("failed %d, warnings %v", sum.Failed, rec.ofType("warning"))
	}
	got := snapshot(t, dst)
	if len(got) != 3 || got["CANON/IMG_1.JPG"] != string(old) || got["CANON/IMG_1.xmp"] != string(xmp) {
		t.Errorf("library: %v; want CANON/IMG_1.JPG, its sidecar beside it and the new photo", keys(got))
	}
}
