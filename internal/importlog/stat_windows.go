package importlog

import (
	"io/fs"

	"github.com/shoebox-photos/shoebox/internal/fsx"
)

// Identity is the file at path's volume serial number and file index (how
// Windows names a file, what os.SameFile compares) and its change time,
// which NTFS keeps but only gives through an open handle: info (path's
// stat) carries the first two, the file is opened for its attributes for
// the third, as the scan does for sources. Without them every library
// folder looked like the one that wrote the history (a copied library's
// missing files passed for culled ones), and a copy rewritten with its
// size and mtime put back passed for the one shoebox left.
func Identity(path string, info fs.FileInfo) (dev, ino uint64, ctime int64) {
	dev, ino = fsx.DevIno(info)
	return dev, ino, fsx.ChangeTime(path)
}
