//go:build linux

package store

import (
	"fmt"
	"io/fs"
	"syscall"
)

// statExtra is a file's change time and link count.
func statExtra(fi fs.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	return fmt.Sprintf("ctime %d.%d links %d", st.Ctim.Sec, st.Ctim.Nsec, st.Nlink)
}
