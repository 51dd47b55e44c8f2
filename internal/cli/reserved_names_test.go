package cli

// Names shoebox keeps for itself: its state folder, its temp files, and
// the folders it writes through. Each test runs the real `shoebox sort`
// on real JPEGs whose EXIF says what a hostile camera or user would.

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// photo writes a real JPEG with the given Make and Model, dated 2019-07-04,
// and returns its bytes.
func photo(t *testing.T, path, make, model string) []byte {
	t.Helper()
	b := fixture.JPEG(fixture.EXIF{
		When:    time.Date(2019, 7, 4, 12, 0, 0, 0, time.UTC),
		Camera:  fixture.Camera{Make: make, Model: model},
		Comment: path,
	})
	writeFile(t, path, b, 0o644)
	return b
}

// findInLibrary returns the library paths (outside DEST/.shoebox) holding
// exactly want.
func findInLibrary(t *testing.T, lib string, want []byte) []string {
	t.Helper()
	var found []string
	for p, b := range libraryFiles(t, lib) {
		if bytes.Equal(b, want) {
			found = append(found, p)
		}
	}
	return found
}

// TestStateFolderIsNeverADestination: whatever the template and the
// metadata say, no photo is planned into DEST/.shoebox (deleted or
// rewritten by shoebox itself) or into a name a filesystem would take for
// it. The photo lands under an escaped name, with a warning; in move mode
// it is not lost, and undo brings it back.
func TestStateFolderIsNeverADestination(t *testing.T) {
	cases := []struct {
		name, make, model, template string
	}{
		{"make .shoebox model run", ".shoebox", "run", "{make}/{model}/{name}{ext}"},
		{"model undo-scratch", ".shoebox", "undo-scratch", "{make}/{model}/{name}{ext}"},
		{"model journal", ".shoebox", "journal", "{make}/{model}/{name}{ext}"},
		{"upper case", ".SHOEBOX", "run", "{make}/{model}/{name}{ext}"},
		{"trailing dot and space", ".shoebox. .", "run", "{make}/{model}/{name}{ext}"},
		{"long s", ".ſhoebox", "run", "{make}/{model}/{name}{ext}"},
		{"zero-width space", ".shoe\u200bbox", "run", "{make}/{model}/{name}{ext}"},
		{"fullwidth", "．ｓｈｏｅｂｏｘ", "run", "{make}/{model}/{name}{ext}"},
		{"leading space", " .shoebox", "run", "{make:lower}/{model}/{name}{ext}"},
		{"8.3 short name", "SHOEBO~1", "run", "{make}/{model}/{name}{ext}"},
		{"split over two tokens", ".shoe", "box", "{make}{model}/{name}{ext}"},
		{"case modifier", ".SHOEBOX", "run", "{make:lower}/{model:upper}/{name}{ext}"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			src, lib := filepath.Join(dir, "card"), filepath.Join(dir, "lib")
			want := photo(t, filepath.Join(src, "IMG_0001.JPG"), c.make, c.model)
			res := shoebox("sort", "--mode", "move", "-t", c.template, src, lib)
			if res.code != 0 {
				t.Fatalf("sort: %v", res)
			}
			got := findInLibrary(t, lib, want)
			if len(got) != 1 {
				t.Fatalf("the moved photo is at %q in the library, want exactly one place\n%v", got, res)
			}
			if !strings.Contains(res.stdout+res.stderr, "shoebox keeps") {
				t.Errorf("no warning says the name was changed:\n%v", res)
			}
			// A later undo puts it back where it came from.
			if res := shoebox("undo", lib); res.code != 0 {
				t.Fatalf("undo: %v", res)
			}
			if b, err := os.ReadFile(filepath.Join(src, "IMG_0001.JPG")); err != nil || !bytes.Equal(b, want) {
				t.Fatalf("undo did not bring the photo back: %v", err)
			}
		})
	}
}

// TestTemplateNamingTheStateFolderIsRefused: a template or --unknown-dir
// that spells a reserved name outright is a usage error, before anything
// is created.
func TestTemplateNamingTheStateFolderIsRefused(t *testing.T) {
	for _, args := range [][]string{
		{"-t", ".shoebox/run/{name}{ext}"},
		{"-t", "{year}/.Shoebox/{name}{ext}"},
		{"-t", ".shoebox./{name}{ext}"},
		{"-t", "{year}/.x.shoebox-tmp-0123456789abcdef/{name}{ext}"},
		{"--unknown-dir", ".shoebox"},
		{"--unknown-dir", ".Shoebox"},
		{"--unknown-dir", ".shoebox "},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			dir := t.TempDir()
			src, lib := filepath.Join(dir, "card"), filepath.Join(dir, "lib")
			photo(t, filepath.Join(src, "IMG_0001.JPG"), "Canon", "EOS")
			res := shoebox(append(append([]string{"sort"}, args...), src, lib)...)
			if res.code != 2 || !strings.Contains(res.stderr, "shoebox keeps") {
				t.Fatalf("want a usage error saying the name is shoebox's own, got %v", res)
			}
			if _, err := os.Lstat(lib); err == nil {
				t.Errorf("the refused run created %s", lib)
			}
		})
	}
}

