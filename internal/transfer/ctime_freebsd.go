package transfer

import (
	"os"
	"syscall"
)

// changeTime is the inode's ctime (zero where the stat has none).
func changeTime(fi os.FileInfo) syscall.Timespec {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ctimespec
	}
	return syscall.Timespec{}
}
