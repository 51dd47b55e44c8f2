package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// A store folder (the library's index, its import history, a run's
// scratch store) that is a symbolic link would have pebble write, and
// delete what it takes for its own obsolete files, in the user's folder at
// the other end: refused like a state folder or lock that is a link,
// nothing there touched.
func TestStoreFolderThatIsALinkIsRefused(t *testing.T) {
	root := t.TempDir()
	precious := filepath.Join(root, "precious")
	if err := os.MkdirAll(precious, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"IMG_1.JPG": "photo", "000007.sst": "a user's file with a store-like name", "000002.log": "notes"}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(precious, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, opt := range []Options{{}, {Disposable: true}, {Scratch: true}, {ReadOnly: true}} {
		dir := filepath.Join(root, "index")
		fsxtest.Symlink(t, precious, dir)
		s, err := Open(dir, opt)
		if err == nil {
			s.Close()
		}
		if !errors.Is(err, ErrNotOurs) {
			t.Errorf("Open(%+v) of a store folder that is a link: %v, want ErrNotOurs", opt, err)
		}
		entries, _ := os.ReadDir(precious)
		if len(entries) != len(files) {
			t.Errorf("Open(%+v): the linked folder holds %d entries, want the user's %d untouched", opt, len(entries), len(files))
		}
		for name, body := range files {
			if b, err := os.ReadFile(filepath.Join(precious, name)); err != nil || string(b) != body {
				t.Errorf("Open(%+v): %s changed: %q, %v", opt, name, b, err)
			}
		}
		os.RemoveAll(dir) // the link (or a folder made in its place)
	}
}
