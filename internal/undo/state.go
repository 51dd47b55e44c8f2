package undo

import (
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/recovery"
)

// Run is where one journal's run stands, as undo itself sees it: what
// shoebox log shows, so that log and undo never disagree.
type Run struct {
	journal.Summary
	Kind string // sort, check (a check --repair run), relayout, undo, recover; "" for a journal that cannot be read
	// State is one of: running, complete, interrupted (Ctrl-C, or
	// killed: its journal was never closed), stopped (an error stopped it),
	// undone, partially undone (an undo of it stopped before its end),
	// unreadable; for undos and recoveries: running, complete, incomplete
	// (stopped before its end).
	State     string
	Ended     string // sort: how the run itself ended: complete, interrupted, stopped, killed
	ResumedBy string // sort: the later run of the same command that finished its work
	Resumes   string // sort: the unfinished run whose work it finished
	UndoneBy  string // sort: the undo that reversed it (or, partially undone, is reversing it)
	Files     Files
}

// Files counts a run's files as its summary did: from the outcome the run
// recorded, or, for a run killed before it could, from its journal and its
// recoveries' (FromJournal).
type Files struct {
	Planned           int64 // 0 when unknown
	Transferred       int64
	Failed            int64
	NotAttempted      int64
	DuplicatesRemoved int64
	BackupCopies      int64
	Reverted          int64 // undo: files (and duplicates) reverted
	FromJournal       bool
}

// Runs classifies journals (as journal.List returns them) in the order
// they started. running says that a run or an undo holds the library's
// lock now: the newest journal not closed is then its, "running".
func Runs(sums []journal.Summary, running bool) []Run {
	h := newHistory(sums)
	resumedBy, resumes := map[string]string{}, map[string]string{}
	for _, job := range h.jobs() {
		for i := 1; i < len(job); i++ {
			resumedBy[job[i].Header.RunID] = job[i-1].Header.RunID
			resumes[job[i-1].Header.RunID] = job[i].Header.RunID
		}
	}
	undoneBy, partly := map[string]string{}, map[string]string{}
	for _, u := range h.Undos {
		for _, id := range u.Header.Args[1:] {
			switch {
			case u.Closed && h.Undone[id]:
				undoneBy[id] = u.Header.RunID
			case !u.Closed && (u.Undone > 0 || u.Failed > 0):
				partly[id] = u.Header.RunID
			}
		}
	}
	out := make([]Run, 0, len(sums))
	for _, s := range recovery.SortedByStart(sums) {
		r := Run{Summary: s}
		switch {
		case s.Err != nil:
			r.State = "unreadable"
		case len(s.Header.Args) > 0 && (s.Header.Args[0] == recovery.KindUndo || s.Header.Args[0] == recovery.KindRecover):
			r.Kind = s.Header.Args[0]
			r.State = map[bool]string{true: "complete", false: "incomplete"}[s.Closed]
			r.Files = Files{Reverted: int64(s.Files.Reverted), Failed: int64(s.Files.Failed + s.Files.BackupFailed),
				Transferred: int64(s.Files.Transferred), FromJournal: true}
		default:
			r.Kind = "sort"
			if recovery.IsRepair(s) {
				r.Kind = recovery.KindCheck
			}
			if recovery.IsRelayout(s) {
				r.Kind = recovery.KindRelayout
			}
			id := s.Header.RunID
			r.Ended, r.Files = ended(s), h.files(s)
			r.ResumedBy, r.Resumes = resumedBy[id], resumes[id]
			r.State = r.Ended
			if r.State == "killed" {
				r.State = "interrupted"
			}
			switch {
			case undoneBy[id] != "":
				r.State, r.UndoneBy = "undone", undoneBy[id]
			case partly[id] != "":
				r.State, r.UndoneBy = "partially undone", partly[id]
			}
		}
		out = append(out, r)
	}
	for i := len(out) - 1; running && i >= 0; i-- {
		if out[i].Err == nil && !out[i].Closed {
			out[i].State = "running"
			break
		}
	}
	return out
}

// ended says how a sort run ended by its own account.
func ended(s journal.Summary) string {
	switch {
	case !s.Closed:
		return "killed"
	case s.Outcome.End == 0:
		return "complete" // version 1: a closed journal is all it says
	default:
		return s.Outcome.End.String()
	}
}

// files is a sort run's file counts: its outcome's, or its journal's and
// its recoveries' when it was killed.
func (h *history) files(run journal.Summary) Files {
	if o := run.Outcome; o.End != 0 {
		return Files{Planned: o.Planned, Transferred: o.Transferred, Failed: o.Failed, NotAttempted: o.NotAttempted,
			DuplicatesRemoved: o.DuplicatesRemoved, BackupCopies: o.BackupCopies}
	}
	f := Files{FromJournal: true}
	for _, s := range append([]journal.Summary{run}, h.Recoveries[run.Header.RunID]...) {
		f.Transferred += int64(s.Files.Transferred)
		f.Failed += int64(s.Files.Failed)
		f.DuplicatesRemoved += int64(s.Files.DuplicatesRemoved)
		f.BackupCopies += int64(s.Files.BackupCopies)
	}
	return f
}
