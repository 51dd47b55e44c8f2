package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/layout"
)

// byYear sorts into {year}/ only, so a later sort with the default
// template lands the same photo in another folder: only the library index
// (not the listing of the folder it lands in) can know of the first copy.
func byYear(t *testing.T) opts {
	tmpl, err := layout.Parse("{year}/{name}{ext}")
	if err != nil {
		t.Fatal(err)
	}
	return func(c *Config) { c.Template = tmpl }
}

func indexLibrary(t *testing.T, lib string) {
	t.Helper()
	if _, err := Index(context.Background(), lib, 2, nil); err != nil {
		t.Fatal(err)
	}
}

// listsLibrary reports whether the run walked the whole library.
func listsLibrary(rec *recorder) bool {
	for _, ev := range rec.events {
		if ev.Type == "progress" && ev.What == "listing the library's files to compare with" {
			return true
		}
	}
	return false
}

// A photo already in the library is found through the index, in a folder
// the new import does not land in, without walking the library, whether
// the index knows its hash (after `shoebox index`) or only its size.
func TestIncrementalImportFindsLibraryTwinsThroughTheIndex(t *testing.T) {
	for _, hashed := range []bool{false, true} {
		t.Run(map[bool]string{false: "size only", true: "hash known"}[hashed], func(t *testing.T) {
			root := t.TempDir()
			a, b := photo(2019, 7, 4, 10, "a"), photo(2018, 1, 2, 3, "b")
			card1, card2, lib := filepath.Join(root, "card1"), filepath.Join(root, "card2"), filepath.Join(root, "lib")
			tree(t, card1, map[string][]byte{"IMG_0001.JPG": a, "IMG_0002.JPG": b})
			if sum, rec := sortTree(t, []string{card1}, lib, byYear(t)); sum.Transferred != 2 || !listsLibrary(rec) {
				t.Fatalf("first sort: %+v (a first sort walks the library to build its index)", sum)
			}
			if hashed {
				indexLibrary(t, lib)
			}
			tree(t, card2, map[string][]byte{"other/PIC_9.JPG": a, "IMG_0003.JPG": photo(2019, 7, 4, 11, "c")})
			sum, rec := sortTree(t, []string{card2}, lib)
			if sum.Identical != 1 || sum.Transferred != 1 {
				t.Errorf("second sort: %+v, want the twin already in the library and the new photo transferred", sum)
			}
			if !rec.reportedWith(filepath.Join(card2, "other", "PIC_9.JPG"), "already in the library as "+filepath.Join(lib, "2019", "IMG_0001.JPG")) {
				t.Errorf("the twin was not found in the library: %v", rec.events)
			}
			if listsLibrary(rec) {
				t.Errorf("the second sort walked the whole library: the index should have been enough")
			}
		})
	}
}

// Files a user puts by hand into a folder the import lands in are seen,
// by name (a collision is renamed, never replaced) and by content (a twin
// under another name is already in the library).
func TestFileAddedByHandToALandingFolderIsSeen(t *testing.T) {
	root := t.TempDir()
	card1, card2, lib := filepath.Join(root, "card1"), filepath.Join(root, "card2"), filepath.Join(root, "lib")
	tree(t, card1, map[string][]byte{"IMG_0001.JPG": photo(2019, 7, 4, 10, "a")})
	sortTree(t, []string{card1}, lib)
	z, mine := photo(2019, 7, 4, 12, "z"), photo(2019, 7, 4, 13, "mine")
	tree(t, lib, map[string][]byte{"2019/2019-07-04/by hand.JPG": z, "2019/2019-07-04/IMG_0006.JPG": mine})
	theirs := photo(2019, 7, 4, 14, "theirs")
	tree(t, card2, map[string][]byte{"IMG_0005.JPG": z, "IMG_0006.JPG": theirs})
	sum, rec := sortTree(t, []string{card2}, lib)
	if !rec.reportedWith(filepath.Join(card2, "IMG_0005.JPG"), "already in the library as "+filepath.Join(lib, "2019", "2019-07-04", "by hand.JPG")) {
		t.Errorf("a twin put in the landing folder by hand was not seen: %+v %v", sum, rec.events)
	}
	got := snapshot(t, lib)
	if got["2019/2019-07-04/IMG_0006.JPG"] != string(mine) || got["2019/2019-07-04/IMG_0006-1.JPG"] != string(theirs) {
		t.Errorf("the name taken by hand was not kept apart: %v", keys(got))
	}
	if _, ok := got["2019/2019-07-04/IMG_0005.JPG"]; ok || sum.Transferred != 1 {
		t.Errorf("transferred %d, library %v: the twin should not be copied", sum.Transferred, keys(got))
	}
}

