//go:build unix

package fsx

import (
	"os"
	"syscall"
)

// Nlink is the file's link count.
func Nlink(_ string, fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1 // unknown: assume the only name, which refuses rather than risks
}
