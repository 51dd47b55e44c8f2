package check

// check --repair heals what can be healed without guessing: only from a
// copy whose bytes hash to the hash recorded when the file landed.
//
//   - a missing or corrupt library file is restored from its backup copy;
//   - a missing backup copy is written again from the library file;
//   - a changed (edited) file, a corrupt backup copy, and any file with no
//     recorded hash are reported and left as they are.
//
// Every change goes through the transfer executor, as a sort's do (temp
// file, fsync, no-replace rename, verified against its source), and is
// journaled as one run in DEST/.shoebox/journal, which shoebox log lists
// and shoebox undo reverses. A corrupt library file is never overwritten:
// it is first moved (a journaled rename) to DEST/.shoebox/displaced/RUN/,
// under its library path, where no user file and no later run can take
// its name; undo removes the restored copy and moves the damaged bytes
// back. A repair killed halfway is finished by the next run: recovery
// removes its temp file, and the file, missing now, is restored.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/importlog"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/recovery"
	"github.com/shoebox-photos/shoebox/internal/store"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// Repair is one repair made, or declined with the reason.
type Repair struct {
	Path     string // relative to the library (or backup), slash separated
	Copy     string // the copy repaired: InLibrary or InBackup
	From     string // the copy it was repaired from (InBackup or InLibrary); "" when declined
	Repaired bool
	// Kept is where the damaged bytes a repair replaced are kept, relative
	// to the library, slash separated ("" when there were none).
	Kept   string
	Reason string // declined: why
}

// DisplacedDir is where a repair run keeps the damaged library files it
// replaced, under their library paths, until its undo puts them back.
func DisplacedDir(lib, runID string) string {
	return filepath.Join(pipeline.StateDir(lib), "displaced", runID)
}

// lockForRepair takes the library lock as sort does, then finishes what a
// killed run (a repair among them) left half done: its temp files go, and
// what it landed is recorded for undo.
func lockForRepair(ctx context.Context, library string) (unlock func() error, err error) {
	lib, err := filepath.Abs(library)
	if err != nil {
		return nil, fmt.Errorf("check --repair %s: %w", quote.Path(library), err)
	}
	state := pipeline.StateDir(lib)
	if !importlog.Exists(state) {
		return nil, fmt.Errorf("check %s: %w", quote.Path(library), ErrNoHistory)
	}
	unlock, err = store.Lock(state)
	if err != nil {
		return nil, fmt.Errorf("library %s is busy: %w", quote.Path(library), err)
	}
	if clean, err := journal.AllClosed(recovery.JournalDir(lib)); err == nil && clean {
		return unlock, nil
	}
	if _, err := recovery.Interrupted(ctx, lib, fsx.OS); err != nil {
		unlock()
		return nil, fmt.Errorf("check --repair: finish the interrupted run in %s: %w", quote.Path(library), err)
	}
	return unlock, nil
}

// repairReads reports whether --repair must read a copy of j to prove it
// right before repairing the other from it (without --read-data, only
// such copies are read).
func (c *checker) repairReads(j job) bool {
	return c.opt.Repair && (c.repairSource(j, InLibrary) || c.repairSource(j, InBackup))
}

// repairSource reports whether the copy which of j is what --repair would
// restore the other copy from: the other is missing, this one stat'ed as
// recorded and a hash is recorded to prove it.
func (c *checker) repairSource(j job, which string) bool {
	if !c.opt.Repair || j.sum == nil {
		return false
	}
	if which == InLibrary {
		return j.bak == stateMissing && j.lib == stateAsRecorded
	}
	return j.lib == stateMissing && j.bak == stateAsRecorded
}

// repair heals j's copies where the other copy was proved right (libV,
// bakV: what reading them found), and says why not where it cannot.
func (c *checker) repair(ctx context.Context, j job, libV, bakV verdict) {
	switch {
	case j.lib == stateChanged:
		c.declined(j, InLibrary, "edited since it landed (size or time moved): left as it is")
	case j.lib == stateMissing || libV == mismatch:
		if why := c.unproved(j, j.bak, bakV, InBackup); why != "" {
			c.declined(j, InLibrary, why)
		} else {
			c.restoreLibrary(ctx, j, libV == mismatch)
		}
	}
	switch {
	case j.bak == stateChanged:
		c.declined(j, InBackup, "changed since it was written (its size moved): left as it is")
	case bakV == mismatch:
		c.declined(j, InBackup, "a damaged backup copy is not overwritten; delete it and run check --repair again to write it anew from the verified library file")
	case j.bak == stateMissing:
		if why := c.unproved(j, j.lib, libV, InLibrary); why != "" {
			c.declined(j, InBackup, why)
		} else {
			c.rewriteBackup(ctx, j)
		}
	}
}

