package undo

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// ErrUnreachable marks a --backup copy (or a folder made for one) that
// undo cannot reach: neither it nor the folder it is in is there, and no
// earlier undo of the run removed it. That is what a backup drive that is
// unplugged (its mount point an empty folder) or a backup folder renamed
// away looks like; calling such a copy "already reverted" would close the
// undo and leave the copies on the drive for ever. So it counts as not
// reverted: the undo stays unfinished, and undo again, once the drive is
// back, removes them.
var ErrUnreachable = errors.New("could not reach")

// revertedBefore is every path an earlier, unfinished undo of run removed
// or was about to remove (Intent or Undone), as sorted path keys: a file
// gone from there was taken by shoebox, not by an unplugged drive.
func (h *history) revertedBefore(run string) ([]uint64, error) {
	var keys []uint64
	for _, u := range h.Undos {
		if u.Closed || !slices.Contains(u.Header.Args[1:], run) {
			continue
		}
		_, err := journal.Read(u.Path, func(e journal.Entry) error {
			if e.State == journal.Intent || e.State == journal.Undone {
				keys = append(keys, pathKey(e.Dst))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	slices.Sort(keys)
	return keys, nil
}

// outOfReach reports whether e is a backup copy or backup folder that
// cannot be reached (see ErrUnreachable), as a Reversal that failed.
func (u *undoer) outOfReach(e journal.Entry) (transfer.Reversal, bool) {
	if e.Dst == "" || inside(u.dest, e.Dst) {
		return transfer.Reversal{}, false
	}
	what := "backup copy"
	if e.Action == journal.Mkdir {
		what = "backup folder"
	}
	if _, err := u.opt.FS.Lstat(e.Dst); errors.Is(err, syscall.EIO) {
		// A backup drive that fails is as out of reach as one unplugged:
		// the same unfinished undo, finished by undo again.
		err := fmt.Errorf("%w %s %s: its drive answers with an I/O error (is the backup drive failing? check it and its cable)",
			ErrUnreachable, what, quote.Path(e.Dst))
		return transfer.Reversal{Entry: e, Err: err}, true
	}
	if _, ok := slices.BinarySearch(u.removedBefore, pathKey(e.Dst)); ok {
		return transfer.Reversal{}, false
	}
	folder := filepath.Dir(e.Dst)
	if !u.missing(e.Dst) || !u.missing(folder) {
		return transfer.Reversal{}, false
	}
	err := fmt.Errorf("%w %s %s: neither it nor its folder %s is there (is the backup drive connected?)",
		ErrUnreachable, what, quote.Path(e.Dst), quote.Path(folder))
	return transfer.Reversal{Entry: e, Err: err}, true
}

// missing reports whether nothing is at path (an error other than "not
// there" is left to the reversal, which reports it).
func (u *undoer) missing(path string) bool {
	_, err := u.opt.FS.Lstat(path)
	return errors.Is(err, fs.ErrNotExist)
}

// inside reports whether path lies in the folder dest.
func inside(dest, path string) bool {
	rel, err := filepath.Rel(dest, path)
	return err == nil && filepath.IsLocal(rel)
}
