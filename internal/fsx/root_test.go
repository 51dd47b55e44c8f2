package fsx

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A root whose name comes to lead elsewhere (its folder moved away and
// another made at its name, as an unmounted drive leaves its empty mount
// point) is never written into by name: on Linux the writes go on through
// the open folder, to where it is now; elsewhere they fail with ErrGone.
// Present says it went away, and errors name the caller's paths.
func TestPinnedRootIsNeverReplacedByItsName(t *testing.T) {
	dir := t.TempDir()
	lib, moved := filepath.Join(dir, "lib"), filepath.Join(dir, "moved")
	if err := os.Mkdir(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	root, err := OpenRoot(lib)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	fsys := Pin(NewFaults(OS), root)
	if err := root.Present(); err != nil {
		t.Fatalf("Present before anything moved: %v", err)
	}
	if err := fsys.MkdirAll(filepath.Join(lib, "2019"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(lib, moved); err != nil {
		if runtime.GOOS == "windows" {
			// Windows will not move a folder that is held open: a pinned
			// root cannot be replaced by its name at all.
			t.Logf("the pinned root cannot be moved away: %v", err)
			return
		}
		t.Fatal(err)
	}
	if err := os.Mkdir(lib, 0o755); err != nil { // the empty mount point
		t.Fatal(err)
	}
	var gone *GoneError
	if err := root.Present(); !errors.As(err, &gone) || !errors.Is(err, ErrGone) || gone.Root != lib {
		t.Errorf("Present after the folder went away: %v, want a GoneError for %s", err, lib)
	}
	target := filepath.Join(lib, "2019", "IMG_1.JPG")
	f, err := fsys.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if runtime.GOOS != "linux" {
		if !errors.Is(err, ErrGone) {
			t.Errorf("create under a root gone away: %v, want ErrGone", err)
		}
		return
	}
	if err != nil {
		t.Fatalf("create through the open root: %v", err)
	}
	if f.Name() != target {
		t.Errorf("the file is named %q, want the caller's %q", f.Name(), target)
	}
	f.Write([]byte("photo"))
	f.Close()
	if ents, _ := os.ReadDir(lib); len(ents) != 0 {
		t.Errorf("written by name into the folder that took the root's name: %v", ents)
	}
	if b, err := os.ReadFile(filepath.Join(moved, "2019", "IMG_1.JPG")); err != nil || string(b) != "photo" {
		t.Errorf("the file is not in the root's own folder: %q %v", b, err)
	}
	err = fsys.RenameNoReplace(filepath.Join(lib, "2019", "none"), filepath.Join(lib, "x"))
	if err == nil || strings.Contains(err.Error(), "/proc/") || !strings.Contains(err.Error(), lib) {
		t.Errorf("error of a pinned rename: %v, want the caller's paths", err)
	}
	if _, err := fsys.Lstat(filepath.Join(lib, "2019", "none")); err == nil || strings.Contains(err.Error(), "/proc/") {
		t.Errorf("error of a pinned lstat: %v, want the caller's path", err)
	}
}

// Two roots pinned one after the other (the library, then the backup
// folder) are one pinned FS: a file opened under the second is named as
// the caller named it, never by the first's rewritten /proc/self/fd path,
// in its Name and in the errors it gives.
func TestPinTwiceNamesFilesAsTheCallerDid(t *testing.T) {
	dir := t.TempDir()
	var roots []*Root
	for _, n := range []string{"lib", "bak"} {
		if err := os.Mkdir(filepath.Join(dir, n), 0o755); err != nil {
			t.Fatal(err)
		}
		r, err := OpenRoot(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		roots = append(roots, r)
	}
	for _, fsys := range []FS{Pin(Pin(OS, roots[0]), roots[1]), Pin(Pin(NewFaults(OS), roots[0]), roots[1])} {
		for _, n := range []string{"lib", "bak"} {
			name := filepath.Join(dir, n, "IMG_1.JPG")
			f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			if f.Name() != name {
				t.Errorf("opened as %s, named %s", name, f.Name())
			}
			f.Close()
			if _, err := f.Write([]byte("x")); err == nil || !strings.Contains(err.Error(), name) || strings.Contains(err.Error(), "/proc/") {
				t.Errorf("a write to the closed %s: %v, want its error to name it", name, err)
			}
			if err := fsys.Remove(name); err != nil {
				t.Fatal(err)
			}
		}
	}
}
