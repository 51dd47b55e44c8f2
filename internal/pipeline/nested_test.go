package pipeline

import (
	"path/filepath"
	"strings"
	"testing"
)

// warnings returns the reasons of the run's warning events.
func (r *recorder) warnings() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, ev := range r.events {
		if ev.Type == "warning" {
			out = append(out, ev.Reason)
		}
	}
	return out
}

// warnedOnce reports whether exactly one warning carries every fragment.
func warnedOnce(ws []string, fragments ...string) bool {
	n := 0
	for _, w := range ws {
		all := true
		for _, f := range fragments {
			all = all && strings.Contains(w, f)
		}
		if all {
			n++
		}
	}
	return n == 1
}

// TestLibraryInsideASourceIsSkippedAndSaidSo: a shoebox library met
// inside a source (~/Pictures holding ~/Pictures/Old, sorted before) is not
// sorted again, its copies taken for originals: the walk does not enter
// it and says so, once, in the same words on a re-run and in a dry run.
// Given as a source itself, it is merged like any folder.
func TestLibraryInsideASourceIsSkippedAndSaidSo(t *testing.T) {
	root := t.TempDir()
	pics, old, dst := filepath.Join(root, "Pictures"), filepath.Join(root, "Pictures", "Old"), filepath.Join(root, "lib")
	tree(t, filepath.Join(root, "card"), map[string][]byte{"IMG_1.JPG": photo(2018, 1, 2, 10, "old one")})
	sortTree(t, []string{filepath.Join(root, "card")}, old)
	tree(t, pics, map[string][]byte{"new/IMG_2.JPG": photo(2019, 7, 4, 10, "new one")})

	dry, dryRec := sortTree(t, []string{pics}, dst, func(c *Config) { c.DryRun = true })
	for i, want := range []int64{1, 1} {
		sum, rec := sortTree(t, []string{pics}, dst)
		if sum.Scanned != want || dry.Scanned != want {
			t.Errorf("run %d scanned %d files (dry run %d), want %d: the library's copy was taken for an original", i+1, sum.Scanned, dry.Scanned, want)
		}
		for name, ws := range map[string][]string{"dry run": dryRec.warnings(), "run": rec.warnings()} {
			if !warnedOnce(ws, old, "is a shoebox library", "give it as a source on its own") {
				t.Errorf("%s %d: warnings %q, want one naming %s as a shoebox library", name, i+1, ws, old)
			}
		}
	}
	if got := snapshot(t, dst); len(got) != 1 {
		t.Errorf("library = %v, want the one new photo", keys(got))
	}

	// Merging: the library given as a source is sorted, without the warning.
	merged := filepath.Join(root, "merged")
	sum, rec := sortTree(t, []string{old}, merged)
	if sum.Scanned != 1 || len(rec.warnings()) != 0 {
		t.Errorf("merging %s scanned %d files with warnings %q, want its one photo and none", old, sum.Scanned, rec.warnings())
	}
}

// TestLibraryInsideItsSourceIsSaidUpFront: sort ~/Pictures
// ~/Pictures/Library is common; the library is left out of the scan and
// the run says so before anything, in the same words on a re-run (when
// the library has become one) and in a dry run.
func TestLibraryInsideItsSourceIsSaidUpFront(t *testing.T) {
	src := t.TempDir()
	dst := filepath.Join(src, "Library")
	tree(t, src, map[string][]byte{"IMG_1.JPG": photo(2019, 7, 4, 10, "one")})
	_, dry := sortTree(t, []string{src}, dst, func(c *Config) { c.DryRun = true })
	_, first := sortTree(t, []string{src}, dst)
	sum, again := sortTree(t, []string{src}, dst)
	for name, rec := range map[string]*recorder{"dry run": dry, "first run": first, "re-run": again} {
		ws := rec.warnings()
		if !warnedOnce(ws, dst, "is inside the source", src, "not sorted again") {
			t.Errorf("%s: warnings %q, want one saying the library %s is inside the source", name, ws, dst)
		}
		if len(ws) != 1 {
			t.Errorf("%s: warnings %q, want that one alone (the same words every run)", name, ws)
		}
	}
	if sum.Scanned != 1 {
		t.Errorf("re-run scanned %d files, want the 1 source photo", sum.Scanned)
	}
}