// TestTempLookingNamesAreNeverDeleted: a file in the library whose name
// looks like one of shoebox's temp files is the user's: a later sort into
// its folder neither deletes nor replaces it. Leftover temps are removed
// only when a journal recorded creating them.
func TestTempLookingNamesAreNeverDeleted(t *testing.T) {
	dir := t.TempDir()
	src, lib := filepath.Join(dir, "card"), filepath.Join(dir, "lib")
	day := filepath.Join(lib, "2019", "2019-07-04")
	users := map[string][]byte{}
	for _, name := range []string{
		".IMG_0001.JPG.shoebox-tmp-0123456789abcdef",
		".IMG_0002.JPG.shoebox-tmp-0123456789abcdef", // the exact temp prefix of a file sorted below
		".x.SHOEBOX-TMP-1",
	} {
		users[name] = []byte("the user's own file " + name)
		writeFile(t, filepath.Join(day, name), users[name], 0o644)
	}
	photo(t, filepath.Join(src, "IMG_0002.JPG"), "Canon", "EOS")
	if res := shoebox("sort", src, lib); res.code != 0 {
		t.Fatalf("sort: %v", res)
	}
	if _, err := os.Stat(filepath.Join(day, "IMG_0002.JPG")); err != nil {
		t.Errorf("the new photo did not land: %v", err)
	}
	for name, want := range users {
		if b, err := os.ReadFile(filepath.Join(day, name)); err != nil || !bytes.Equal(b, want) {
			t.Errorf("the user's file %s was deleted or changed (%v)", name, err)
		}
	}
}

// TestTempLookingSourceNamesAreEscaped: sources whose names, or whose
// metadata in the template, would give a library file a temp-looking name
// land under an escaped name, which a later sort into the same folder
// keeps.
func TestTempLookingSourceNamesAreEscaped(t *testing.T) {
	cases := []struct {
		name, file, make, template string
	}{
		{"crafted source name with --hidden", ".IMG.JPG.shoebox-tmp-0123456789abcdef", "Canon", "{year}/{name}{ext}"},
		{"make gives the dot", "b.shoebox-tmp-0123456789abcdef.jpg", ".a", "{year}/{make}{name}{ext}"},
		{"make gives the marker", "IMG_1.JPG", ".x.ShoeBox-tmp-", "{year}/{make}{name}{ext}"},
		{"source named .shoebox", ".shoebox", "Canon", "{name}{ext}"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			src, lib := filepath.Join(dir, "card"), filepath.Join(dir, "lib")
			want := photo(t, filepath.Join(src, c.file), c.make, "EOS")
			if res := shoebox("sort", "--hidden", "-t", c.template, src, lib); res.code != 0 {
				t.Fatalf("sort: %v", res)
			}
			got := findInLibrary(t, lib, want)
			if len(got) != 1 {
				t.Fatalf("photo at %q, want one place", got)
			}
			// Another photo sorted into the same folder later.
			src2 := filepath.Join(dir, "card2")
			photo(t, filepath.Join(src2, "IMG_9.JPG"), "Canon", "EOS")
			if res := shoebox("sort", "--hidden", "-t", c.template, src2, lib); res.code != 0 {
				t.Fatalf("second sort: %v", res)
			}
			if b, err := os.ReadFile(got[0]); err != nil || !bytes.Equal(b, want) {
				t.Fatalf("the second sort deleted or changed %s (%v)", got[0], err)
			}
		})
	}
}

// TestSymlinkedFolderInLibraryIsNotWrittenThrough: a folder inside the
// library that is a symbolic link is never written through: the files
// headed there fail with a sentence naming the link, the rest land.
func TestSymlinkedFolderInLibraryIsNotWrittenThrough(t *testing.T) {
	for _, deep := range []bool{false, true} {
		name := "link is the new folder's parent"
		if deep {
			name = "link above an existing folder"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			src, lib, elsewhere := filepath.Join(dir, "card"), filepath.Join(dir, "lib"), filepath.Join(dir, "elsewhere")
			if err := os.MkdirAll(lib, 0o755); err != nil {
				t.Fatal(err)
			}
			if deep {
				// The day folder already exists behind the link.
				if err := os.MkdirAll(filepath.Join(elsewhere, "2019-07-04"), 0o755); err != nil {
					t.Fatal(err)
				}
			} else if err := os.MkdirAll(elsewhere, 0o755); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(lib, "2019")
			fsxtest.Symlink(t, elsewhere, link)
			photo(t, filepath.Join(src, "IMG_0001.JPG"), "Canon", "EOS")
			other := fixture.JPEG(fixture.EXIF{When: time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC), Comment: "other"})
			writeFile(t, filepath.Join(src, "IMG_0002.JPG"), other, 0o644)

			res := shoebox("sort", src, lib)
			if res.code != 3 {
				t.Fatalf("want exit 3 (one file failed), got %v", res)
			}
			if !strings.Contains(res.stderr+res.stdout, link) || !strings.Contains(res.stderr+res.stdout, "symbolic link") {
				t.Errorf("no message names the link %s:\n%v", link, res)
			}
			filepath.WalkDir(elsewhere, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					t.Errorf("written through the link: %s", p)
				}
				return nil
			})
			if _, err := os.Stat(filepath.Join(lib, "2020", "2020-01-02", "IMG_0002.JPG")); err != nil {
				t.Errorf("the other photo did not land: %v", err)
			}
		})
	}
}
