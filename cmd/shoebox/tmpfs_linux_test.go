package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// mountTmpfs mounts a tmpfs and returns its path, or "" (with a message)
// when it cannot: then the test runs on the temp dir's disk and skips the
// cross-device move.
func mountTmpfs(t *testing.T, name string) string {
	dir := filepath.Join(t.TempDir(), name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=256m"); err != nil {
		t.Logf("cannot mount a tmpfs (%v): on the temp dir's disk, without the cross-device move", err)
		return ""
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}
