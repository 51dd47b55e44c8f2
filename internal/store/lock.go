package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// ErrLocked means another shoebox run (or another Lock in this process)
// holds the library's lock.
var ErrLocked = errors.New("locked by another shoebox run")

// Lock takes an exclusive lock on dir/lock (flock on Unix, LockFileEx on
// Windows), creating dir if needed, and records this process's pid in the
// file for the error a second run gets. Both locks belong to the open file,
// so a second Lock in the same process fails just like one from another
// process. The lock dies with the process, so a crash never leaves a stale
// lock behind.
func Lock(dir string) (unlock func() error, err error) {
	path := filepath.Join(dir, "lock")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("lock %s: %w", quote.Path(path), fsx.Bare(err))
	}
	if err := requireRealFolder(dir); err != nil {
		return nil, err
	}
	// A link planted at the lock's name is never followed to the file it
	// names, which writing the pid would truncate.
	f, err := openNoFollow(path)
	if errors.Is(err, errIsLink) {
		return nil, fmt.Errorf("lock %s is a symbolic link: %w; remove it", quote.Path(path), ErrNotOurs)
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", quote.Path(path), fsx.Bare(err))
	}
	if fi, err := f.Stat(); err != nil || checkLockFile(fi, path) != nil {
		f.Close()
		if err == nil {
			err = checkLockFile(fi, path)
		}
		return nil, err
	}
	if err := tryLock(f); err != nil {
		holder := readHolder(f)
		f.Close()
		if errors.Is(err, errHeld) {
			return nil, fmt.Errorf("lock %s: %w (held by %s)", quote.Path(path), ErrLocked, holder)
		}
		return nil, fmt.Errorf("lock %s: %w", quote.Path(path), fsx.Bare(err))
	}
	if err := writeHolder(f); err != nil {
		f.Close() // closing releases the flock
		return nil, fmt.Errorf("lock %s: %w", quote.Path(path), fsx.Bare(err))
	}
	var once sync.Once
	var unlockErr error
	return func() error {
		once.Do(func() { unlockErr = release(f, path) })
		return unlockErr
	}, nil
}

func writeHolder(f *os.File) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return err
}

// readHolder names the pid recorded by the holder; the holder may not have
// written it yet, hence the fallback.
func readHolder(f *os.File) string {
	buf := make([]byte, 32)
	n, _ := f.ReadAt(buf, 0)
	pid, err := strconv.Atoi(string(bytes.TrimSpace(buf[:n])))
	if err != nil || pid <= 0 {
		return "a process whose pid is not yet recorded"
	}
	return "pid " + strconv.Itoa(pid)
}

// release clears the pid (so a stale number never misleads) and unlocks.
// The file itself stays: removing it would let two runs lock different inodes.
func release(f *os.File, path string) error {
	truncErr := f.Truncate(0)
	unlockErr := unlockFile(f)
	closeErr := f.Close()
	if err := errors.Join(truncErr, unlockErr, closeErr); err != nil {
		return fmt.Errorf("unlock %s: %w", quote.Path(path), err)
	}
	return nil
}
