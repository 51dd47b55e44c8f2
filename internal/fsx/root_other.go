//go:build !linux

package fsx

import "os"

// handlePath: no name of an open folder outlives its path here (macOS's
// /dev/fd cannot be walked through; Windows has none), so a Root checks
// its name before each mutation (see Pin).
func handlePath(*os.File, os.FileInfo) string { return "" }
