//go:build unix

package fsx

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// CanRemoveFrom reports why files in folder dir cannot be removed (a move
// would fail on every one of them), or nil: the caller lacks write and
// search permission on it, or it is on a read-only mount (a card with its
// lock switch on). A subfolder may still refuse; that is found per file.
func CanRemoveFrom(dir string) error {
	if err := unix.Access(dir, unix.W_OK|unix.X_OK); err != nil {
		return &fs.PathError{Op: "remove files from", Path: dir, Err: err}
	}
	return nil
}
