package pipeline

import (
	"path/filepath"
	"testing"
)

// A re-run with nothing to do (every source recalled from the import
// history) does not even open the library index: its folder is as it
// was, not a file rewritten (opening a store writes a new manifest and
// log, with their fsyncs).
func TestNoOpRerunLeavesTheIndexUntouched(t *testing.T) {
	root := t.TempDir()
	src, _ := cardOf(t, root, 12, 1000)
	lib := filepath.Join(root, "lib")
	if sum, _ := sortTree(t, []string{src}, lib); sum.Transferred != 12 {
		t.Fatalf("first run: %+v", sum)
	}
	index := LibraryIndexDir(StateDir(lib))
	before := snapshotAll(t, index)
	for _, dry := range []bool{true, false} {
		sum, _ := sortTree(t, []string{src}, lib, func(c *Config) { c.DryRun = dry })
		if sum.Recalled != 12 || sum.Transferred != 0 {
			t.Fatalf("dry run %v: re-run %+v", dry, sum)
		}
		if after := snapshotAll(t, index); after != before {
			t.Errorf("dry run %v: the no-op re-run rewrote the library index:\nbefore\n%s\nafter\n%s", dry, before, after)
		}
	}
}
