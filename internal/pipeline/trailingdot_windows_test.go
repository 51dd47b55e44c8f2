package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNameEndingInDotIsNotItsNeighbour: NTFS holds names ending in a dot or
// a space (made through \\?\ paths, WSL, a Linux NAS), but a plain Win32
// path drops them, so "IMG_1.JPG." opened without \\?\ opens "IMG_1.JPG".
// The scan listed the dotted file and every later open read its
// neighbour: the run reported it a duplicate of IMG_1.JPG (it is another
// photo) and never imported it; a user told it is already in the library
// may format the card. Under Wine the same on a Linux folder.
func TestNameEndingInDotIsNotItsNeighbour(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "card"), filepath.Join(root, "lib")
	a, b := photo(2019, 7, 4, 15, "IMG_1.JPG"), photo(2019, 7, 4, 16, "IMG_1.JPG. (another photo)")
	tree(t, src, map[string][]byte{"IMG_1.JPG": a})
	for _, odd := range []string{"IMG_1.JPG.", "IMG_1.JPG "} {
		if err := os.WriteFile(`\\?\`+filepath.Join(src, odd), append(b, odd...), 0o644); err != nil {
			t.Skipf("cannot make %q here: %v", odd, err)
		}
	}
	_, rec := sortTree(t, []string{src}, dst)
	lib := snapshot(t, dst)
	for _, odd := range []string{"IMG_1.JPG.", "IMG_1.JPG "} {
		want := string(append(b, odd...))
		found := false
		for _, data := range lib {
			found = found || data == want
		}
		if found {
			continue
		}
		failed := false
		for _, ev := range rec.events {
			if strings.HasSuffix(ev.Src, odd) {
				t.Logf("%q: %s %s (same as %s)", odd, ev.Outcome, ev.Reason, ev.SameAs)
				failed = failed || ev.Outcome == OutFailed || ev.Type == "problem" && strings.Contains(ev.Reason, "ends in a dot or a space")
			}
		}
		if failed {
			continue // said, at least: the user knows it is not imported
		}
		t.Errorf("%q is not in the library, and the run did not fail it: %v", odd, keys(lib))
	}
}
