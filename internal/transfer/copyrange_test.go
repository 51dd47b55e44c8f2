package transfer

import (
	"bytes"
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx"
)

// TestCopyContentCopiesEveryByteAndSeesSizeChanges: the kernel copy (where
// the filesystem allows it) and the read/write rest together copy a file
// larger than one kernel chunk byte for byte, and the total they report is
// the source's real length, so a source that grew or shrank after its scan
// is caught by the size check, whichever way its bytes moved.
func TestCopyContentCopiesEveryByteAndSeesSizeChanges(t *testing.T) {
	dir := t.TempDir()
	data := make([]byte, kernelCopyChunk+12345)
	rand.Read(data)
	src := filepath.Join(dir, "src.jpg")
	if err := os.WriteFile(src, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		size int64 // what the scan said
	}{
		{"same size", int64(len(data))},
		{"grew since the scan", int64(len(data)) - 100},
		{"shrank since the scan", int64(len(data)) + 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := filepath.Join(dir, tc.name)
			n := copyFile(t, dst, src, tc.size)
			if n != int64(len(data)) {
				t.Errorf("copied %d bytes, want the source's %d", n, len(data))
			}
			got, err := os.ReadFile(dst)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, data) {
				t.Errorf("copy differs from its source")
			}
		})
	}
}

func copyFile(t *testing.T, dst, src string, size int64) int64 {
	t.Helper()
	in, err := fsx.OS.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := fsx.OS.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	n, err := copyContent(context.Background(), out, in, size)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