// unproved says why the copy which of j cannot be repaired from, or ""
// when reading it proved it the recorded bytes.
func (c *checker) unproved(j job, st copyState, v verdict, which string) string {
	name := "the library file"
	if which == InBackup {
		name = "the backup copy"
	}
	switch {
	case st == stateSkipped:
		return "there is no backup copy to restore it from"
	case st == stateMissing:
		return name + " is missing too"
	case st == stateChanged:
		return name + " was changed since it landed: nothing is repaired from it"
	case st == stateUnreadable || v == failed:
		return name + " cannot be read"
	case j.sum == nil:
		return "no hash was recorded for it, so no copy can be proved right: nothing is repaired from a copy that is not"
	case v == mismatch:
		return name + " does not match the recorded hash either: nothing is repaired from it"
	case v != verified:
		return name + " was not read"
	}
	return ""
}

// declined reports a repair not made, and why.
func (c *checker) declined(j job, which, why string) {
	c.repaired(Repair{Path: j.e.Path, Copy: which, Reason: why})
}

// repaired reports a repair (made or declined) and counts the made ones.
func (c *checker) repaired(r Repair) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r.Repaired {
		n := &c.st.Library
		if r.Copy == InBackup {
			n = c.st.Backup
		}
		n.Repaired++
	}
	if c.opt.Repaired != nil {
		c.opt.Repaired(r)
	}
}

func (c *checker) restoreLibrary(ctx context.Context, j job, corrupt bool) {
	fix, err := c.repairRunner()
	var kept string
	if err == nil {
		kept, err = fix.restore(ctx, j.e, j.sum, corrupt)
	}
	if err != nil {
		c.declined(j, InLibrary, err.Error())
		return
	}
	c.repaired(Repair{Path: j.e.Path, Copy: InLibrary, From: InBackup, Repaired: true, Kept: kept})
}

func (c *checker) rewriteBackup(ctx context.Context, j job) {
	fix, err := c.repairRunner()
	if err == nil {
		err = fix.rewrite(ctx, j.e, j.sum)
	}
	if err != nil {
		c.declined(j, InBackup, err.Error())
		return
	}
	c.repaired(Repair{Path: j.e.Path, Copy: InBackup, From: InLibrary, Repaired: true})
}

// repairRunner opens the repair run at its first repair: a check that
// repairs nothing leaves no run behind.
func (c *checker) repairRunner() (*repairer, error) {
	c.fixMu.Lock()
	defer c.fixMu.Unlock()
	if c.fix == nil {
		fix, err := openRepairer(c.opt.FS, c.lib, c.bak, c.opt.Args)
		if err != nil {
			return nil, err
		}
		c.fix = fix
	}
	return c.fix, nil
}

// closeRepairs closes the repair run's journal with how it ended (stop is
// what stopped the check, nil when it went to its end).
func (c *checker) closeRepairs(stop error) error {
	c.fixMu.Lock()
	defer c.fixMu.Unlock()
	if c.fix == nil {
		return nil
	}
	c.mu.Lock()
	n := c.st.Library.Repaired
	if c.st.Backup != nil {
		n += c.st.Backup.Repaired
	}
	c.mu.Unlock()
	return c.fix.close(stop, n)
}

func (c *checker) repairRun() string {
	c.fixMu.Lock()
	defer c.fixMu.Unlock()
	if c.fix == nil {
		return ""
	}
	return c.fix.runID
}

// repairer is one repair run: its journal, and an executor for each folder
// it writes in, all journaling into that one journal.
type repairer struct {
	lib, bak string
	runID    string
	aside    string // DisplacedDir of this run
	w        *journal.Writer
	libX     *transfer.Executor // lands files in the library
	bakX     *transfer.Executor // in the backup folder; nil without one
	asideX   *transfer.Executor // moves damaged library files aside
	failed   atomic.Int64       // repairs tried that failed (hash workers repair at once)
}

