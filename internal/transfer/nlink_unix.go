//go:build unix

package transfer

import (
	"os"
	"syscall"
)

// nlink is the file's link count.
func nlink(_ string, fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1 // unknown: assume the only name, which refuses rather than risks
}
