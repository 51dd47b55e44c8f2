package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestReflinkSharesExtentsOnBtrfsAndXFS sorts with --mode reflink on a
// loop-mounted btrfs and XFS image and proves through FIEMAP that every
// library copy is the very extents of its source (same physical blocks,
// marked shared): the sort copied no data.
func TestReflinkSharesExtentsOnBtrfsAndXFS(t *testing.T) {
	sortOnReflinkFilesystems(t, "reflink", 6, 256<<10, func(t *testing.T, fs, stderr string, copies []extentCopy) {
		if strings.Contains(stderr, "copied in full") {
			t.Errorf("%s can reflink, yet the sort says it copied:\n%s", fs, stderr)
		}
		for _, c := range copies {
			if len(c.srcExt) == 0 || !sameExtents(c.srcExt, c.dstExt) {
				t.Errorf("%s and its copy %s do not share extents:\n source %v\n copy   %v", c.src, c.dst, c.srcExt, c.dstExt)
			}
			for _, e := range c.dstExt {
				if e.flags&fiemapExtentShared == 0 {
					t.Errorf("%s: extent %+v is not marked shared", c.dst, e)
				}
			}
		}
	})
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
	return extentCard(t, dir, n, 256<<10)
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
