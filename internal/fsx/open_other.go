//go:build !unix

package fsx

import (
	"errors"
	"os"
)

// openRegular where there are no named pipes in the file namespace
// (Windows): an open cannot block, so open, then check what was opened.
// Devices (CON, NUL, COM1) and pipes open as handles that Stat reports as
// such, and are refused before anything reads them. Without followLinks,
// a link or junction at name is refused by the open itself (OpenNotLink).
func openRegular(name string, followLinks bool) (*os.File, error) {
	return openRegularFlags(name, followLinks, 0)
}

// openRegularFlags is openRegular with extra CreateFile flags (attributes
// and hints such as FILE_FLAG_RANDOM_ACCESS).
func openRegularFlags(name string, followLinks bool, extraFlags uint32) (*os.File, error) {
	open := createFileFlags // sharing delete too, see sys_windows.go
	if !followLinks {
		open = openNotLink
	}
	f, err := open(name, os.O_RDONLY, 0, extraFlags)
	if errors.Is(err, ErrIsLink) {
		return nil, notRegular(name, os.ModeSymlink)
	}
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
