package scan

import (
	"fmt"
	"io/fs"
	"time"

	"golang.org/x/sys/unix"
)

func statID(path string) (fileID, bool) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, true
}

// StatFile stats one file as the walk does (links followed), for a file
// looked at on its own (explain).
func StatFile(path string) (File, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return File{}, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return File{}, fmt.Errorf("%q is not a regular file", path)
	}
	return fileFromStat(path, "", &st), nil
}

func fileFromStat(path, root string, st *unix.Stat_t) File {
	return File{
		Path:    path,
		Root:    root,
		Size:    st.Size,
		ModTime: time.Unix(st.Mtim.Unix()),
		CTime:   time.Unix(st.Ctim.Unix()),
		Dev:     uint64(st.Dev),
		Ino:     uint64(st.Ino),
		Nlink:   uint64(st.Nlink),
	}
}
