package fsx

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// TestOpenRandomReadsOnlyWhatIsAsked: a header read through OpenRandom of a
// file not in the page cache brings in at most twice the bytes asked for.
// Without the readahead advice the kernel fetches its readahead window
// (128 KiB or more) for a 64 KiB read at offset 0. Residency is counted
// with mincore(2), so the test needs a filesystem whose cache can be
// dropped file by file (not tmpfs).
func TestOpenRandomReadsOnlyWhatIsAsked(t *testing.T) {
	const fileSize, header = 4 << 20, 64 << 10
	p := filepath.Join(t.TempDir(), "photo.jpg")
	data := make([]byte, fileSize)
	rand.Read(data)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	evict(t, p)

	r, err := OpenRandom(p, true)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, header)
	if _, err := r.ReadAt(buf, 0); err != nil {
		t.Fatal(err)
	}
	r.Close()
	if got := residentBytes(t, p, fileSize); got > 2*header {
		t.Errorf("reading %d bytes brought %d bytes into the page cache, want at most %d", header, got, 2*header)
	}
}

// evict writes back and drops the page cache of one file, or skips the test
// where the filesystem keeps its pages anyway.
func evict(t *testing.T, path string) {
	t.Helper()
	fsxtest.DropFromCache(t, path)
	fd, err := unix.Open(path, unix.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	unix.Fstat(fd, &st)
	if residentBytes(t, path, st.Size) != 0 {
		t.Skip("this filesystem keeps the file's pages cached (tmpfs?): cannot read it cold")
	}
}

// residentBytes is how much of the file's first size bytes is in the page
// cache.
func residentBytes(t *testing.T, path string, size int64) int64 {
	t.Helper()
	fd, err := unix.Open(path, unix.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	m, err := unix.Mmap(fd, 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	page := int64(os.Getpagesize())
	vec := make([]byte, (size+page-1)/page)
	_, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0])))
	if errno != 0 {
		t.Fatal(errno)
	}
	var n int64
	for _, v := range vec {
		if v&1 != 0 {
			n += page
		}
	}
	return n
}
