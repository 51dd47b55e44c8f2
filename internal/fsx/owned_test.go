package fsx

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// StateFolderOf sees a state folder however the path reaches it: by name
// in any case, with ".." and trailing slashes, relative, not yet made,
// and through symbolic links (also a "link/.." the kernel takes from the
// link's target); a folder merely named like one is not.
func TestStateFolderOf(t *testing.T) {
	root := t.TempDir()
	state := filepath.Join(root, "lib", ".shoebox")
	if err := os.MkdirAll(filepath.Join(state, "index"), 0o755); err != nil {
		t.Fatal(err)
	}
	fsxtest.Symlink(t, state, filepath.Join(root, "st"))
	fsxtest.Symlink(t, filepath.Join(state, "index"), filepath.Join(root, "idx"))
	t.Chdir(filepath.Join(state, "index"))
	inside := []string{
		filepath.Join(state, "index"),
		filepath.Join(state, "not", "yet"),
		state + string(filepath.Separator),
		filepath.Join(root, "lib", ".SHOEBOX", "x"),
		filepath.Join(root, "lib", ".shoebox.", "x"), // Windows drops the dot
		filepath.Join(root, "lib", "SHOEBO~1", "x"),  // its 8.3 alias
		root + "/lib/2019/../.shoebox/x",
		"here",
		"../x",
		filepath.Join(root, "st", "x"),
		root + "/idx/../y", // the folder above idx's target: the state folder
	}
	for _, p := range inside {
		if got, ok := StateFolderOf(p); !ok {
			t.Errorf("StateFolderOf(%q) = not inside, want inside a state folder", p)
		} else if err := OutsideState("--backup", p); err == nil {
			t.Errorf("OutsideState(%q) = nil, want refused (inside %s)", p, got)
		}
	}
	outside := []string{
		filepath.Join(root, "lib"),
		filepath.Join(root, "lib", "2019"),
		filepath.Join(root, "lib", ".shoebox-archive", "x"),
		filepath.Join(root, "lib", "shoebox", "x"),
		root + "/lib/.shoebox/../x",
		"../../x",
	}
	for _, p := range outside {
		if got, ok := StateFolderOf(p); ok {
			t.Errorf("StateFolderOf(%q) = %q, want outside every state folder", p, got)
		}
	}
}

// IsLibrary: a state folder with one of shoebox's own entries makes a
// library; an empty or linked .shoebox does not.
func TestIsLibrary(t *testing.T) {
	root := t.TempDir()
	mk := func(p string) {
		if err := os.MkdirAll(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mk("lib/.shoebox/journal")
	mk("empty/.shoebox")
	mk("plain")
	fsxtest.Symlink(t, filepath.Join(root, "lib", ".shoebox"), filepath.Join(root, "plain", ".shoebox"))
	for dir, want := range map[string]bool{"lib": true, "empty": false, "plain": false, "nothing": false} {
		if got := IsLibrary(filepath.Join(root, dir)); got != want {
			t.Errorf("IsLibrary(%s) = %v, want %v", dir, got, want)
		}
	}
}