func openRepairer(fsys fsx.FS, lib, bak string, args []string) (*repairer, error) {
	now := time.Now()
	r := &repairer{lib: lib, bak: bak, runID: journal.NewRunID(now)}
	r.aside = DisplacedDir(lib, r.runID)
	w, err := journal.Create(recovery.JournalDir(lib), journal.Header{RunID: r.runID, Started: now, Dest: lib, Args: args})
	if err != nil {
		return nil, fmt.Errorf("start the repair run: %w", err)
	}
	r.w = w
	// Verify compares each copy with its source before it lands; Hash
	// gives the landed bytes' sum, compared with the record once more.
	r.libX = transfer.New(transfer.Options{FS: fsys, Journal: w, Library: lib, Verify: true, Hash: true})
	if bak != "" {
		r.bakX = transfer.New(transfer.Options{FS: fsys, Journal: w, Library: bak, Verify: true, Hash: true})
	}
	r.asideX = transfer.New(transfer.Options{FS: fsys, Journal: w, Library: r.aside})
	return r, nil
}

// restore puts e's library file back from its backup copy, which the
// caller proved holds the recorded bytes (sum). A corrupt library file is
// moved aside first and made durable there; kept is where, relative to
// the library.
func (r *repairer) restore(ctx context.Context, e importlog.Entry, sum []byte, corrupt bool) (kept string, err error) {
	libPath := filepath.Join(r.lib, filepath.FromSlash(e.Path))
	bakPath := filepath.Join(r.bak, filepath.FromSlash(e.Path))
	if corrupt {
		aside := filepath.Join(r.aside, filepath.FromSlash(e.Path))
		// Size and time as recorded: a file edited since it was read is
		// not taken for the damaged one.
		res := r.asideX.Do(ctx, transfer.Op{Mode: transfer.Move, Src: libPath, Dst: aside, Size: e.LibSize, ModTime: time.Unix(0, e.LibModTime)})
		if err := errors.Join(res.Err, r.asideX.Flush()); err != nil {
			return "", r.fail(fmt.Errorf("not repaired: move the damaged file aside: %w", err))
		}
		rel, _ := filepath.Rel(r.lib, aside)
		kept = filepath.ToSlash(rel)
	}
	// With the mtime the history recorded, not the backup copy's: the
	// next check then finds it as recorded.
	if err := r.land(ctx, r.libX, bakPath, libPath, e.LibSize, time.Unix(0, e.LibModTime), sum); err != nil {
		if kept != "" {
			err = fmt.Errorf("%w (the damaged file is kept at %s; run check --repair again)", err, quote.Path(kept))
		}
		return kept, r.fail(err)
	}
	return kept, nil
}

// rewrite writes e's missing backup copy from the library file, which the
// caller proved holds the recorded bytes (sum).
func (r *repairer) rewrite(ctx context.Context, e importlog.Entry, sum []byte) error {
	if r.bakX == nil {
		return r.fail(errors.New("not repaired: no backup folder"))
	}
	libPath := filepath.Join(r.lib, filepath.FromSlash(e.Path))
	bakPath := filepath.Join(r.bak, filepath.FromSlash(e.Path))
	return r.fail(r.land(ctx, r.bakX, libPath, bakPath, e.LibSize, time.Time{}, sum))
}

// land copies src to dst through x (temp, fsync, verified against src,
// no-replace rename; with mtime unless that is zero) and makes it
// durable, then compares the bytes that
// landed with the recorded hash: a source changed since it was read is
// caught there.
func (r *repairer) land(ctx context.Context, x *transfer.Executor, src, dst string, size int64, mtime time.Time, sum []byte) error {
	info, err := os.Stat(src)
	if err != nil {
		return fmt.Errorf("not repaired: %w", err)
	}
	res := x.Do(ctx, transfer.Op{Mode: transfer.Copy, Src: src, Dst: dst, Size: size, ModTime: info.ModTime(), LandModTime: mtime, Verify: true})
	if err := errors.Join(res.Err, x.Flush()); err != nil {
		return fmt.Errorf("not repaired: %w", err)
	}
	if res.Sum != nil && string(res.Sum[:]) != string(sum) {
		return fmt.Errorf("not repaired: %s changed while it was copied (its bytes no longer hash to the recorded sum); check it again", quote.Path(src))
	}
	return nil
}

func (r *repairer) fail(err error) error {
	if err != nil {
		r.failed.Add(1)
	}
	return err
}

// close ends the run's journal with its outcome: repaired counts as
// transferred, as shoebox log shows it.
func (r *repairer) close(stop error, repaired int64) error {
	errs := []error{r.libX.Flush(), r.asideX.Flush()}
	if r.bakX != nil {
		errs = append(errs, r.bakX.Flush())
	}
	end := journal.EndComplete
	if stop != nil {
		end = journal.EndInterrupted
	}
	errs = append(errs, r.w.CloseWith(journal.Outcome{End: end, Planned: repaired + r.failed.Load(), Transferred: repaired, Failed: r.failed.Load()}))
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close the repair run %s: %w", r.runID, err)
	}
	return nil
}
