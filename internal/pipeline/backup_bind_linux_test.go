package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/transfer"
	"golang.org/x/sys/unix"
)

// bindMount mounts dir at at (root only) and unmounts it when the test ends.
func bindMount(t *testing.T, dir, at string) {
	t.Helper()
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mount(dir, at, "", unix.MS_BIND, ""); err != nil {
		t.Skipf("needs root to bind-mount a folder (%v)", err)
	}
	t.Cleanup(func() { _ = unix.Unmount(at, unix.MNT_DETACH) })
}

// A backup folder that is a source's or the library's folder under another
// name (a bind mount, like the other spellings of a name on a
// case-insensitive filesystem) is inside it: refused before anything is
// written, as when it is reached through a symbolic link. The name alone
// does not show it; the device and inode of the folders above it do.
func TestBackupApartSeesThroughBindMounts(t *testing.T) {
	root := t.TempDir()
	src, lib, bak := filepath.Join(root, "card"), filepath.Join(root, "lib"), filepath.Join(root, "bak")
	tree(t, src, map[string][]byte{"a.jpg": photo(2019, 7, 4, 10, "a"), "sub/b.jpg": photo(2019, 7, 5, 10, "b")})
	if err := os.MkdirAll(filepath.Join(lib, "2019"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(bak, 0o755); err != nil {
		t.Fatal(err)
	}
	bindMount(t, filepath.Join(src, "sub"), filepath.Join(root, "subalias"))
	bindMount(t, filepath.Join(lib, "2019"), filepath.Join(root, "libalias"))
	bindMount(t, bak, filepath.Join(root, "bakalias"))
	before := snapshot(t, src)
	for _, c := range []struct{ name, backup, dest string }{
		{"a source's folder", filepath.Join(root, "subalias"), lib},
		{"below a source's folder, still to be made", filepath.Join(root, "subalias", "new", "copy"), lib},
		{"a library folder", filepath.Join(root, "libalias"), lib},
		{"the library inside the backup", bak, filepath.Join(root, "bakalias", "lib")},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := Config{Sources: []string{src}, Dest: c.dest, Backup: c.backup, Mode: transfer.Copy, Dedup: true}
			run, err := Open(cfg)
			if err == nil {
				run.Close()
			}
			if !errors.Is(err, ErrConfig) {
				t.Errorf("--backup %s into %s: err = %v, want the overlap refused", c.backup, c.dest, err)
			}
			assertSame(t, snapshot(t, src), before)
		})
	}
}

// A library folder that is, under another name, the state folder or a
// folder in it (here a bind mount of DEST/.shoebox/journal at DEST/2020;
// under Wine or Samba an 8.3 alias such as "_SHO~E2X") is never written
// into: names cannot see it, the executor refuses it by identity. The
// moved photo fails and stays on the card.
func TestLibraryFolderThatIsTheStateFolderIsNotWrittenInto(t *testing.T) {
	root := t.TempDir()
	src, lib := filepath.Join(root, "card"), filepath.Join(root, "lib")
	tree(t, src, map[string][]byte{"a.jpg": photo(2019, 7, 4, 10, "a")})
	sortTree(t, []string{src}, lib) // makes DEST/.shoebox/journal
	tree(t, src, map[string][]byte{"b.jpg": photo(2020, 3, 1, 10, "b")})
	bindMount(t, filepath.Join(lib, ".shoebox", "journal"), filepath.Join(lib, "2020"))
	sum, rec := sortTree(t, []string{src}, lib, func(c *Config) { c.Mode = transfer.Move })
	if sum.Failed != 1 {
		t.Errorf("failed %d, want 1 (b.jpg)", sum.Failed)
	}
	if _, err := os.Stat(filepath.Join(src, "b.jpg")); err != nil {
		t.Errorf("the photo left the card: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(lib, ".shoebox", "journal")); len(entries) > 0 {
		for _, e := range entries {
			if e.IsDir() || filepath.Ext(e.Name()) != ".journal" {
				t.Errorf("the state folder received %s", e.Name())
			}
		}
	}
	if reason := rec.failed()[filepath.Join(src, "b.jpg")]; !strings.Contains(reason, "state folder") {
		t.Errorf("b.jpg's failure: %q, want it to name the state folder", reason)
	}
}
