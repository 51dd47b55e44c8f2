package recovery

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// A backup folder mirrors its library (a sort with --backup puts each
// second copy at the library copy's path below it), so when library files
// move within the library (relayout), their backup copies move the same
// way: each a no-replace rename within the backup folder, through an
// executor held to the folder as opened at the start (a drive that goes
// away is never written in its empty mount point), journaled with the
// library's moves so that undo moves them back too.

// BackupFollower moves backup copies after their library files.
type BackupFollower struct {
	dir  string
	root *fsx.Root
	x    *transfer.Executor
	left func(path, reason string)

	Moved   int // backup copies moved
	Missing int // files with no backup copy at their old place
	Failed  int // backup copies not moved (their new place taken, not a file)
}

// OpenBackupFollower opens the backup folder dir and an executor held to
// it that journals into w. left, which may be nil, is told of each copy
// not moved, and why.
func OpenBackupFollower(dir string, fsys fsx.FS, w *journal.Writer, left func(path, reason string)) (*BackupFollower, error) {
	root, err := fsx.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open the backup folder %s: %w", quote.Path(dir), fsx.Bare(err))
	}
	x := transfer.New(transfer.Options{FS: fsys, Journal: w, Backup: dir, BackupRoot: root})
	return &BackupFollower{dir: dir, root: root, x: x, left: left}, nil
}

// Close releases the backup folder.
func (b *BackupFollower) Close() error { return b.root.Close() }

// Follow moves the backup copy of each library file moved from pair[0]
// to pair[1] (relative, slash separated), then makes the moves durable. A
// copy that is not at its old place, or whose new place is taken, is
// reported and left; a drive that goes away or fails stops it with a
// *transfer.DriveGoneError. The moves are not cancelled by ctx: once the
// library files moved, their copies follow.
func (b *BackupFollower) Follow(ctx context.Context, pairs [][2]string) error {
	ctx = context.WithoutCancel(ctx)
	for _, p := range pairs {
		if g := b.x.Gone(); g != nil {
			return g
		}
		if err := b.move(ctx, p[0], p[1]); err != nil {
			return err
		}
	}
	if err := b.x.Flush(); err != nil {
		if g := b.x.DriveFault(err); g != nil {
			return g
		}
		return fmt.Errorf("make the backup copies' moves durable: %w", err)
	}
	return nil
}

func (b *BackupFollower) move(ctx context.Context, from, to string) error {
	src := filepath.Join(b.dir, filepath.FromSlash(from))
	fi, err := os.Lstat(src)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		b.Missing++
		b.note(from, "its backup copy is not in the backup folder: nothing to move there")
		return nil
	case err != nil:
		if g := b.x.DriveFault(err); g != nil {
			return g
		}
		b.Failed++
		b.note(from, fmt.Sprintf("its backup copy was not moved: %v", fsx.Bare(err)))
		return nil
	case !fi.Mode().IsRegular():
		b.Failed++
		b.note(from, fmt.Sprintf("its backup copy is not a regular file (%v): left where it is", fi.Mode().Type()))
		return nil
	}
	dst := filepath.Join(b.dir, filepath.FromSlash(to))
	res := b.x.Do(ctx, transfer.Op{Mode: transfer.Move, Src: src, Dst: dst, Size: fi.Size(), ModTime: fi.ModTime()})
	if res.Landed {
		b.Moved++
		return nil
	}
	if g := b.x.DriveFault(res.Err); g != nil {
		return g
	}
	b.Failed++
	b.note(from, fmt.Sprintf("its backup copy was not moved to %s: %v", to, res.Err))
	return nil
}

func (b *BackupFollower) note(path, reason string) {
	if b.left != nil {
		b.left(path, reason)
	}
}

// FollowInterruptedBackups moves the backup copies that runs chosen by of
// which did not finish (killed, or stopped by the backup drive) left at
// their old places after library files they had moved within the library
// dest: a copy whose old place holds it and whose new place holds
// nothing. Those moves are journaled as a recovery of the run that moved
// the library files, so undo of that run moves them back with its files.
// It returns how many copies it moved, and can run any number of times.
func FollowInterruptedBackups(ctx context.Context, dest, dir string, fsys fsx.FS, of func(journal.Summary) bool, left func(path, reason string)) (int, error) {
	runs, err := MovesWithinByRun(dest, of)
	if err != nil {
		return 0, err
	}
	moved := 0
	for _, rm := range runs {
		pending := stillToFollow(dir, rm.Pairs)
		if len(pending) == 0 {
			continue
		}
		n, err := followRun(ctx, dest, dir, fsys, rm.Run, pending, left)
		moved += n
		if err != nil {
			return moved, err
		}
	}
	return moved, nil
}

// stillToFollow keeps the pairs whose backup copy is at its old place
// and whose new place is free.
func stillToFollow(dir string, pairs [][2]string) [][2]string {
	var out [][2]string
	for _, p := range pairs {
		_, errOld := os.Lstat(filepath.Join(dir, filepath.FromSlash(p[0])))
		_, errNew := os.Lstat(filepath.Join(dir, filepath.FromSlash(p[1])))
		if errOld == nil && errors.Is(errNew, fs.ErrNotExist) {
			out = append(out, p)
		}
	}
	return out
}

func followRun(ctx context.Context, dest, dir string, fsys fsx.FS, run string, pairs [][2]string, left func(path, reason string)) (int, error) {
	now := time.Now()
	w, err := journal.Create(JournalDir(dest), journal.Header{RunID: journal.NewRunID(now), Started: now, Dest: dest,
		Args: []string{KindRecover, run}})
	if err != nil {
		return 0, err
	}
	b, err := OpenBackupFollower(dir, fsys, w, left)
	if err != nil {
		return 0, errors.Join(err, w.CloseUnfinished())
	}
	if err := b.Follow(ctx, pairs); err != nil {
		return b.Moved, errors.Join(err, w.CloseUnfinished(), b.Close())
	}
	return b.Moved, errors.Join(w.Close(), b.Close())
}
