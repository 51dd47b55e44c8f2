package undo

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/config"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/recovery"
	"github.com/shoebox-photos/shoebox/internal/store"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// Options configure Last and Named.
type Options struct {
	DryRun bool
	FS     fsx.FS       // nil means fsx.OS
	Events func(string) // one line per file reverted or kept, and per folder; may be nil
	Report func(Event)  // the same, as data (for --json); may be nil

	root *fsx.Root // the library, opened once for the whole undo
}

// Event is one thing an undo did or would do, or refused.
type Event struct {
	Outcome string `json:"outcome"`          // run, reverted, already, kept, failed, unreachable, folder-removed, folder-kept
	Action  string `json:"action,omitempty"` // remove, move-back, restore (a removed duplicate), remove-folder
	Run     string `json:"run"`              // the id of the run being undone
	Path    string `json:"path,omitempty"`   // the path in the library (for restore: the kept copy it is restored from)
	To      string `json:"to,omitempty"`     // move-back and restore: where the file goes back to
	Reason  string `json:"reason,omitempty"` // kept, failed: why
	Text    string `json:"-"`                // the line for people
}

// Stats counts what Last did (or, in a dry run, would do).
type Stats struct {
	Runs        []string // ids of the runs reversed, newest first
	Reverted    int      // files removed from the library or moved back
	Already     int      // files an earlier, interrupted undo had reverted
	Kept        int      // files left in place because shoebox could not prove them its own
	Failed      int      // files an error stopped; run undo again
	DirsRemoved int      // empty folders shoebox had created, removed
	DirsKept    int      // folders shoebox created that are not empty
	Unreachable int      // backup copies whose folder is not there (a drive unplugged?); run undo again
	// Unfinished is the run just before those reversed when it stopped
	// before its end (Ctrl-C, an error, a kill), is not undone, and was
	// resumed by another command than theirs, so it is not part of their
	// job: the next undo reverses it. Empty otherwise.
	Unfinished     string
	UnfinishedArgs []string
	Recovery       recovery.Stats
	DryRun         bool
}

var (
	// ErrNoJournal: the library has no run recorded.
	ErrNoJournal = errors.New("no runs are recorded here: nothing to undo")
	// ErrNothingToUndo: every recorded run is undone already.
	ErrNothingToUndo = errors.New("nothing to undo: every run that changed files here is undone already")
	// ErrUnknownRun: Named was given an id no sort run here has, nor
	// begins with.
	ErrUnknownRun = errors.New("no such run")
	// ErrAmbiguousRun: Named was given the beginning of several runs' ids.
	ErrAmbiguousRun = errors.New("ambiguous run id")
	// ErrAlreadyUndone: Named was given a run that is undone already.
	ErrAlreadyUndone = errors.New("this run is undone already")
	// ErrLaterRunDepends: Named was given an older run that a later run,
	// not undone, built on; see independent.
	ErrLaterRunDepends = errors.New("a later run that is not undone touched its files")
)

// flushEvery bounds how many reversals share one round of fsyncs.
const flushEvery = 256

// Last reverses the newest run into dest that is not undone yet (with the
// interrupted runs of the same command just before it: one job). It holds
// the library lock throughout, first finishes what killed runs left half
// done, and writes an undo journal per run reversed, so a killed undo is
// completed by running it again.
func Last(ctx context.Context, dest string, opt Options) (Stats, error) {
	return undoRun(ctx, dest, "", opt)
}

// Named reverses the run with id runID (as shoebox log lists it), with the
// interrupted runs it finished, as Last would if it were the newest. An
// older run is reversed only when no later run that is not undone touched
// its paths (see independent); otherwise nothing is done and the error
// wraps ErrLaterRunDepends, naming the later run and the path.
func Named(ctx context.Context, dest, runID string, opt Options) (Stats, error) {
	return undoRun(ctx, dest, runID, opt)
}

