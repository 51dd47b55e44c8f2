package pipeline

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// TestSourceNamedAsAShortAliasLands: a library file with a long name has an
// 8.3 alias (NTFS "PHOTOG~1.JPG", Wine "PHOT~VBC.JPG") that opens it, so a
// source file bearing that alias as its own name (files from FAT cards and
// old DOS-era backups are named so) collides with it. The planner lists
// the folder by long names only and planned the alias as free; the
// no-replace rename then refused it and the file failed ("destination
// already exists, not overwritten"), where a rename to -1 would have
// imported it.
func TestSourceNamedAsAShortAliasLands(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "card"), filepath.Join(root, "lib")
	day := filepath.Join(dst, "2019", "2019-07-04")
	tree(t, day, map[string][]byte{"Photograph_long_name.JPG": photo(2019, 7, 4, 15, "library's")})
	alias := fsxtest.ShortName(t, filepath.Join(day, "Photograph_long_name.JPG"))
	if alias == "Photograph_long_name.JPG" {
		t.Skip("this volume makes no 8.3 aliases")
	}
	t.Logf("alias of the library file: %s", alias)
	tree(t, src, map[string][]byte{alias: photo(2019, 7, 4, 16, "a different photo")})
	sum, rec := sortTree(t, []string{src}, dst)
	for _, ev := range rec.events {
		if ev.Outcome == OutFailed {
			t.Logf("failed: %s: %s", ev.Src, ev.Reason)
		}
	}
	if sum.Failed != 0 || len(snapshot(t, dst)) != 2 {
		t.Errorf("failed %d, library %v: want the source renamed beside the library file", sum.Failed, keys(snapshot(t, dst)))
	}
	if _, err := os.Stat(filepath.Join(src, alias)); err != nil {
		t.Errorf("the source is gone: %v", err)
	}
}
