//go:build !unix

package fsx

import "os"

// openRegular where there are no named pipes in the file namespace
// (Windows): a plain open cannot block, so open, then check what was opened.
func openRegular(name string, followLinks bool) (*os.File, error) {
	if !followLinks {
		if fi, err := os.Lstat(name); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return nil, notRegular(name, fi.Mode())
		}
	}
	f, err := createFile(name, os.O_RDONLY, 0) // sharing delete too, see sys_windows.go
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, notRegular(name, fi.Mode())
	}
	return f, nil
}