func undoRun(ctx context.Context, dest, runID string, opt Options) (Stats, error) {
	st := Stats{DryRun: opt.DryRun}
	if opt.FS == nil {
		opt.FS = fsx.OS
	}
	typed := dest
	dest, err := filepath.Abs(dest)
	if err != nil {
		return st, fmt.Errorf("undo %s: %w", quote.Path(dest), err)
	}
	dir := recovery.JournalDir(dest)
	if ok, err := hasJournals(dir); err != nil || !ok {
		return st, errors.Join(err, fmt.Errorf("undo in %s: %w (no journal in %s)", quote.Path(dest), ErrNoJournal, quote.Path(dir)))
	}
	unlock, err := store.Lock(filepath.Dir(dir))
	if err != nil {
		return st, fmt.Errorf("undo in %s: %w", quote.Path(dest), err)
	}
	defer unlock()
	// The library is reached through its open folder, as a sort reaches
	// it (fsx.Root): once its drive is unmounted, its path leads to the
	// empty mount point, where every copy would look "already removed"
	// and the undo would close as finished with the copies still on the
	// drive. Between files, a library gone away stops the undo instead.
	root, err := fsx.OpenRoot(dest)
	if err != nil {
		return st, fmt.Errorf("undo in %s: %w", quote.Path(dest), fsx.Bare(err))
	}
	defer root.Close()
	opt.FS = fsx.Pin(opt.FS, root)
	opt.root = root
	return undoLocked(ctx, dest, typed, runID, opt, st)
}

// unknownRunError names the run id that no run here has, and where the
// ids are listed, with the library as the user typed it.
type unknownRunError struct{ id, dest string }

func (e unknownRunError) Error() string {
	return fmt.Sprintf("no run %s in %s; shoebox log %s lists them", e.id, quote.Path(e.dest), quote.Path(e.dest))
}

func (e unknownRunError) Unwrap() error { return ErrUnknownRun }

func undoLocked(ctx context.Context, dest, typed, runID string, opt Options, st Stats) (Stats, error) {
	rec, found, err := recovery.All(ctx, dest, opt.FS, opt.DryRun)
	st.Recovery = rec
	if err != nil {
		return st, err
	}
	h, err := loadHistory(recovery.JournalDir(dest))
	if err != nil {
		return st, err
	}
	if err := h.trustworthy(); err != nil {
		return st, fmt.Errorf("undo in %s: %w", quote.Path(dest), err)
	}
	job := h.job(found)
	if runID != "" {
		id, err := h.resolve(runID)
		switch {
		case err == ErrUnknownRun:
			return st, unknownRunError{id: runID, dest: typed}
		case err != nil:
			return st, fmt.Errorf("undo in %s: %w", quote.Path(dest), err)
		}
		if job, err = h.named(id, found); err != nil {
			return st, fmt.Errorf("undo in %s: %w", quote.Path(dest), err)
		}
	}
	if len(job) == 0 {
		return st, fmt.Errorf("undo in %s: %w", quote.Path(dest), ErrNothingToUndo)
	}
	if prev, ok := h.unfinishedBefore(job[len(job)-1]); ok {
		st.Unfinished, st.UnfinishedArgs = prev.Header.RunID, prev.Header.Args
	}
	for _, run := range job {
		u := &undoer{ctx: ctx, dest: dest, opt: opt, st: &st, run: run}
		if err := u.undo(h, found[run.Header.RunID]); err != nil {
			return st, err
		}
	}
	return st, nil
}

// undoer reverses one run.
type undoer struct {
	ctx  context.Context
	dest string
	opt  Options
	st   *Stats
	run  journal.Summary

	w      *journal.Writer
	exec   *transfer.Executor
	failed int

	removedBefore []uint64        // see history.revertedBefore
	unreachable   int             // of failed: backup copies out of reach
	keptSources   map[string]bool // sources whose library copy was left in place (backupOfKept)
}

func (u *undoer) undo(h *history, extra []journal.Entry) error {
	id := u.run.Header.RunID
	dir, err := spillDir(u.dest, u.opt.DryRun)
	if err != nil {
		return fmt.Errorf("undo run %s: %w", id, err)
	}
	if u.removedBefore, err = h.revertedBefore(id); err != nil {
		return fmt.Errorf("undo run %s: %w", id, err)
	}
	sp, err := spillReversible(h, u.run, extra, u.dest, dir)
	if err != nil {
		return fmt.Errorf("undo run %s: %w", id, err)
	}
	if err := u.open(); err != nil {
		return sp.discard(err)
	}
	u.st.Runs = append(u.st.Runs, id)
	u.forgetImports(sp)
	u.report(Event{Outcome: "run", Reason: fmt.Sprintf("shoebox %s", strings.Join(u.run.Header.Args, " "))},
		"run %s (shoebox %s), %d operations to reverse", id, strings.Join(u.run.Header.Args, " "), sp.n)
	rev := u.exec.Reverser()
	done := 0
	err = sp.each(func(e journal.Entry) error {
		if err := u.libraryGone(); err != nil {
			return err
		}
		res, out := u.backupOfKept(e)
		if !out {
			res, out = u.outOfReach(e)
		}
		if !out {
			res = rev.Reverse(u.ctx, e)
		}
		if err := u.account(res); err != nil {
			return err
		}
		if done++; done%flushEvery == 0 {
			if err := u.exec.Flush(); err != nil {
				return fmt.Errorf("undo run %s: %w", id, err)
			}
		}
		return nil
	})
	if err = sp.discard(err); err != nil {
		aerr := u.abandon()
		if errors.Is(err, fsx.ErrGone) {
			// The library drive that stopped the undo fails its flush
			// too: the one message above says so, and undo again finishes.
			aerr = nil
		}
		return errors.Join(err, aerr)
	}
	return u.finish()
}

