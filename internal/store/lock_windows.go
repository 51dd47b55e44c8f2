package store

import (
	"os"

	"github.com/shoebox-photos/shoebox/internal/fsx"

	"golang.org/x/sys/windows"
)

// errHeld means another open file holds the lock.
var errHeld = windows.ERROR_LOCK_VIOLATION

// lockOffset is where the locked byte lies: far beyond the pid the file
// holds, because Windows locks are mandatory and a locked pid could not be
// read by the run that is refused.
const lockOffset = 1 << 62

func lockRange() *windows.Overlapped {
	return &windows.Overlapped{Offset: uint32(lockOffset & 0xffffffff), OffsetHigh: uint32(lockOffset >> 32)}
}

// errIsLink is what openNoFollow fails with on a symbolic link or junction.
var errIsLink = fsx.ErrIsLink

// openNoFollow opens (creating) path for reading and writing, refusing a
// symbolic link or junction at the name itself. Windows has no O_NOFOLLOW:
// fsx.OpenNotLink opens the name itself and checks the handle, so nothing
// can be swapped in between.
func openNoFollow(path string) (*os.File, error) {
	return fsx.OpenNotLink(path, os.O_RDWR|os.O_CREATE, 0o644)
}

// tryLock takes an exclusive LockFileEx on one byte of f without waiting.
func tryLock(f *os.File) error {
	return windows.LockFileEx(windows.Handle(f.Fd()),
		windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, lockRange())
}

// unlockFile releases the lock at once: Windows frees the locks of a
// closed handle only eventually.
func unlockFile(f *os.File) error {
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, lockRange())
}

// openLockIfThere opens an existing lock file for reading only, refusing
// a symbolic link or junction at its name: a probe creates nothing.
func openLockIfThere(path string) (*os.File, error) {
	return fsx.OpenNotLink(path, os.O_RDONLY, 0)
}
