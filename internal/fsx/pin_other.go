//go:build !linux

package fsx

import "os"

// No root is reached through its open folder here (handlePath is ""), so
// these are never called; they open by name.
func openVia(path, _ string) (File, error) { return OS.Open(path) }

func openFileVia(path, _ string, flag int, perm os.FileMode) (File, error) {
	return OS.OpenFile(path, flag, perm)
}
