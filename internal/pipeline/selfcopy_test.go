package pipeline

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// A library file that is the source itself, reached through a link put
// in the library in place of a folder (or a bind mount), is no copy of
// it: calling the source "already in the library" would leave its only
// bytes on the card, which the user then formats. Both ways a library
// file is found are held to it: the file at the source's target, and a
// twin the library index lists elsewhere. The source is imported (or
// fails on the link, naming it), never skipped.
func TestLibraryFileThatIsTheSourceItselfIsNoCopy(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  func(t *testing.T) opts
		link string // the library folder replaced by a link to the card's
	}{
		{"at its target", func(*testing.T) opts { return func(*Config) {} }, filepath.Join("2019", "2019-07-04")},
		{"a twin in the index", byYear, "2019"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			card, lib := filepath.Join(root, "card"), filepath.Join(root, "lib")
			tree(t, card, map[string][]byte{"DCIM/IMG_0001.JPG": photo(2019, 7, 4, 10, "a")})
			if sum, _ := sortTree(t, []string{card}, lib, tc.opt(t)); sum.Transferred != 1 {
				t.Fatalf("first sort: %+v", sum)
			}
			folder := filepath.Join(lib, tc.link)
			if err := os.RemoveAll(folder); err != nil {
				t.Fatal(err)
			}
			fsxtest.Symlink(t, filepath.Join(card, "DCIM"), folder)
			sum, rec := sortTree(t, []string{card}, lib)
			if sum.Identical != 0 || sum.Duplicates != 0 || rec.reportedWith(filepath.Join(card, "DCIM", "IMG_0001.JPG"), "already in the library") {
				t.Errorf("the source was taken for its own library copy: %+v", sum)
			}
			if sum.Transferred+sum.Failed != 1 {
				t.Errorf("the source was neither imported nor failed: %+v", sum)
			}
		})
	}
}

// A library folder sorted again through a link to it (a source that is
// the library under another name) holds its files in the library: each
// is already there, not renamed beside itself (a move would have renamed
// the library's own file to -1).
func TestLibraryFolderSortedThroughALinkIsAlreadyThere(t *testing.T) {
	root := t.TempDir()
	card, lib, alias := filepath.Join(root, "card"), filepath.Join(root, "lib"), filepath.Join(root, "alias")
	tree(t, card, map[string][]byte{"DCIM/IMG_0001.JPG": photo(2019, 7, 4, 10, "a")})
	if sum, _ := sortTree(t, []string{card}, lib); sum.Transferred != 1 {
		t.Fatalf("first sort: %+v", sum)
	}
	fsxtest.Symlink(t, filepath.Join(lib, "2019"), alias)
	sum, _ := sortTree(t, []string{alias}, lib, func(c *Config) { c.Mode = transfer.Move })
	if sum.Identical != 1 || sum.Transferred != 0 {
		t.Errorf("the library's own file, sorted through a link, was not already there: %+v", sum)
	}
	if _, err := os.Stat(filepath.Join(lib, "2019", "2019-07-04", "IMG_0001.JPG")); err != nil {
		t.Errorf("the library's file moved: %v", err)
	}
}
