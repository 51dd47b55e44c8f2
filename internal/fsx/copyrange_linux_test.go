package fsx

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestCopyRangeCopiesInTheKernelOrSaysUnsupported: on a filesystem where
// copy_file_range makes a real copy (ext4, tmpfs) the bytes arrive and the
// offsets advance; a file of a wrapping FS (Faults) is refused as
// unsupported, so its reads and writes stay visible to the wrapper.
func TestCopyRangeCopiesInTheKernelOrSaysUnsupported(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.jpg")
	writeFile(t, src, "0123456789")
	in, err := OS.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := OS.OpenFile(filepath.Join(dir, "dst.jpg"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()

	faulty, err := NewFaults(OS).Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer faulty.Close()
	if _, err := CopyRange(out, faulty, 10); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("CopyRange from a Faults file = %v, want ErrUnsupported", err)
	}

	n, err := CopyRange(out, in, 4)
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skipf("no in-kernel copy here: %v", err)
	}
	if err != nil || n != 4 {
		t.Fatalf("CopyRange(4) = %d, %v", n, err)
	}
	if n, err = CopyRange(out, in, 100); err != nil || n != 6 {
		t.Fatalf("CopyRange(100) of the last 6 bytes = %d, %v", n, err)
	}
	if n, err = CopyRange(out, in, 100); err != nil || n != 0 {
		t.Fatalf("CopyRange at the end = %d, %v; want 0, nil", n, err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "dst.jpg")); string(got) != "0123456789" {
		t.Errorf("copy = %q", got)
	}
}
