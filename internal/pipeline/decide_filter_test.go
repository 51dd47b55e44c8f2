package pipeline

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/filter"
	"github.com/shoebox-photos/shoebox/internal/fixture"
)

// since2019 leaves out every file taken before 2019.
func since2019(c *Config) {
	c.Filter = &filter.Filter{Since: time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC)}
}

// verdicts maps each source (relative to root) to its outcome and, for a
// file left out, the reason: what a user reads of each file.
func verdicts(rec *recorder, root string) map[string]string {
	out := map[string]string{}
	for _, ev := range rec.events {
		if ev.Type != "op" || ev.Outcome == OutDupRemoved || ev.Outcome == OutDupPlanned {
			continue
		}
		v := string(ev.Outcome)
		if ev.Outcome == OutFiltered || ev.Outcome == OutIgnored {
			v += ": " + ev.Reason
		}
		out[rel(root, ev.Src)] = v
	}
	return out
}

// TestDateFilterAppliesToAFileAlreadyInTheLibrary: --since leaves out a
// file taken before it whether or not its bytes are in the library; it is
// never "already in the library", and --delete-duplicates never removes
// it from the card (issue 23, bug 1).
func TestDateFilterAppliesToAFileAlreadyInTheLibrary(t *testing.T) {
	root := t.TempDir()
	card, lib := filepath.Join(root, "card"), filepath.Join(root, "lib")
	old, recent := photo(2018, 1, 2, 3, "old"), photo(2020, 5, 6, 7, "recent")
	tree(t, card, map[string][]byte{"IMG_0100.JPG": old, "IMG_0200.JPG": recent})
	tree(t, lib, map[string][]byte{"2018/2018-01-02/IMG_0100.JPG": old})
	sum, rec := sortTree(t, []string{card}, lib, since2019, moveDeletingDuplicates)
	if _, err := os.Stat(filepath.Join(card, "IMG_0100.JPG")); err != nil {
		t.Errorf("a file outside --since was removed from the card: %v", err)
	}
	got := verdicts(rec, root)
	if v := got["card/IMG_0100.JPG"]; !strings.HasPrefix(v, "filtered: left out: taken before --since") {
		t.Errorf("card/IMG_0100.JPG: %q, want left out by --since", v)
	}
	if sum.Filtered != 1 || sum.Identical != 0 || sum.DuplicatesRemoved != 0 {
		t.Errorf("summary %+v: want 1 filtered, none already there, none removed", sum)
	}
}

// TestFiltersAreIndependentOfTheLibrary: each file of one pile gets the
// same verdict from a filter whether the library is empty or holds its
// bytes already (issue 23: "filters are independent of the library").
func TestFiltersAreIndependentOfTheLibrary(t *testing.T) {
	pile := map[string][]byte{
		"a/IMG_0100.JPG": photo(2018, 1, 2, 3, "old"),
		"a/IMG_0101.JPG": photo(2017, 3, 4, 5, "older"),
		"b/IMG_0200.JPG": photo(2020, 5, 6, 7, "recent"),
	}
	filters := map[string]opts{
		"since":   since2019,
		"until":   func(c *Config) { c.Filter = &filter.Filter{Until: time.Date(2018, 1, 1, 0, 0, 0, 0, time.UTC)} },
		"exclude": func(c *Config) { c.Filter = &filter.Filter{Exclude: []string{"b"}} },
	}
	for name, f := range filters {
		t.Run(name, func(t *testing.T) {
			empty, full := t.TempDir(), t.TempDir()
			tree(t, filepath.Join(empty, "card"), pile)
			tree(t, filepath.Join(full, "card"), pile)
			libPile := map[string][]byte{}
			for p, b := range pile {
				libPile["old/"+filepath.Base(p)] = b
			}
			tree(t, filepath.Join(full, "lib"), libPile)
			_, recEmpty := sortTree(t, []string{filepath.Join(empty, "card")}, filepath.Join(empty, "lib"), f)
			_, recFull := sortTree(t, []string{filepath.Join(full, "card")}, filepath.Join(full, "lib"), f)
			ve, vf := verdicts(recEmpty, empty), verdicts(recFull, full)
			for p := range pile {
				e, l := ve["card/"+p], vf["card/"+p]
				filteredE, filteredL := strings.HasPrefix(e, "filtered"), strings.HasPrefix(l, "filtered")
				if filteredE != filteredL || filteredE && e != l {
					t.Errorf("%s: %q into an empty library, %q into one holding its bytes", p, e, l)
				}
			}
		})
	}
}

// TestDateFilteredFileIsNeverTheKeptCopy: of two identical files dated
// by their modification times, one before --since and one after, the one
// the filter admits is imported; the other is left out by the filter, not
// called a duplicate of a copy that lands nowhere (issue 23, bug 1).
func TestDateFilteredFileIsNeverTheKeptCopy(t *testing.T) {
	root := t.TempDir()
	card, lib := filepath.Join(root, "card"), filepath.Join(root, "lib")
	undated := stripDates(fixture.JPEG(fixture.EXIF{Comment: "undated"}))
	tree(t, card, map[string][]byte{"old/scan.jpg": undated, "new/scan.jpg": undated})
	for p, y := range map[string]int{"old/scan.jpg": 2015, "new/scan.jpg": 2021} {
		when := time.Date(y, 6, 1, 12, 0, 0, 0, time.UTC)
		if err := os.Chtimes(filepath.Join(card, p), when, when); err != nil {
			t.Fatal(err)
		}
	}
	sum, rec := sortTree(t, []string{card}, lib, since2019, func(c *Config) { c.TrustModTime = true })
	got := verdicts(rec, root)
	if v := got["card/old/scan.jpg"]; !strings.HasPrefix(v, "filtered: left out: taken before --since") {
		t.Errorf("card/old/scan.jpg: %q, want left out by --since", v)
	}
	if lib := snapshot(t, lib); !slices.Contains(keys(lib), "2021/2021-06-01/scan.jpg") {
		t.Errorf("library holds %v: the copy --since admits should have landed", keys(lib))
	}
	if sum.Duplicates != 0 || sum.Filtered != 1 {
		t.Errorf("summary %+v: want 1 filtered, no duplicate", sum)
	}
}
