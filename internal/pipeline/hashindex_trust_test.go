package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A library file changed in place with its size and mtime kept (a tool
// that preserves the mtime, `touch -r`, silent rot) is not the file the
// library's hash index hashed: a new source holding the old bytes is not
// "already in the library" (the library no longer holds them) and is
// imported. The import history already trusts a copy only with its inode
// and change time; the hash index must hold itself to the same rule.
func TestHashIndexDoesNotTrustAFileChangedWithSizeAndMtimeKept(t *testing.T) {
	root := t.TempDir()
	src1, src2, lib := filepath.Join(root, "card1"), filepath.Join(root, "card2"), filepath.Join(root, "lib")
	orig := photo(2019, 7, 4, 10, "kept")
	tree(t, src1, map[string][]byte{"a.jpg": orig})
	tree(t, src2, map[string][]byte{"a_copy.jpg": orig})
	if sum, _ := sortTree(t, []string{src1}, lib); sum.Transferred != 1 {
		t.Fatalf("first sort: %+v", sum)
	}
	// Hash the library into its index, as a dedup sort or `shoebox index` does.
	if _, err := Index(context.Background(), lib, 2, nil); err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(lib, "2019", "2019-07-04", "a.jpg")
	info, err := os.Stat(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	changed := append([]byte(nil), orig...)
	changed[len(changed)-3] ^= 0xff
	if err := os.WriteFile(copyPath, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(copyPath, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	sum, _ := sortTree(t, []string{src2}, lib)
	if sum.Transferred != 1 || sum.Identical != 0 || sum.Duplicates != 0 {
		t.Errorf("sort of the old bytes after the library copy changed in place: %+v; want it imported (the library no longer holds those bytes)", sum)
	}
}
