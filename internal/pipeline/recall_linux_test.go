package pipeline

import (
	"path/filepath"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// The measure: a no-op re-run over real-size photos reads less
// than 2% of their bytes (it read 201% before the import history: every
// source hashed and every library copy compared). Counted by the kernel,
// whatever reads: headers, hashes, comparisons, shoebox's own stores.
func TestNoOpRerunReadsAlmostNothing(t *testing.T) {
	root := t.TempDir()
	const n, size = 40, 1 << 20
	src, _ := cardOf(t, root, n, size)
	lib := filepath.Join(root, "lib")
	if sum, _ := sortTree(t, []string{src}, lib); sum.Transferred != n {
		t.Fatalf("first run: %+v", sum)
	}
	for _, dedup := range []bool{true, false} {
		before := fsxtest.ProcIO(t, "rchar")
		sum, _ := sortTree(t, []string{src}, lib, func(c *Config) { c.Dedup = dedup })
		read := fsxtest.ProcIO(t, "rchar") - before
		if sum.Recalled != n || sum.Transferred != 0 {
			t.Fatalf("dedup=%v: re-run %+v", dedup, sum)
		}
		if limit := int64(n*size) / 50; read > limit {
			t.Errorf("dedup=%v: the no-op re-run read %d bytes, over 2%% of the card's %d", dedup, read, n*size)
		}
		t.Logf("dedup=%v: no-op re-run read %d bytes for %d bytes of photos (%.3f%%)", dedup, read, n*size, 100*float64(read)/float64(n*size))
	}
}
