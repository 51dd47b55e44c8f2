package cli

import (
	"bytes"
	"context"
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

// TestReflinkSharesExtentsOnBtrfsAndXFS sorts with --mode reflink on a
// loop-mounted btrfs and XFS image and proves through FIEMAP that every
// library copy is the very extents of its source (same physical blocks,
// marked shared): the sort copied no data.
func TestReflinkSharesExtentsOnBtrfsAndXFS(t *testing.T) {
	for _, fs := range []struct{ name, size string }{{"btrfs", "256M"}, {"xfs", "320M"}} {
		t.Run(fs.name, func(t *testing.T) {
			mnt := loopMount(t, fs.name, fs.size)
			card, lib := filepath.Join(mnt, "card"), filepath.Join(mnt, "lib")
			sources := reflinkCard(t, card, 6)
			stdout, stderr, code := sortCLI(t, "--mode", "reflink", card, lib)
			if code != ExitOK {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
			if strings.Contains(stderr, "copied in full") {
				t.Errorf("%s can reflink, yet the sort says it copied:\n%s", fs.name, stderr)
			}
			copies := reflinkLibrary(t, lib)
			for src, data := range sources {
				dst, ok := copies[string(data)]
				if !ok {
					t.Fatalf("%s is not in the library", src)
				}
				srcExt, dstExt := fiemap(t, src), fiemap(t, dst)
				if len(srcExt) == 0 || !sameExtents(srcExt, dstExt) {
					t.Errorf("%s and its copy %s do not share extents:\n source %v\n copy   %v", src, dst, srcExt, dstExt)
				}
				for _, e := range dstExt {
					if e.flags&fiemapExtentShared == 0 {
						t.Errorf("%s: extent %+v is not marked shared", dst, e)
					}
				}
			}
		})
	}
}

// TestReflinkFallbackIsSaidOnce runs --mode reflink where reflinks are
// impossible (the temp dir's ext4 or tmpfs): the files are copied whole,
// and the user reads once, as a warning, that they were copied in full,
// on which filesystem, and what reflinks need.
func TestReflinkFallbackIsSaidOnce(t *testing.T) {
	dir := t.TempDir()
	card, lib := filepath.Join(dir, "card"), filepath.Join(dir, "lib")
	sources := reflinkCard(t, card, 4)
	probe := filepath.Join(dir, "probe")
	if canReflink(t, filepath.Join(card, sortedKeys(sources)[0]), probe) {
		t.Skipf("the temp dir %s can reflink: no fallback to see here", dir)
	}
	stdout, stderr, code := sortCLI(t, "--mode", "reflink", card, lib)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if n := len(reflinkLibrary(t, lib)); n != len(sources) {
		t.Errorf("%d files in the library, want %d", n, len(sources))
	}
	want := fmt.Sprintf("shoebox: warning: --mode reflink: the library %q", lib)
	if strings.Count(stderr, want) != 1 || !strings.Contains(stderr, "copied in full") || !strings.Contains(stderr, "btrfs") {
		t.Errorf("want one warning starting %q saying the files were copied in full and what reflinks need; stderr:\n%s", want, stderr)
	}
	t.Logf("the user sees:\n%s", stderr)
}

func sortCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), Env{Stdout: &out, Stderr: &errOut, Stdin: strings.NewReader("")}, append([]string{"sort"}, args...))
	return out.String(), errOut.String(), code
}

// reflinkCard writes n photos of 256 KB (big enough that btrfs keeps them
// in extents of their own, not inline in its metadata).
func reflinkCard(t *testing.T, dir string, n int) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < n; i++ {
		data := fixture.JPEG(fixture.EXIF{When: time.Date(2021, 3, 1+i, 9, 0, 0, 0, time.UTC), Comment: fmt.Sprint("reflink ", i)})
		pad := make([]byte, 256<<10)
		rng.Read(pad)
		data = append(data, pad...)
		p := filepath.Join(dir, fmt.Sprintf("IMG_%04d.JPG", i))
		writeFile(t, p, data, 0o644)
		files[p] = data
	}
	// Written data may still sit in the cache without extents on disk.
	if err := exec.Command("sync").Run(); err != nil {
		t.Fatal(err)
	}
	return files
}

// libraryFiles maps each library file's content to its path.
func reflinkLibrary(t *testing.T, lib string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(lib, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".shoebox" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[string(data)] = p
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sortedKeys(m map[string][]byte) []string {
	var keys []string
	for k := range m {
		keys = append(keys, filepath.Base(k))
	}
	return keys
}

// canReflink tries FICLONE from src to a new file at probe.
func canReflink(t *testing.T, src, probe string) bool {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(probe)
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(probe)
	defer out.Close()
	return unix.IoctlFileClone(int(out.Fd()), int(in.Fd())) == nil
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
