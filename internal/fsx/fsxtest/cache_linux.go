package fsxtest

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// DropFromCache writes back and evicts one file's pages
// (POSIX_FADV_DONTNEED): a cold cache for this file only, without
// disturbing the rest of a shared machine. Some filesystems (tmpfs) keep
// the pages anyway; a test that needs them gone checks residency itself.
func DropFromCache(t testing.TB, path string) {
	t.Helper()
	fd, err := unix.Open(path, unix.O_RDONLY, 0)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	defer unix.Close(fd)
	if err := unix.Fdatasync(fd); err != nil {
		t.Fatalf("fdatasync %s: %v", path, err)
	}
	if err := unix.Fadvise(fd, 0, 0, unix.FADV_DONTNEED); err != nil {
		t.Fatalf("fadvise DONTNEED %s: %v", path, err)
	}
}

// ProcIO is one counter of /proc/self/io for this process: "read_bytes"
// (bytes it caused to be fetched from storage, readahead included) or
// "rchar" (bytes handed to read-like calls, page cache hits included). It
// skips the test where the kernel keeps no such counter.
func ProcIO(t testing.TB, field string) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/io")
	if err != nil {
		t.Skipf("no /proc/self/io: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+": "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatalf("/proc/self/io %s: %v", field, err)
			}
			return n
		}
	}
	t.Skipf("no %s in /proc/self/io", field)
	return 0
}
