package relayout

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/shoebox-photos/shoebox/internal/config"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/recovery"
)

// The backup copies follow the library's files (recovery.BackupFollower):
// backup moves follow library moves that are durable, and come before the
// history follows both, so a kill in between leaves backup copies at
// their old places, which the next relayout (or sort with the backup)
// moves on from the killed run's journal (resumeBackup).

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

// predict counts, for a dry run, the backup copies the moves would take
// along and those not there.
func predictBackup(dir string, moves []Move, opt Options, st *Stats) {
	left := backupLeft(opt)
	if left == nil {
		left = func(string, string) {}
	}
	for _, m := range moves {
		fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(m.From)))
		switch {
		case err != nil:
			st.BackupMissing++
			left(m.From, "its backup copy is not in the backup folder: nothing to move there")
		case !fi.Mode().IsRegular():
			st.BackupFailed++
			left(m.From, fmt.Sprintf("its backup copy is not a regular file (%v): it would be left where it is", fi.Mode().Type()))
		default:
			st.BackupMoved++
		}
	}
}

// resumeBackup moves the backup copies that relayout runs which did not
// finish (killed, or stopped by the backup drive) left at their old
// places (recovery.FollowInterruptedBackups).
func resumeBackup(ctx context.Context, lib, dir string, opt Options, st *Stats) error {
	n, err := recovery.FollowInterruptedBackups(ctx, lib, dir, opt.FS, recovery.IsRelayout, backupLeft(opt))
	st.BackupResumed += n
	return err
}

// backupLeft adapts opt.BackupLeft to the follower's callback.
func backupLeft(opt Options) func(path, reason string) {
	if opt.BackupLeft == nil {
		return nil
	}
	return func(path, reason string) { opt.BackupLeft(Left{Path: path, Reason: reason}) }
}
