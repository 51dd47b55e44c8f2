//go:build !linux

package store

import "io/fs"

// statExtra: size and mtime only where there is no stat_t.
func statExtra(fs.FileInfo) string { return "" }
