package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/store"
)

// leaveTornStore leaves at dir what a kill during pebble's first open, or
// during the removal of a store's folder, leaves: a store whose MANIFEST
// is gone.
func leaveTornStore(t *testing.T, dir string) {
	t.Helper()
	s, err := store.Open(dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	manifests, _ := filepath.Glob(filepath.Join(dir, "MANIFEST-*"))
	if len(manifests) == 0 {
		t.Fatalf("no MANIFEST in %s", dir)
	}
	for _, m := range manifests {
		if err := os.Remove(m); err != nil {
			t.Fatal(err)
		}
	}
}

// The run store and the hash index are disposable: a torn one never stops
// a sort (issue 11 item 6: "open run store: … could not open manifest file
// MANIFEST-000001", exit 1, after a kill -9 at an unlucky moment). The
// index is rebuilt with a warning, and duplicates against the library are
// still found.
func TestTornStateStoresAreRebuilt(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "card"), filepath.Join(root, "lib")
	tree(t, src, map[string][]byte{"a.jpg": photo(2018, 1, 2, 3, "a")})
	sortTree(t, []string{src}, dst)

	state := StateDir(dst)
	leaveTornStore(t, filepath.Join(state, "run"))
	leaveTornStore(t, filepath.Join(state, "index"))
	tree(t, src, map[string][]byte{"b.jpg": photo(2018, 1, 2, 4, "b"), "twin-of-a.jpg": photo(2018, 1, 2, 3, "a")})
	sum, rec := sortTree(t, []string{src}, dst)
	if sum.Transferred != 1 || sum.Identical+sum.Duplicates != 2 {
		t.Errorf("summary after torn stores %+v: want b.jpg transferred, a.jpg and its twin found in the library", sum)
	}
	if !warned(rec, "hash index") {
		t.Errorf("no warning says the hash index was rebuilt: %v", rec.ofType("warning"))
	}
	if _, err := os.Stat(filepath.Join(state, "run")); !os.IsNotExist(err) {
		t.Errorf("the run store is left in the library after the run: %v", err)
	}

	leaveTornStore(t, filepath.Join(state, "index"))
	var warnings []string
	st, err := Index(context.Background(), dst, 2, func(ev Event) { warnings = append(warnings, ev.Reason) })
	if err != nil || st.Hashed != 2 {
		t.Errorf("index over a torn index: %+v, %v; want both library files hashed again", st, err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "hash index") {
		t.Errorf("index warnings %q: want one saying the hash index was rebuilt", warnings)
	}
}

func warned(rec *recorder, about string) bool {
	for _, ev := range rec.ofType("warning") {
		if strings.Contains(ev.Reason, about) {
			return true
		}
	}
	return false
}