// libraryGone is the undo's stop, between files, once the library's
// drive went away: the rest stays for the next undo, as after a kill.
func (u *undoer) libraryGone() error {
	if u.opt.root == nil {
		return nil
	}
	err := u.opt.root.Present()
	var gone *fsx.GoneError
	if !errors.As(err, &gone) {
		return nil
	}
	happened, then := "went away", "connect it"
	if gone.Cause != nil {
		// Still there, but its root folder answers with an error (EIO).
		happened, then = fmt.Sprintf("fails (%v)", gone.Cause), "check it and its cable"
	}
	return fmt.Errorf("undo of run %s is incomplete: the library drive at %s %s after %d files were reverted; %s and run shoebox undo again to finish: %w",
		u.run.Header.RunID, quote.Path(gone.Mount), happened, u.st.Reverted, then, fsx.ErrGone)
}

func (u *undoer) open() error {
	exec, w, err := recovery.JournaledExecutor(u.opt.FS, u.opt.DryRun, u.dest, recovery.KindUndo, u.run.Header.RunID)
	if err != nil {
		return fmt.Errorf("undo run %s: %w", u.run.Header.RunID, err)
	}
	u.exec, u.w = exec, w
	return nil
}

// finish makes the reversals durable and closes the undo journal, which
// marks the run undone, unless some file failed: then the journal stays
// open so that the next undo retries the same run.
func (u *undoer) finish() error {
	if u.unreachable > 0 {
		what := fmt.Sprintf("%d backup copies could not be reached (listed above)", u.st.Unreachable)
		if u.st.Unreachable == 0 {
			what = "folders it made in the backup folder could not be reached"
		}
		err := fmt.Errorf("undo of run %s is incomplete: %s; connect the backup drive (or put the backup folder back) and run shoebox undo again to finish it", u.run.Header.RunID, what)
		if n := u.failed - u.unreachable; n > 0 {
			err = fmt.Errorf("%w; %d other files could not be reverted", err, n)
		}
		return errors.Join(err, u.abandon())
	}
	if u.failed > 0 {
		err := fmt.Errorf("undo of run %s is incomplete: %d files could not be reverted (see above); run shoebox undo again", u.run.Header.RunID, u.failed)
		return errors.Join(err, u.abandon())
	}
	err := u.exec.Flush()
	if recovery.IsRelayout(u.run) && !u.opt.DryRun {
		err = errors.Join(err, u.restoreTemplate())
	}
	if u.w != nil {
		err = errors.Join(err, u.w.Close())
	}
	if err != nil {
		return fmt.Errorf("undo run %s: %w", u.run.Header.RunID, err)
	}
	return nil
}

// abandon keeps what was done durable and closes the undo journal without
// its closed marker, so the run still counts as not undone.
func (u *undoer) abandon() error {
	err := u.exec.Flush()
	if u.w != nil {
		err = errors.Join(err, u.w.CloseUnfinished())
	}
	return err
}

