package cli

import (
	"testing"
)

// TestCopyNeverSharesExtentsOnBtrfsAndXFS sorts with --mode copy on a
// loop-mounted btrfs and XFS image, where copy_file_range would clone
// instead of copy, and proves through FIEMAP that no library copy shares a
// block with its source: a copy must survive damage to the original's
// blocks. The files are larger than one copy buffer, the size from which
// the executor copies inside the kernel where it may.
func TestCopyNeverSharesExtentsOnBtrfsAndXFS(t *testing.T) {
	sortOnReflinkFilesystems(t, "copy", 4, 3<<20, func(t *testing.T, _, _ string, copies []extentCopy) {
		for _, c := range copies {
			if len(c.dstExt) == 0 {
				t.Fatalf("%s has no extents", c.dst)
			}
			for _, e := range c.dstExt {
				if e.flags&fiemapExtentShared != 0 {
					t.Errorf("%s: extent %+v is shared: the copy depends on its source's blocks", c.dst, e)
				}
			}
			if sameExtents(c.srcExt, c.dstExt) {
				t.Errorf("%s and its copy %s are the same blocks", c.src, c.dst)
			}
		}
	})
}
