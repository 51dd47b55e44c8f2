//go:build unix

package scan

import (
	"io/fs"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// On Unix the walker stats entries relative to the open directory
// (fstatat), which is cheaper than a full path and immune to renames of
// the directories above.

// openDirectory opens with O_DIRECTORY: a folder replaced by a named pipe
// since its parent was read is refused by the kernel instead of blocking
// the walk forever.
func openDirectory(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|unix.O_DIRECTORY, 0)
}

func statID(path string) (fileID, bool) {
	st, err := statPath(path)
	return st.id, err == nil
}

func statPath(path string) (entryStat, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return entryStat{}, err
	}
	return fromUnix(&st), nil
}

// statOpen stats an open directory (or file).
func statOpen(f *os.File) (entryStat, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return entryStat{}, err
	}
	return fromUnix(&st), nil
}

// statAt stats name inside the open directory dir; path is its full path
// (unused here, for the platforms without fstatat).
func statAt(dir *os.File, path, name string, follow bool) (entryStat, error) {
	flags := unix.AT_SYMLINK_NOFOLLOW
	if follow {
		flags = 0
	}
	var st unix.Stat_t
	if err := unix.Fstatat(int(dir.Fd()), name, &st, flags); err != nil {
		return entryStat{}, err
	}
	return fromUnix(&st), nil
}

func fromUnix(st *unix.Stat_t) entryStat {
	var mode fs.FileMode
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFDIR:
		mode = fs.ModeDir
	case unix.S_IFLNK:
		mode = fs.ModeSymlink
	default:
		mode = fs.ModeIrregular
	}
	return entryStat{
		mode:  mode,
		size:  st.Size,
		mtime: time.Unix(st.Mtim.Unix()),
		ctime: time.Unix(st.Ctim.Unix()),
		id:    fileID{uint64(st.Dev), uint64(st.Ino)},
		nlink: uint64(st.Nlink),
	}
}

// nameDroppedByOpen is false here: a name is opened as it is written.
func nameDroppedByOpen(string) bool { return false }
