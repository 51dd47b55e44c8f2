package cli

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/shoebox-photos/shoebox/internal/fixture"
)

// This file holds what the extent tests share: a loop-mounted btrfs or XFS
// image, a card of photos big enough to own extents, and FIEMAP.

// extentCopy is one source photo and its library copy, with the extents
// of both as FIEMAP lists them.
type extentCopy struct {
	src, dst       string
	srcExt, dstExt []extent
}

// sortOnReflinkFilesystems sorts, with --mode mode, a card of n photos
// (each a real EXIF header and pad incompressible bytes) on a fresh
// loop-mounted btrfs and XFS image, one subtest each, and hands check the
// sort's stderr and every source with its library copy.
func sortOnReflinkFilesystems(t *testing.T, mode string, n, pad int, check func(t *testing.T, fs, stderr string, copies []extentCopy)) {
	for _, fs := range []struct{ name, size string }{{"btrfs", "256M"}, {"xfs", "320M"}} {
		t.Run(fs.name, func(t *testing.T) {
			mnt := loopMount(t, fs.name, fs.size)
			card, lib := filepath.Join(mnt, "card"), filepath.Join(mnt, "lib")
			sources := extentCard(t, card, n, pad)
			stdout, stderr, code := sortCLI(t, "--mode", mode, card, lib)
			if code != ExitOK {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
			library := reflinkLibrary(t, lib)
			var copies []extentCopy
			for src, data := range sources {
				dst, ok := library[string(data)]
				if !ok {
					t.Fatalf("%s is not in the library", src)
				}
				copies = append(copies, extentCopy{src: src, dst: dst, srcExt: fiemap(t, src), dstExt: fiemap(t, dst)})
			}
			check(t, fs.name, stderr, copies)
		})
	}
}

// extentCard writes n photos, each a real EXIF header followed by pad
// incompressible bytes, and syncs them: written data may still sit in the
// cache without extents on disk.
func extentCard(t *testing.T, dir string, n, pad int) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < n; i++ {
		data := fixture.JPEG(fixture.EXIF{When: time.Date(2021, 3, 1+i, 9, 0, 0, 0, time.UTC), Comment: fmt.Sprint("extents ", i)})
		tail := make([]byte, pad)
		rng.Read(tail)
		data = append(data, tail...)
		p := filepath.Join(dir, fmt.Sprintf("IMG_%04d.JPG", i))
		writeFile(t, p, data, 0o644)
		files[p] = data
	}
	if err := exec.Command("sync").Run(); err != nil {
		t.Fatal(err)
	}
	return files
}

// loopMount makes a fresh filesystem of the given type in a sparse image
// and mounts it; it skips, saying why, where that is not possible.
func loopMount(t *testing.T, fstype, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skipf("loop-mounting a %s image needs root", fstype)
	}
	mkfs, err := exec.LookPath("mkfs." + fstype)
	if err != nil {
		t.Skipf("mkfs.%s is not installed (apt-get install %s-progs): %v", fstype, strings.TrimSuffix(fstype, "fs")+map[bool]string{true: "fs", false: ""}[fstype == "xfs"], err)
	}
	dir := t.TempDir()
	img, mnt := filepath.Join(dir, fstype+".img"), filepath.Join(dir, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("truncate", "-s", size, img).CombinedOutput(); err != nil {
		t.Fatalf("truncate: %v %s", err, out)
	}
	args := []string{"-q", img}
	if fstype == "xfs" {
		args = []string{"-q", "-m", "reflink=1", img}
	}
	if out, err := exec.Command(mkfs, args...).CombinedOutput(); err != nil {
		t.Skipf("mkfs.%s: %v %s", fstype, err, out)
	}
	if out, err := exec.Command("mount", "-o", "loop", img, mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot loop-mount a %s image here: %v %s", fstype, err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", mnt, err, out)
		}
	})
	return mnt
}

type extent struct {
	logical, physical, length uint64
	flags                     uint32
}

const (
	fsIocFiemap        = 0xC020660B // _IOWR('f', 11, struct fiemap)
	fiemapFlagSync     = 0x1
	fiemapExtentLast   = 0x1
	fiemapExtentShared = 0x2000
	fiemapHeader       = 32 // struct fiemap without its extents
	fiemapExtentSize   = 56 // struct fiemap_extent
)

// fiemap lists a file's extents with the FS_IOC_FIEMAP ioctl
// (Documentation/filesystems/fiemap.rst).
func fiemap(t *testing.T, path string) []extent {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const max = 64
	buf := make([]byte, fiemapHeader+max*fiemapExtentSize)
	le := binary.LittleEndian // the struct is in host order; these tests run on little-endian hosts
	le.PutUint64(buf[0:], 0)
	le.PutUint64(buf[8:], ^uint64(0))
	le.PutUint32(buf[16:], fiemapFlagSync)
	le.PutUint32(buf[24:], max)
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, f.Fd(), fsIocFiemap, uintptr(unsafe.Pointer(&buf[0]))); errno != 0 {
		t.Fatalf("FIEMAP %s: %v", path, errno)
	}
	n := le.Uint32(buf[20:])
	var out []extent
	for i := uint32(0); i < n; i++ {
		e := buf[fiemapHeader+i*fiemapExtentSize:]
		out = append(out, extent{logical: le.Uint64(e[0:]), physical: le.Uint64(e[8:]), length: le.Uint64(e[16:]), flags: le.Uint32(e[40:])})
	}
	return out
}

// sameExtents compares where the data is, not the flags (the last-extent
// flag and such may differ).
func sameExtents(a, b []extent) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].logical != b[i].logical || a[i].physical != b[i].physical || a[i].length != b[i].length {
			return false
		}
	}
	return true
}
