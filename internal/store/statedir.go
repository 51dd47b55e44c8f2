package store

import (
	"errors"
	"fmt"
	"os"

	"github.com/shoebox-photos/shoebox/internal/quote"
)

// ErrNotOurs means a name shoebox keeps for its own state (the library's
// .shoebox folder, its lock file) holds something shoebox did not make: a
// symbolic link, which would have shoebox write, truncate or remove its
// scratch stores inside the user's files elsewhere, or a file too big to be
// a lock.
var ErrNotOurs = errors.New("not shoebox's own")

// requireRealFolder refuses a state folder that is a symbolic link or not a
// folder: every store and scratch folder below it is removed and rebuilt
// at will, which is only safe in a folder shoebox made.
func requireRealFolder(dir string) error {
	fi, err := os.Lstat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("state folder %s: %w", quote.Path(dir), err)
	case fi.Mode()&(os.ModeSymlink|os.ModeIrregular) != 0: // Irregular: a junction, on Windows
		return fmt.Errorf("state folder %s is a symbolic link or junction: %w; shoebox keeps its state only in a real folder, so that clearing its scratch stores can never reach other files (remove the link)", quote.Path(dir), ErrNotOurs)
	case !fi.IsDir():
		return fmt.Errorf("state folder %s is not a folder: %w; move that file away", quote.Path(dir), ErrNotOurs)
	}
	return nil
}

// requireStoreFolder refuses a store folder that is there but is not a
// real folder: through a symbolic link pebble would write its files in
// the user's folder at the other end, and delete there, as obsolete, any
// file whose name looks like one of its own (000002.log, 000007.sst).
// Nothing there is touched; a folder that is not there yet is made.
func requireStoreFolder(dir string) error {
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("store folder %s: %w", quote.Path(dir), err)
	case fi.Mode()&(os.ModeSymlink|os.ModeIrregular) != 0:
		return fmt.Errorf("store folder %s is a symbolic link or junction: %w; shoebox keeps its stores only in real folders, so that they can never write or remove files elsewhere (remove the link)", quote.Path(dir), ErrNotOurs)
	case !fi.IsDir():
		return fmt.Errorf("store folder %s is not a folder: %w; move that file away", quote.Path(dir), ErrNotOurs)
	}
	return nil
}

// maxLockBytes is more than a pid and a newline ever take: a bigger file
// at the lock's name is someone's data, never truncated.
const maxLockBytes = 64

func checkLockFile(fi os.FileInfo, path string) error {
	if !fi.Mode().IsRegular() || fi.Size() > maxLockBytes {
		return fmt.Errorf("lock %s holds %d bytes, more than a lock ever does: %w; move it away", quote.Path(path), fi.Size(), ErrNotOurs)
	}
	return nil
}
