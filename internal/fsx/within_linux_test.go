package fsx

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// A folder shown under a second name by a bind mount is inside the folder
// it shows: no name and no device/inode walk above it tells, the mount
// table does.
func TestWithinSeesThroughBindMounts(t *testing.T) {
	root := t.TempDir()
	sub, at := filepath.Join(root, "card", "sub"), filepath.Join(root, "alias")
	for _, d := range []string{sub, at} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := unix.Mount(sub, at, "", unix.MS_BIND, ""); err != nil {
		t.Skipf("needs root to bind-mount a folder (%v)", err)
	}
	t.Cleanup(func() { _ = unix.Unmount(at, unix.MNT_DETACH) })
	card := filepath.Join(root, "card")
	for _, p := range []string{at, filepath.Join(at, "r.html"), filepath.Join(at, "new", "deeper")} {
		if !Within(p, card) {
			t.Errorf("Within(%s, card) = false, want true (a bind mount of card/sub)", p)
		}
	}
	if Within(at, filepath.Join(root, "other")) || Within(filepath.Join(root, "card2"), card) {
		t.Error("Within true for unrelated folders")
	}
}
