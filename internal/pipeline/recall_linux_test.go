package pipeline

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// rchar is the bytes this process has read through read-like system
// calls so far (page cache hits included: what the program asked for).
func rchar(t *testing.T) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/io")
	if err != nil {
		t.Skipf("no /proc/self/io: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "rchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Skip("no rchar in /proc/self/io")
	return 0
}

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
		before := rchar(t)
		sum, _ := sortTree(t, []string{src}, lib, func(c *Config) { c.Dedup = dedup })
		read := rchar(t) - before
		if sum.Recalled != n || sum.Transferred != 0 {
			t.Fatalf("dedup=%v: re-run %+v", dedup, sum)
		}
		if limit := int64(n*size) / 50; read > limit {
			t.Errorf("dedup=%v: the no-op re-run read %d bytes, over 2%% of the card's %d", dedup, read, n*size)
		}
		t.Logf("dedup=%v: no-op re-run read %d bytes for %d bytes of photos (%.3f%%)", dedup, read, n*size, 100*float64(read)/float64(n*size))
	}
}
