package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The library's hashes are kept: a second index (or a second sort that
// compares against the library) reads only the files that changed since.
func TestLibraryIsNotHashedTwice(t *testing.T) {
	root := t.TempDir()
	lib := filepath.Join(root, "lib")
	tree(t, lib, map[string][]byte{
		"2019/a.jpg": photo(2019, 1, 1, 1, "a"), "2019/b.jpg": photo(2019, 1, 2, 1, "b"), "2020/c.jpg": photo(2020, 1, 1, 1, "c"),
	})
	ctx := context.Background()
	first, err := Index(ctx, lib, 2, nil)
	if err != nil || first.Files != 3 || first.Hashed != 3 {
		t.Fatalf("first index: %+v, %v; want 3 files hashed", first, err)
	}
	again, err := Index(ctx, lib, 2, nil)
	if err != nil || again.Hashed != 0 || again.Reused != 3 {
		t.Fatalf("second index: %+v, %v; want nothing hashed again", again, err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(lib, "2019/b.jpg"), later, later); err != nil {
		t.Fatal(err)
	}
	third, err := Index(ctx, lib, 2, nil)
	if err != nil || third.Hashed != 1 || third.Reused != 2 {
		t.Fatalf("after touching one file: %+v, %v; want that one hashed", third, err)
	}
	// A sort whose sources collide in size with the library uses those
	// sums: the twin of a library photo is still found.
	src := filepath.Join(root, "card")
	tree(t, src, map[string][]byte{"again.jpg": photo(2019, 1, 1, 1, "a")})
	sum, _ := sortTree(t, []string{src}, lib)
	if sum.Identical != 1 || sum.Transferred != 0 {
		t.Errorf("summary %+v: want the twin of 2019/a.jpg found in the library", sum)
	}
}
