package fsxtest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestProcIOCountsReads: reading a file after dropping it from the cache
// moves rchar by at least its size (read_bytes too, where the filesystem
// has a disk behind it: not asserted, tmpfs keeps its pages).
func TestProcIOCountsReads(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	data := make([]byte, 256<<10)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	DropFromCache(t, p)
	before, beforeDisk := ProcIO(t, "rchar"), ProcIO(t, "read_bytes")
	if _, err := os.ReadFile(p); err != nil {
		t.Fatal(err)
	}
	if got := ProcIO(t, "rchar") - before; got < int64(len(data)) {
		t.Errorf("rchar moved by %d reading %d bytes", got, len(data))
	}
	t.Logf("read_bytes moved by %d for a %d-byte file read cold", ProcIO(t, "read_bytes")-beforeDisk, len(data))
}
