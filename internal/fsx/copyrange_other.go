//go:build !linux

package fsx

import (
	"errors"
	"fmt"
)

// copyRange: no in-kernel file copy on this system yet; reads and writes.
func copyRange(dst, src File, n int64) (int64, error) {
	return 0, fmt.Errorf("copy_file_range: %w", errors.ErrUnsupported)
}