// account counts one reversal and reports it; only a cancelled context is
// returned, every per-file problem is counted and the undo goes on.
func (u *undoer) account(res transfer.Reversal) error {
	e := res.Entry
	dir := e.Action == journal.Mkdir
	switch {
	case errors.Is(res.Err, context.Canceled) || errors.Is(res.Err, context.DeadlineExceeded):
		return res.Err
	case errors.Is(res.Err, transfer.ErrLeftInPlace) && dir:
		u.st.DirsKept++
		u.report(Event{Outcome: "folder-kept", Path: e.Dst, Reason: res.Err.Error()}, "kept folder %v", res.Err)
	case errors.Is(res.Err, transfer.ErrLeftInPlace) && e.Action == journal.RemoveDuplicate:
		u.st.Kept++
		u.report(Event{Outcome: "kept", Action: "restore", Path: e.Dst, To: e.Src, Reason: res.Err.Error()}, "not restored: %v", res.Err)
	case errors.Is(res.Err, transfer.ErrLeftInPlace):
		u.noteKept(e)
		u.st.Kept++
		u.report(Event{Outcome: "kept", Path: e.Dst, Reason: res.Err.Error()}, "kept %v", res.Err)
	case errors.Is(res.Err, ErrUnreachable) && dir:
		// Not listed: its copies are, and the undo stays unfinished.
		u.unreachable++
		u.failed++
		u.report(Event{Outcome: "unreachable", Path: e.Dst, Reason: res.Err.Error()}, "")
	case errors.Is(res.Err, ErrUnreachable):
		u.st.Unreachable++
		u.unreachable++
		u.failed++
		u.report(Event{Outcome: "unreachable", Path: e.Dst, Reason: res.Err.Error()}, "%v", res.Err)
	case res.Err != nil:
		u.st.Failed++
		u.failed++
		u.report(Event{Outcome: "failed", Path: e.Dst, Reason: res.Err.Error()}, "failed %s: %v", e.Dst, res.Err)
	case res.Already && dir:
	case res.Already:
		u.st.Already++
		u.report(Event{Outcome: "already", Path: e.Dst}, "")
	case dir:
		u.st.DirsRemoved++
		u.report(Event{Outcome: "folder-removed", Action: "remove-folder", Path: e.Dst}, "%s folder %s", u.verb("removed", "remove"), e.Dst)
	case e.Action == journal.RemoveDuplicate:
		u.st.Reverted++
		u.report(Event{Outcome: "reverted", Action: "restore", Path: e.Dst, To: e.Src},
			"%s duplicate %s (a copy of %s)", u.verb("restored", "restore"), e.Src, e.Dst)
	case e.Action == journal.Move && !u.sourceWasKept(res):
		u.st.Reverted++
		u.report(Event{Outcome: "reverted", Action: "move-back", Path: e.Dst, To: e.Src},
			"%s %s -> %s", u.verb("moved back", "move back"), e.Dst, e.Src)
	default:
		u.st.Reverted++
		u.report(Event{Outcome: "reverted", Action: "remove", Path: e.Dst}, "%s %s", u.verb("removed", "remove"), e.Dst)
	}
	return nil
}

// sourceWasKept tells a move reversed by removing the library copy (its
// source had never been removed) from one moved back.
func (u *undoer) sourceWasKept(res transfer.Reversal) bool {
	return len(res.Actions) == 1 && res.Actions[0] == "remove "+res.Entry.Dst
}

func (u *undoer) verb(done, planned string) string {
	if u.opt.DryRun {
		return "would " + planned
	}
	return done
}

// report hands one event to both listeners; an empty format means no
// line for people (a file an earlier undo had reverted).
func (u *undoer) report(ev Event, format string, args ...any) {
	ev.Run = u.run.Header.RunID
	if format != "" {
		ev.Text = fmt.Sprintf(format, args...)
		if u.opt.Events != nil {
			u.opt.Events(ev.Text)
		}
	}
	if u.opt.Report != nil {
		u.opt.Report(ev)
	}
}

// restoreTemplate records again the template a relayout being undone
// replaced (its journal's --from), once every file is back in its old
// place: sorts after the undo then file into the old layout again.
func (u *undoer) restoreTemplate() error {
	args := u.run.Header.Args
	for i := 1; i+1 < len(args); i++ {
		if args[i] != "--from" {
			continue
		}
		path := config.LibraryPath(u.dest)
		s, _, err := config.ReadFile(path)
		if err != nil {
			return err
		}
		from := args[i+1]
		s.Template = &from
		return config.SaveLibrary(u.dest, s)
	}
	return nil
}

// noteKept remembers the source of a library copy left in place.
func (u *undoer) noteKept(e journal.Entry) {
	if e.Src == "" || !recovery.IsTransfer(e.Action) || !inside(u.dest, e.Dst) {
		return
	}
	if u.keptSources == nil {
		u.keptSources = map[string]bool{}
	}
	u.keptSources[e.Src] = true
}

// backupOfKept leaves the backup copy of a file whose library copy this
// undo left in place (changed since, or replaced): removing it would
// leave the library holding a file the backup no longer does. Library
// files are reversed before backup copies (spillKey), so the library
// copy's fate is known when its backup copy comes.
func (u *undoer) backupOfKept(e journal.Entry) (transfer.Reversal, bool) {
	if !u.keptSources[e.Src] || !recovery.IsTransfer(e.Action) || inside(u.dest, e.Dst) {
		return transfer.Reversal{}, false
	}
	err := fmt.Errorf("the backup copy %s of %s stays with its library copy: %w", quote.Path(e.Dst), quote.Path(e.Src), transfer.ErrLeftInPlace)
	return transfer.Reversal{Entry: e, Err: err}, true
}
