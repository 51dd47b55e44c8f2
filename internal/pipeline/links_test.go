package pipeline

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// names lists every entry under root (links included), relative, sorted.
func names(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if d != nil && d.Name() == ".shoebox" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	sort.Strings(out)
	return out
}

// TestLinkModesAreIdempotent: a re-run in symlink or hardlink mode finds
// its links already there, as a re-run of a copy finds its copies, instead
// of adding IMG_1-1.JPG, IMG_1-2.JPG … each time.
func TestLinkModesAreIdempotent(t *testing.T) {
	for _, mode := range []transfer.Mode{transfer.Symlink, transfer.Hardlink} {
		t.Run(mode.String(), func(t *testing.T) {
			if mode == transfer.Symlink {
				fsxtest.NeedSymlinks(t)
			}
			root := t.TempDir()
			src, dst := filepath.Join(root, "card"), filepath.Join(root, "lib")
			tree(t, src, threePhotos())
			withMode := func(c *Config) { c.Mode = mode }
			first, _ := sortTree(t, []string{src}, dst, withMode)
			if first.Transferred != 3 {
				t.Fatalf("first run: %+v", first)
			}
			want := names(t, dst)
			for i := 0; i < 2; i++ {
				sum, _ := sortTree(t, []string{src}, dst, withMode)
				if sum.Transferred != 0 || sum.Identical != 3 {
					t.Errorf("re-run %d: %d transferred, %d already there; want 0 and 3", i+1, sum.Transferred, sum.Identical)
				}
			}
			if got := names(t, dst); len(got) != len(want) {
				t.Errorf("library after re-runs = %v, want %v", got, want)
			}
		})
	}
}

// TestSymlinkAlreadyThereMeansSameSource: a link the user made by hand,
// relative, to the same source counts as there; a link to another file
// with the same bytes does not (it is not a link to this photo), and
// neither is ever replaced.
func TestSymlinkAlreadyThereMeansSameSource(t *testing.T) {
	root := t.TempDir()
	src, dst, other := filepath.Join(root, "card"), filepath.Join(root, "lib"), filepath.Join(root, "other")
	files := map[string][]byte{"IMG_1.JPG": photo(2019, 7, 4, 10, "one"), "IMG_2.JPG": photo(2019, 7, 4, 11, "two")}
	tree(t, src, files)
	tree(t, other, map[string][]byte{"IMG_2.JPG": files["IMG_2.JPG"]})
	dir := filepath.Join(dst, "2019/2019-07-04")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	fsxtest.Symlink(t, "../../../card/IMG_1.JPG", filepath.Join(dir, "IMG_1.JPG"))         // or skip where links cannot be made
	fsxtest.Symlink(t, filepath.Join(other, "IMG_2.JPG"), filepath.Join(dir, "IMG_2.JPG")) // or skip where links cannot be made
	sum, _ := sortTree(t, []string{src}, dst, func(c *Config) { c.Mode = transfer.Symlink; c.Dedup = false })
	if sum.Identical != 1 || sum.Transferred != 1 || sum.Renamed != 1 {
		t.Errorf("summary %+v: want IMG_1 already there, IMG_2 renamed beside the foreign link", sum)
	}
	if target, err := os.Readlink(filepath.Join(dir, "IMG_2.JPG")); err != nil || target != filepath.Join(other, "IMG_2.JPG") {
		t.Errorf("the user's link was changed: %q %v", target, err)
	}
}
