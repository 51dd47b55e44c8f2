package relayout

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/shoebox-photos/shoebox/internal/config"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/recovery"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// The backup folder mirrors the library (a sort with --backup puts each
// second copy at the library copy's path below it), so when the library's
// files move, their backup copies move the same way: each one a
// no-replace rename within the backup folder, through an executor held to
// the folder as opened at the start (a drive that goes away is never
// written in its empty mount point), journaled in the relayout's run so
// that undo moves them back too. Backup moves follow library moves that
// are durable, and come before the history follows both: a kill in
// between leaves backup copies at their old places, which the next
// relayout moves on from the killed run's journal (resumeBackup).

// ErrBackupAway: the library's backup folder is not there.
var ErrBackupAway = pipeline.ErrBackupAway

// backupFolder returns the absolute backup folder whose copies move with
// the library's files: --backup, else the one the library records; ""
// for none. It must be this library's backup, and there.
func backupFolder(lib string, opt Options) (string, error) {
	given := opt.Backup
	if given == "" {
		s, _, err := config.ReadFile(config.LibraryPath(lib))
		if err != nil {
			return "", err
		}
		if s.Backup == nil {
			return "", nil
		}
		given = *s.Backup
	}
	abs, err := filepath.Abs(given)
	if err != nil {
		return "", fmt.Errorf("backup folder %s: %w", quote.Path(given), err)
	}
	if err := pipeline.CheckBackupOf(lib, abs); err != nil {
		if errors.Is(err, ErrBackupAway) {
			return "", fmt.Errorf("%w; relayout moves the backup copies with the library's files, so the backup must be connected", err)
		}
		return "", err
	}
	return abs, nil
}

// backupMover moves backup copies after their library files.
type backupMover struct {
	dir  string
	root *fsx.Root
	x    *transfer.Executor
	opt  Options
	st   *Stats
}

// openBackup opens the backup folder and an executor held to it that
// journals into w.
func openBackup(dir string, w *journal.Writer, opt Options, st *Stats) (*backupMover, error) {
	root, err := fsx.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open the backup folder %s: %w", quote.Path(dir), fsx.Bare(err))
	}
	x := transfer.New(transfer.Options{FS: opt.FS, Journal: w, Backup: dir, BackupRoot: root})
	return &backupMover{dir: dir, root: root, x: x, opt: opt, st: st}, nil
}

func (b *backupMover) close() error { return b.root.Close() }

// follow moves the backup copy of each library file moved from pair[0]
// to pair[1] (relative, slash separated), then makes the moves durable. A
// copy that is not at its old place, or whose new place is taken, is
// reported and left; a drive that goes away or fails stops it with a
// *transfer.DriveGoneError. The moves are not cancelled by ctx: once the
// library files moved, their copies follow.
func (b *backupMover) follow(ctx context.Context, pairs [][2]string) error {
	ctx = context.WithoutCancel(ctx)
	for _, p := range pairs {
		if g := b.x.Gone(); g != nil {
			return g
		}
		if err := b.move1(ctx, p[0], p[1]); err != nil {
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

func (b *backupMover) move1(ctx context.Context, from, to string) error {
	src := filepath.Join(b.dir, filepath.FromSlash(from))
	fi, err := os.Lstat(src)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		b.st.BackupMissing++
		b.left(from, "its backup copy is not in the backup folder: nothing to move there")
		return nil
	case err != nil:
		if g := b.x.DriveFault(err); g != nil {
			return g
		}
		b.st.BackupFailed++
		b.left(from, fmt.Sprintf("its backup copy was not moved: %v", fsx.Bare(err)))
		return nil
	case !fi.Mode().IsRegular():
		b.st.BackupFailed++
		b.left(from, fmt.Sprintf("its backup copy is not a regular file (%v): left where it is", fi.Mode().Type()))
		return nil
	}
	dst := filepath.Join(b.dir, filepath.FromSlash(to))
	res := b.x.Do(ctx, transfer.Op{Mode: transfer.Move, Src: src, Dst: dst, Size: fi.Size(), ModTime: fi.ModTime()})
	if res.Landed {
		b.st.BackupMoved++
		return nil
	}
	if g := b.x.DriveFault(res.Err); g != nil {
		return g
	}
	b.st.BackupFailed++
	b.left(from, fmt.Sprintf("its backup copy was not moved to %s: %v", to, res.Err))
	return nil
}

func (b *backupMover) left(path, reason string) {
	if b.opt.BackupLeft != nil {
		b.opt.BackupLeft(Left{Path: path, Reason: reason})
	}
}

// predict counts, for a dry run, the backup copies the moves would take
// along and those not there.
func predictBackup(dir string, moves []Move, opt Options, st *Stats) {
	b := &backupMover{dir: dir, opt: opt, st: st}
	for _, m := range moves {
		fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(m.From)))
		switch {
		case err != nil:
			st.BackupMissing++
			b.left(m.From, "its backup copy is not in the backup folder: nothing to move there")
		case !fi.Mode().IsRegular():
			st.BackupFailed++
			b.left(m.From, fmt.Sprintf("its backup copy is not a regular file (%v): it would be left where it is", fi.Mode().Type()))
		default:
			st.BackupMoved++
		}
	}
}

// resumeBackup moves the backup copies that relayout runs which did not
// finish (killed, or stopped by the backup drive) left at their old
// places after library files they had moved: one whose old place holds
// it and whose new place holds nothing. Those moves are journaled as a
// recovery of the run that moved the library files, so undo of that run
// moves them back with its files. It can run any number of times.
func resumeBackup(ctx context.Context, lib, dir string, opt Options, st *Stats) error {
	runs, err := recovery.MovesWithinByRun(lib, recovery.IsRelayout)
	if err != nil {
		return err
	}
	for _, rm := range runs {
		pending := stillToFollow(dir, rm.Pairs)
		if len(pending) == 0 {
			continue
		}
		if err := resumeRun(ctx, lib, dir, rm.Run, pending, opt, st); err != nil {
			return err
		}
	}
	return nil
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

func resumeRun(ctx context.Context, lib, dir, run string, pairs [][2]string, opt Options, st *Stats) error {
	now := time.Now()
	w, err := journal.Create(recovery.JournalDir(lib), journal.Header{RunID: journal.NewRunID(now), Started: now, Dest: lib,
		Args: []string{recovery.KindRecover, run}})
	if err != nil {
		return err
	}
	b, err := openBackup(dir, w, opt, st)
	if err != nil {
		return errors.Join(err, w.CloseUnfinished())
	}
	before := st.BackupMoved
	err = b.follow(ctx, pairs)
	st.BackupResumed += st.BackupMoved - before
	st.BackupMoved = before
	if err != nil {
		return errors.Join(err, w.CloseUnfinished(), b.close())
	}
	return errors.Join(w.Close(), b.close())
}
