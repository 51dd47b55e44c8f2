package scan

import (
	"github.com/shoebox-photos/shoebox/internal/fixture"
	"io/fs"
	"path/filepath"
	"testing"
)

// TestWalkCorpus walks the real sample corpus and checks that scan finds
// exactly the non-hidden regular files filepath.WalkDir finds, with the
// same sizes.
func TestWalkCorpus(t *testing.T) {
	dir := fixture.CorpusDir(t)
	want := map[string]int64{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir && IsClutter(d.Name()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			want[p] = info.Size()
		}
		return nil
	})
	must(t, err)
	r := walk(t, []string{dir}, Options{})
	must(t, r.err)
	if len(r.problems) != 0 {
		t.Errorf("problems walking the corpus: %v", r.problems)
	}
	if len(r.files) != len(want) {
		t.Errorf("scan found %d files, filepath.WalkDir %d", len(r.files), len(want))
	}
	for _, f := range r.files {
		if size, ok := want[f.Path]; !ok || size != f.Size {
			t.Errorf("%s: size %d, WalkDir says %d (found: %v)", f.Path, f.Size, size, ok)
		}
	}
}
