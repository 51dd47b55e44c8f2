package cli

import (
	"fmt"
	"math/rand"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
)

// TestCopyNeverSharesExtentsOnBtrfsAndXFS sorts with --mode copy on a
// loop-mounted btrfs and XFS image, where copy_file_range would clone
// instead of copy, and proves through FIEMAP that no library copy shares a
// block with its source: a copy must survive damage to the original's
// blocks. The files are larger than one copy buffer, the size from which
// the executor copies inside the kernel where it may.
func TestCopyNeverSharesExtentsOnBtrfsAndXFS(t *testing.T) {
	for _, fs := range []struct{ name, size string }{{"btrfs", "256M"}, {"xfs", "320M"}} {
		t.Run(fs.name, func(t *testing.T) {
			mnt := loopMount(t, fs.name, fs.size)
			card, lib := filepath.Join(mnt, "card"), filepath.Join(mnt, "lib")
			sources := bigCard(t, card, 4, 3<<20)
			stdout, stderr, code := sortCLI(t, "--mode", "copy", card, lib)
			if code != ExitOK {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
			copies := reflinkLibrary(t, lib)
			for src, data := range sources {
				dst, ok := copies[string(data)]
				if !ok {
					t.Fatalf("%s is not in the library", src)
				}
				srcExt, dstExt := fiemap(t, src), fiemap(t, dst)
				if len(dstExt) == 0 {
					t.Fatalf("%s has no extents", dst)
				}
				for _, e := range dstExt {
					if e.flags&fiemapExtentShared != 0 {
						t.Errorf("%s: extent %+v is shared: the copy depends on its source's blocks", dst, e)
					}
				}
				if sameExtents(srcExt, dstExt) {
					t.Errorf("%s and its copy %s are the same blocks", src, dst)
				}
			}
		})
	}
}

// bigCard writes n photos of size bytes (a real EXIF header, then
// incompressible bytes) and syncs them so they have extents on disk.
func bigCard(t *testing.T, dir string, n, size int) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < n; i++ {
		data := fixture.JPEG(fixture.EXIF{When: time.Date(2022, 4, 1+i, 9, 0, 0, 0, time.UTC)})
		pad := make([]byte, size-len(data))
		rng.Read(pad)
		data = append(data, pad...)
		p := filepath.Join(dir, fmt.Sprintf("IMG_%04d.JPG", i))
		writeFile(t, p, data, 0o644)
		files[p] = data
	}
	if err := exec.Command("sync").Run(); err != nil { // written data may have no extents yet
		t.Fatal(err)
	}
	return files
}
