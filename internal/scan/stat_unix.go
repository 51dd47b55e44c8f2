package scan

import (
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
