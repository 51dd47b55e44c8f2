//go:build !unix

package report

import "os"

// openNoFollow opens path for reading; the caller checks what was opened
// is a regular file (no O_NOFOLLOW here).
func openNoFollow(path string) (*os.File, error) { return os.Open(path) }