// A file put by hand anywhere else in the library is not known until a
// walk sees it (the documented rule): the import brings in a twin, never
// loses or replaces anything; after `shoebox index` it is known.
func TestFileAddedByHandElsewhereIsKnownAfterIndex(t *testing.T) {
	root := t.TempDir()
	card1, lib := filepath.Join(root, "card1"), filepath.Join(root, "lib")
	tree(t, card1, map[string][]byte{"IMG_0001.JPG": photo(2019, 7, 4, 10, "a")})
	sortTree(t, []string{card1}, lib)
	c := photo(2017, 3, 3, 3, "c")
	tree(t, lib, map[string][]byte{"albums/trip/c.JPG": c})

	card2 := filepath.Join(root, "card2")
	tree(t, card2, map[string][]byte{"IMG_0007.JPG": c})
	if sum, _ := sortTree(t, []string{card2}, lib); sum.Transferred != 1 {
		t.Errorf("unseen twin: %+v, want it imported beside (the index does not know albums/)", sum)
	}
	if got := snapshot(t, lib); got["albums/trip/c.JPG"] != string(c) || got["2017/2017-03-03/IMG_0007.JPG"] != string(c) {
		t.Errorf("library: %v", keys(got))
	}

	indexLibrary(t, lib)
	card3 := filepath.Join(root, "card3")
	tree(t, card3, map[string][]byte{"x/IMG_0008.JPG": c})
	if sum, _ := sortTree(t, []string{card3}, lib); sum.Transferred != 0 || sum.Identical != 1 {
		t.Errorf("after shoebox index: %+v, want the file already in the library", sum)
	}
}

// An index entry whose file was deleted, or changed in place (same size,
// other bytes), by hand never makes a new file "already in the library".
func TestStaleIndexNeverSkipsAFile(t *testing.T) {
	for _, hashed := range []bool{false, true} {
		t.Run(map[bool]string{false: "size only", true: "hash known"}[hashed], func(t *testing.T) {
			root := t.TempDir()
			a, b := photo(2019, 7, 4, 10, "a"), photo(2018, 1, 2, 3, "b")
			card1, card2, lib := filepath.Join(root, "card1"), filepath.Join(root, "card2"), filepath.Join(root, "lib")
			tree(t, card1, map[string][]byte{"IMG_0001.JPG": a, "IMG_0002.JPG": b})
			sortTree(t, []string{card1}, lib, byYear(t))
			if hashed {
				indexLibrary(t, lib)
			}
			if err := os.Remove(filepath.Join(lib, "2019", "IMG_0001.JPG")); err != nil {
				t.Fatal(err)
			}
			edited := bytes.Clone(b)
			edited[len(edited)-3] ^= 0xff
			bPath := filepath.Join(lib, "2018", "IMG_0002.JPG")
			if err := os.WriteFile(bPath, edited, 0o644); err != nil {
				t.Fatal(err)
			}
			later := time.Now().Add(time.Hour)
			if err := os.Chtimes(bPath, later, later); err != nil {
				t.Fatal(err)
			}
			tree(t, card2, map[string][]byte{"new/A.JPG": a, "new/B.JPG": b})
			sum, rec := sortTree(t, []string{card2}, lib)
			if sum.Transferred != 2 || sum.Identical != 0 || sum.Duplicates != 0 {
				t.Errorf("stale index: %+v, want both files transferred; events %v", sum, rec.events)
			}
			got := snapshot(t, lib)
			if got["2019/2019-07-04/A.JPG"] != string(a) || got["2018/2018-01-02/B.JPG"] != string(b) || got["2018/IMG_0002.JPG"] != string(edited) {
				t.Errorf("library: %v", keys(got))
			}
		})
	}
}
