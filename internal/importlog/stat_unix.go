//go:build unix

package importlog

import (
	"io/fs"
	"syscall"
)

// Identity is a file's device, inode and change time (unix nanoseconds),
// as Check compares them, from info, path's stat (the path is for
// platforms whose stat lacks them).
func Identity(_ string, info fs.FileInfo) (dev, ino uint64, ctime int64) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, 0
	}
	return uint64(st.Dev), uint64(st.Ino), ctimeOf(st)
}
