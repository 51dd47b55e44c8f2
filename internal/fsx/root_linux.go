package fsx

import (
	"fmt"
	"os"
)

// handlePath is the name of the open folder dir itself: /proc/self/fd/N
// resolves to the folder the descriptor holds, on the drive it was opened
// on, even once that drive is unmounted lazily and its mount point is an
// empty folder elsewhere. "" where /proc is not mounted (the root then
// checks its name before each mutation, as on other systems).
func handlePath(dir *os.File, info os.FileInfo) string {
	p := fmt.Sprintf("/proc/self/fd/%d", dir.Fd())
	if st, err := os.Stat(p); err != nil || !os.SameFile(st, info) {
		return ""
	}
	return p
}
