//go:build unix

package store

import (
	"os"
	"syscall"
)

// errHeld means another open file holds the lock.
var errHeld = syscall.EWOULDBLOCK

// errIsLink is what openNoFollow's open fails with on a symbolic link.
var errIsLink = syscall.ELOOP

// openNoFollow opens (creating) path for reading and writing, refusing a
// symbolic link at the name itself (O_NOFOLLOW).
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
}

// tryLock takes an exclusive flock on f without waiting.
func tryLock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// unlockFile: closing the file releases the flock.
func unlockFile(*os.File) error { return nil }

// openLockIfThere opens an existing lock file for reading only, refusing
// a symbolic link at its name: a probe creates nothing.
func openLockIfThere(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
}
