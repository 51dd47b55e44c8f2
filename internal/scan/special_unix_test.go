//go:build unix

package scan

import (
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// Named pipes exist in the file namespace on Unix only.
func TestWalkSkipsSpecialFiles(t *testing.T) {
	root := t.TempDir()
	buildTree(t, root, map[string]node{"a.jpg": file("a")})
	must(t, unix.Mkfifo(filepath.Join(root, "fifo"), 0o644))
	r := walk(t, []string{root}, Options{})
	must(t, r.err)
	if len(r.files) != 1 || r.stats.Skipped != 1 {
		t.Errorf("files %q stats %+v, want the fifo skipped", r.rel(t, root), r.stats)
	}
}
