package transfer

import (
	"fmt"

	"github.com/shoebox-photos/shoebox/internal/journal"
)

// entry builds the journal record of this op in the given state.
func (r *run) entry(state journal.State) journal.Entry {
	var mtime int64
	switch {
	case !r.op.LandModTime.IsZero():
		mtime = r.op.LandModTime.UnixNano()
	case !r.op.ModTime.IsZero():
		mtime = r.op.ModTime.UnixNano()
	}
	return journal.Entry{
		Seq: r.seq, State: state, Action: r.op.Mode.journalAction(),
		Src: r.op.Src, Dst: r.op.Dst, Tmp: r.tmp,
		Size: r.op.Size, ModTime: mtime,
		Dev: r.res.Dev, Ino: r.res.Ino,
	}
}

func (r *run) appendJournal(e journal.Entry) error {
	if r.e.journal == nil || r.e.dryRun {
		return nil
	}
	if err := r.e.journal.Append(e); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// journalIntent is written before any mutation, so a crash at any later
// point leaves a record naming the temp file and destination to check.
func (r *run) journalIntent() error {
	if err := r.appendJournal(r.entry(journal.Intent)); err != nil {
		return err
	}
	r.journaled = true
	return nil
}

// journalFinal closes the op's record once, with Done or Failed.
func (r *run) journalFinal(state journal.State, cause error) error {
	if !r.journaled || r.finished {
		return nil
	}
	if state == journal.Failed && r.tempKept {
		// Its temp is still there: the Intent stays open, naming it,
		// so that the next run's recovery removes it (see removeTemp).
		return nil
	}
	r.finished = true
	e := r.entry(state)
	if cause != nil {
		e.Err = cause.Error()
	}
	return r.appendJournal(e)
}

func (r *run) syncJournal() error {
	if r.e.journal == nil || r.e.dryRun {
		return nil
	}
	if err := r.e.journal.Sync(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}
