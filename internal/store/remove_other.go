//go:build !windows

package store

import "os"

// removeStore is os.RemoveAll: an open file or folder does not keep its
// name from being removed here.
func removeStore(dir string) error { return os.RemoveAll(dir) }
