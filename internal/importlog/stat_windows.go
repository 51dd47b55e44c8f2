package importlog

import (
	"io/fs"

	"github.com/shoebox-photos/shoebox/internal/fsx"
)

// Identity is the file at path's volume serial number and file index (how
// Windows names a file, what os.SameFile compares) and its change time,
// which NTFS keeps but only gives through an open handle: all three come
// from one open for attributes only (fsx.IdentityAt), as the scan's do for
// sources; info (path's stat) says whether path is a link itself. Without
// them every library folder looked like the one that wrote the history (a
// copied library's missing files passed for culled ones), and a copy
// rewritten with its size and mtime put back passed for the one shoebox
// left. Zero when the path cannot be opened: the entry is then Unsure.
func Identity(path string, info fs.FileInfo) (dev, ino uint64, ctime int64) {
	dev, ino, ctime, _ = fsx.IdentityAt(path, info.Mode()&fs.ModeSymlink != 0)
	return dev, ino, ctime
}
