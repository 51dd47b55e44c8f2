package relayout

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/shoebox-photos/shoebox/internal/config"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/importlog"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/recovery"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// flushEvery bounds how many moves share one round of fsyncs (and how
// many the history learns of at once).
const flushEvery = 256

// Args is the journal's Header.Args of a relayout from one template to
// another: the command, as shoebox log shows it, and what undo needs to
// put the recorded template back (--from). backup is the backup folder
// whose copies moved too ("" for none).
func Args(lib, from, to, backup string) []string {
	args := []string{Kind, "--from", from, "-t", to}
	if backup != "" {
		args = append(args, "--backup", backup)
	}
	return append(args, lib)
}

// FromOf is the template a relayout run's journal says the library had
// before it ("" when the args do not say).
func FromOf(args []string) string {
	for i := 1; i+1 < len(args); i++ {
		if args[i] == "--from" {
			return args[i+1]
		}
	}
	return ""
}

// apply makes the planned moves as one journaled run, has the backup
// copies and the history follow them and, once every file has moved,
// records the new template.
func apply(ctx context.Context, lib string, hist *importlog.Log, p *planned, opt Options, st Stats) (Stats, error) {
	if len(p.moves) == 0 {
		return st, recordTemplate(lib, opt.To.String())
	}
	// The library index is a cache of where files are: stale once they
	// move, so it goes first, and the next sort walks the library anew.
	if err := os.RemoveAll(pipeline.LibraryIndexDir(pipeline.StateDir(lib))); err != nil {
		return st, fmt.Errorf("relayout %s: drop the library index: %w", quote.Path(opt.Library), err)
	}
	now := time.Now()
	st.Run = journal.NewRunID(now)
	w, err := journal.Create(recovery.JournalDir(lib), journal.Header{RunID: st.Run, Started: now, Dest: lib,
		Args: Args(lib, opt.From.String(), opt.To.String(), st.Backup)})
	if err != nil {
		return st, fmt.Errorf("relayout %s: start the run: %w", quote.Path(opt.Library), err)
	}
	f := &follower{x: transfer.New(transfer.Options{FS: opt.FS, Journal: w, Library: lib}), hist: hist}
	if st.Backup != "" {
		if f.b, err = recovery.OpenBackupFollower(st.Backup, opt.FS, w, backupLeft(opt)); err != nil {
			return st, errors.Join(fmt.Errorf("relayout %s: %w", quote.Path(opt.Library), err), w.CloseUnfinished())
		}
		defer f.b.Close()
	}
	stop := ctx.Err()
	for i, m := range p.moves {
		if stop = ctx.Err(); stop != nil {
			break
		}
		res := f.x.Do(ctx, transfer.Op{Mode: transfer.Move, Src: m.f.full, Dst: m.dst, Size: m.f.size, ModTime: m.f.mod})
		if res.Landed {
			st.Moved++
			f.done = append(f.done, [2]string{rel(lib, m.f.full), rel(lib, m.dst)})
		} else {
			st.Failed++
		}
		report(opt, m.move(lib, res.Err))
		if (i+1)%flushEvery == 0 {
			if err = f.follow(ctx); err != nil {
				break
			}
		}
	}
	if err == nil {
		err = f.follow(ctx)
	}
	if f.b != nil {
		st.BackupMoved, st.BackupMissing, st.BackupFailed = f.b.Moved, f.b.Missing, f.b.Failed
	}
	return finish(lib, p, opt, st, w, stop, err)
}

// finish records the template once every file moved, removes the folders
// the moves emptied, and closes the run's journal with its outcome.
func finish(lib string, p *planned, opt Options, st Stats, w *journal.Writer, stop, err error) (Stats, error) {
	if err == nil && stop == nil && st.Failed == 0 {
		err = recordTemplate(lib, opt.To.String())
	}
	if stop == nil && err == nil {
		froms := make([]string, len(p.moves))
		for i, m := range p.moves {
			froms[i] = rel(lib, m.f.full)
		}
		st.DirsRemoved = removeEmptied(lib, froms)
		if st.Backup != "" {
			removeEmptied(st.Backup, froms)
		}
	}
	end := journal.EndComplete
	switch {
	case stop != nil:
		end = journal.EndInterrupted
	case err != nil || st.Failed > 0:
		end = journal.EndStopped
	}
	planned := int64(len(p.moves))
	cerr := w.CloseWith(journal.Outcome{End: end, Planned: planned, Transferred: int64(st.Moved), Failed: int64(st.Failed),
		NotAttempted: planned - int64(st.Moved+st.Failed)})
	var gone *transfer.DriveGoneError
	switch {
	case errors.As(err, &gone):
		return st, errors.Join(fmt.Errorf("relayout %s stopped: %v after %d files moved; each of them is in its new place and recorded there, and their backup copies that had not followed are in their old places: connect the drive and run the same relayout again, which moves them and the rest: %w",
			quote.Path(opt.Library), gone, st.Moved, fsx.ErrGone), cerr)
	case errors.Join(err, cerr) != nil:
		return st, fmt.Errorf("relayout %s: %w", quote.Path(opt.Library), errors.Join(err, cerr))
	case stop != nil:
		return st, stop
	case st.Failed > 0:
		return st, fmt.Errorf("relayout %s: %d files could not be moved (listed above); the library keeps its recorded template until every file has moved: run the same relayout again", quote.Path(opt.Library), st.Failed)
	}
	return st, nil
}

// follower has what the moves so far left to follow them: the backup
// copies and the history.
type follower struct {
	x    *transfer.Executor
	b    *recovery.BackupFollower // nil without a backup
	hist *importlog.Log
	done [][2]string // (old, new) relative paths moved since the last follow
}

// follow makes the moves so far durable, moves their backup copies after
// them, then moves their history entries: a kill in between leaves
// backup copies and entries at the old places, which the next relayout
// moves on from the journal (resumeBackup, resume). A backup drive gone
// stops the run, after the history has followed the library's moves.
func (f *follower) follow(ctx context.Context) error {
	if err := f.x.Flush(); err != nil {
		return err
	}
	pairs := f.done
	f.done = nil
	var berr error
	if f.b != nil {
		berr = f.b.Follow(ctx, pairs)
	}
	_, err := f.hist.Relocate(importlog.Pairs(pairs))
	return errors.Join(berr, err)
}

// recordTemplate records the library's new template, keeping its other
// settings.
func recordTemplate(lib, template string) error {
	s, _, err := config.ReadFile(config.LibraryPath(lib))
	if err != nil {
		return err
	}
	s.Template = &template
	return config.SaveLibrary(lib, s)
}

// removeEmptied removes the folders under root that moves from froms
// (relative, slash separated) emptied: the folders those files were in,
// and their parents up to root, deepest first, each only when it holds
// nothing now (a folder with anything in it, a file the user put there or
// one relayout left, stays; rmdir removes only an empty folder, so
// nothing can be lost). It returns how many it removed.
func removeEmptied(root string, froms []string) int {
	seen := map[string]bool{}
	var dirs []string
	for _, from := range froms {
		for d := filepath.Dir(filepath.Join(root, filepath.FromSlash(from))); d != root && len(d) > len(root) && !seen[d]; d = filepath.Dir(d) {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
	n := 0
	for _, d := range dirs {
		if os.Remove(d) == nil {
			n++
		}
	}
	return n
}
