// Package recovery finishes what a killed run left half done in a library
// and reads what the unfinished runs a new run resumes did. It is the part
// of crash safety that sort and undo share: a sort first recovers
// (Interrupted) and numbers its {counter} files around those the runs it
// resumes gave (Resumed); an undo first recovers (All) and then reverses
// what the recovery recorded too. It lives apart from undo so that sort,
// which never undoes anything, does not depend on undo.
//
// Three kinds of journal share DEST/.shoebox/journal, told apart by
// Header.Args: runs (["sort", ...]), undos (["undo", <runID>]) and
// recoveries (["recover", <runID>]). A recovery is the continuation of the
// run it names: it records the operations a killed run completed but had
// no time to journal. A run is undone once a closed undo journal names it,
// and recovered once a closed recovery journal does. History classifies
// them, for this package and for undo.
//
// Files change only through the transfer executor, which refuses anything
// it cannot prove is shoebox's own, unchanged work.
package recovery

import (
	"errors"
	"path/filepath"
	"slices"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// The first word of an undo's and of a recovery's journal Header.Args;
// a run's is its command (sort).
const (
	KindUndo    = "undo"
	KindRecover = "recover"
	// KindCheck is the first word of a check --repair run's journal: a
	// run like a sort's (undone the same way), that imports nothing.
	KindCheck = "check"
	// KindRelayout is the first word of a shoebox relayout run's journal:
	// moves within the library, undone the same way as a sort's.
	KindRelayout = "relayout"
)

// IsRelayout reports whether s is the journal of a relayout run.
func IsRelayout(s journal.Summary) bool {
	return len(s.Header.Args) > 0 && s.Header.Args[0] == KindRelayout
}

// IsRepair reports whether s is the journal of a check --repair run.
func IsRepair(s journal.Summary) bool {
	return len(s.Header.Args) > 0 && s.Header.Args[0] == KindCheck
}

// JournalDir is where a library keeps its journals.
func JournalDir(dest string) string { return filepath.Join(dest, ".shoebox", "journal") }

// History is every journal of a library, classified.
type History struct {
	Runs       []journal.Summary            // sort runs, oldest first by start time
	Undos      []journal.Summary            // undo journals
	Recoveries map[string][]journal.Summary // run id → its recovery journals, oldest first
	Undone     map[string]bool              // a closed undo journal names the run
	Recovered  map[string]bool              // a closed recovery journal names the run
	Unreadable []journal.Summary            // damaged journals (Summary.Err set)
}

// LoadHistory reads and classifies the journals in dir.
func LoadHistory(dir string) (*History, error) {
	sums, err := journal.List(dir)
	if err != nil {
		return nil, err
	}
	return NewHistory(sums), nil
}

// NewHistory classifies journals (as journal.List returns them).
func NewHistory(sums []journal.Summary) *History {
	h := &History{Recoveries: map[string][]journal.Summary{}, Undone: map[string]bool{}, Recovered: map[string]bool{}}
	for _, s := range SortedByStart(sums) {
		h.add(s)
	}
	return h
}

func (h *History) add(s journal.Summary) {
	if s.Err != nil {
		// A crash inside journal.Create leaves a file with no header: that
		// run did nothing, so it is not worth refusing over.
		if !errors.Is(s.Err, journal.ErrNoHeader) {
			h.Unreadable = append(h.Unreadable, s)
		}
		return
	}
	args := s.Header.Args
	switch {
	case len(args) > 0 && args[0] == KindUndo:
		h.Undos = append(h.Undos, s)
		for _, id := range args[1:] {
			h.Undone[id] = h.Undone[id] || s.Closed
		}
	case len(args) > 1 && args[0] == KindRecover:
		h.Recoveries[args[1]] = append(h.Recoveries[args[1]], s)
		h.Recovered[args[1]] = h.Recovered[args[1]] || s.Closed
	default:
		h.Runs = append(h.Runs, s)
	}
}

// SortedByStart orders journals as undo does: run ids sort by the second
// only, start times to the nanosecond.
func SortedByStart(sums []journal.Summary) []journal.Summary {
	sums = slices.Clone(sums)
	slices.SortStableFunc(sums, func(a, b journal.Summary) int { return a.Header.Started.Compare(b.Header.Started) })
	return sums
}

// Finished reports whether a sort run went to its end: it closed its
// journal, and did not record that Ctrl-C or an error stopped it first
// (a version-1 journal cannot say so, and counts as finished when closed).
// A run not finished is resumed by the next run of the same command.
func Finished(s journal.Summary) bool {
	return s.Closed && !s.Outcome.Resumable()
}

// interrupted lists the runs and undos that died without closing their
// journal and that no closed recovery has dealt with yet, oldest first.
func (h *History) interrupted() []journal.Summary {
	var out []journal.Summary
	for _, group := range [][]journal.Summary{h.Runs, h.Undos} {
		for _, s := range group {
			if !s.Closed && !h.Recovered[s.Header.RunID] {
				out = append(out, s)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b journal.Summary) int { return a.Header.Started.Compare(b.Header.Started) })
	return out
}

// JournalsOf lists the journals holding what run did: its own and those
// of the recoveries that finished it.
func (h *History) JournalsOf(run journal.Summary) []string {
	paths := []string{run.Path}
	for _, r := range h.Recoveries[run.Header.RunID] {
		paths = append(paths, r.Path)
	}
	return paths
}

// IsTransfer reports whether a is an operation that put a file in the
// library (or the backup).
func IsTransfer(a journal.Action) bool {
	switch a {
	case journal.Copy, journal.Move, journal.Hardlink, journal.Symlink, journal.Reflink:
		return true
	}
	return false
}

// JournaledExecutor starts the executor an undo or a recovery works
// through, with a new journal of its own (Args [kind, runID]) naming the
// run it works on; a dry run gets neither journal nor changes.
func JournaledExecutor(fsys fsx.FS, dry bool, dest, kind, runID string) (*transfer.Executor, *journal.Writer, error) {
	opt := transfer.Options{FS: fsys, DryRun: dry}
	var w *journal.Writer
	if !dry {
		now := time.Now()
		var err error
		w, err = journal.Create(JournalDir(dest), journal.Header{
			RunID: journal.NewRunID(now), Started: now, Dest: dest, Args: []string{kind, runID},
		})
		if err != nil {
			return nil, nil, err
		}
		opt.Journal = w
	}
	return transfer.New(opt), w, nil
}
