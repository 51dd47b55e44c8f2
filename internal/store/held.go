package store

import (
	"errors"
	"path/filepath"
)

// Held reports whether a run or an undo holds the lock of the state folder
// dir now, changing nothing: no lock file, or one that cannot be opened,
// means no holder. Finding the lock free takes it for an instant, so a run
// starting at that very instant is refused as if two had started at once;
// callers probe only when a journal says a run may be going on.
func Held(dir string) bool {
	path := filepath.Join(dir, "lock")
	f, err := openLockIfThere(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || checkLockFile(fi, path) != nil {
		return false
	}
	if err := tryLock(f); err != nil {
		return errors.Is(err, errHeld)
	}
	_ = unlockFile(f)
	return false
}
