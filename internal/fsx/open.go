package fsx

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ErrNotRegular is wrapped by OpenRegular's error when the path names
// something that is not a regular file: a named pipe, a socket, a device, a
// directory, or (when links are not followed) a symbolic link.
var ErrNotRegular = errors.New("not a regular file")

// ErrIsLink is wrapped by the error of an open that does not follow links
// (OpenRegular with followLinks false; OpenNotLink on Windows) when name is
// a symbolic link or a junction.
var ErrIsLink = errors.New("symbolic link or junction")

// OpenRegular opens the file at name for reading, and only if it is a
// regular file. It is the one way shoebox opens a file to read its bytes
// (headers, sidecars, thumbnails, hashes, copies, verification): a scanned
// file may have been replaced by a named pipe or a device since, and a
// plain open of a FIFO blocks until a writer appears — forever, and deaf
// to Ctrl-C. On Unix the open is non-blocking and never makes a terminal
// the controlling one; what was opened is checked with fstat, so there is
// no window between the check and the use.
//
// With followLinks false a symbolic link at name is refused too (the caller
// scanned a regular file there; a link swapped in since is not followed).
func OpenRegular(name string, followLinks bool) (*os.File, error) {
	return openRegular(name, followLinks)
}

// notRegular is the error for an opened (or stat'ed) name of type mode.
func notRegular(name string, mode fs.FileMode) error {
	return &os.PathError{Op: "open", Path: name, Err: fmt.Errorf("%w (%s)", ErrNotRegular, KindOf(mode))}
}

// KindOf names a file type the way a user would: "named pipe", "directory".
func KindOf(mode fs.FileMode) string {
	switch t := mode.Type(); {
	case t == 0:
		return "regular file"
	case t&fs.ModeDir != 0:
		return "directory"
	case t&fs.ModeSymlink != 0:
		return "symbolic link"
	case t&fs.ModeNamedPipe != 0:
		return "named pipe"
	case t&fs.ModeSocket != 0:
		return "socket"
	case t&fs.ModeCharDevice != 0:
		return "character device"
	case t&fs.ModeDevice != 0:
		return "block device"
	default:
		return "special file"
	}
}
