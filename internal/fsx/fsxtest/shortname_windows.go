package fsxtest

import (
	"path/filepath"
	"syscall"
	"testing"
)

// ShortName is the 8.3 alias the filesystem gave the last element of path
// (GetShortPathName), or that element itself where the volume makes none;
// the test skips when the system cannot tell.
func ShortName(t testing.TB, path string) string {
	t.Helper()
	long, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]uint16, syscall.MAX_PATH)
	n, err := syscall.GetShortPathName(long, &buf[0], uint32(len(buf)))
	if n == 0 {
		t.Skipf("GetShortPathName(%s): %v", path, err)
	}
	return filepath.Base(syscall.UTF16ToString(buf[:n]))
}
