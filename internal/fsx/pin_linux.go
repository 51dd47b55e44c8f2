package fsx

import (
	"os"

	"golang.org/x/sys/unix"
)

// openVia opens the regular file at path (name reached through its
// root's open folder) for reading, named name.
func openVia(path, name string) (File, error) {
	f, err := openRegularAs(path, name, true)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// openFileVia is os.OpenFile of path, the file named name.
func openFileVia(path, name string, flag int, perm os.FileMode) (File, error) {
	for {
		fd, err := unix.Open(path, flag|unix.O_CLOEXEC, uint32(perm.Perm()))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
	}
}
