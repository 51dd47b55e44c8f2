// Package undo reverses the last `shoebox sort` into a library and finishes
// what a killed run left half done. It reads the run journals in
// DEST/.shoebox/journal and changes files only through the transfer
// executor, which refuses anything it cannot prove is shoebox's own,
// unchanged work.
//
// Three kinds of journal share that folder, told apart by Header.Args:
// runs (["sort", ...]), undos (["undo", <runID>]) and recoveries
// (["recover", <runID>]). A recovery is the continuation of the run it names:
// it records the operations a killed run completed but had no time to
// journal. A run is undone once a closed undo journal names it, and
// recovered once a closed recovery journal does.
package undo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

const (
	argUndo    = "undo"
	argRecover = "recover"
)

// journalDir is where a library keeps its journals.
func journalDir(dest string) string { return filepath.Join(dest, ".shoebox", "journal") }

// history is every journal of a library, classified.
type history struct {
	runs       []journal.Summary            // sort runs, oldest first by start time
	undos      []journal.Summary            // undo journals
	recoveries map[string][]journal.Summary // run id → its recovery journals, oldest first
	undone     map[string]bool              // a closed undo journal names the run
	recovered  map[string]bool              // a closed recovery journal names the run
	unreadable []journal.Summary            // damaged journals (Summary.Err set)
}

func loadHistory(dir string) (*history, error) {
	sums, err := journal.List(dir)
	if err != nil {
		return nil, err
	}
	return newHistory(sums), nil
}

func newHistory(sums []journal.Summary) *history {
	h := &history{recoveries: map[string][]journal.Summary{}, undone: map[string]bool{}, recovered: map[string]bool{}}
	for _, s := range sortedByStart(sums) {
		h.add(s)
	}
	return h
}

func (h *history) add(s journal.Summary) {
	if s.Err != nil {
		// A crash inside journal.Create leaves a file with no header: that
		// run did nothing, so it is not worth refusing over.
		if !errors.Is(s.Err, journal.ErrNoHeader) {
			h.unreadable = append(h.unreadable, s)
		}
		return
	}
	args := s.Header.Args
	switch {
	case len(args) > 0 && args[0] == argUndo:
		h.undos = append(h.undos, s)
		for _, id := range args[1:] {
			h.undone[id] = h.undone[id] || s.Closed
		}
	case len(args) > 1 && args[0] == argRecover:
		h.recoveries[args[1]] = append(h.recoveries[args[1]], s)
		h.recovered[args[1]] = h.recovered[args[1]] || s.Closed
	default:
		h.runs = append(h.runs, s)
	}
}

// finished reports whether a sort run went to its end: it closed its
// journal, and did not record that Ctrl-C or an error stopped it first
// (a version-1 journal cannot say so, and counts as finished when closed).
// A run not finished is resumed by the next run of the same command.
func finished(s journal.Summary) bool {
	return s.Closed && !s.Outcome.Resumable()
}

// trustworthy refuses to act on a history with a damaged journal: it could
// hide what a run did or whether it was undone already.
func (h *history) trustworthy() error {
	if len(h.unreadable) == 0 {
		return nil
	}
	return fmt.Errorf("cannot trust the run history: %w (move that journal out of the folder to undo the other runs)", h.unreadable[0].Err)
}

// interrupted lists the runs and undos that died without closing their
// journal and that no closed recovery has dealt with yet, oldest first.
func (h *history) interrupted() []journal.Summary {
	var out []journal.Summary
	for _, group := range [][]journal.Summary{h.runs, h.undos} {
		for _, s := range group {
			if !s.Closed && !h.recovered[s.Header.RunID] {
				out = append(out, s)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b journal.Summary) int { return a.Header.Started.Compare(b.Header.Started) })
	return out
}

// doneCount is how many Done entries a run and its recoveries hold.
func (h *history) doneCount(run journal.Summary) int {
	n := run.Done
	for _, r := range h.recoveries[run.Header.RunID] {
		n += r.Done
	}
	return n
}

// job picks what the next undo reverses, newest first: the newest run that
// is not undone and did something, together with the runs of the same
// command just before it that did not finish (killed, stopped by Ctrl-C
// or by an error). Those are one job: such a run's work is finished by
// running the same command again, so undoing only the finishing run would
// leave the stopped one's files behind.
func (h *history) job(extra map[string][]journal.Entry) []journal.Summary {
	var job []journal.Summary
	for i := len(h.runs) - 1; i >= 0; i-- {
		s := h.runs[i]
		id := s.Header.RunID
		if h.undone[id] {
			if len(job) > 0 {
				break
			}
			continue
		}
		if len(job) == 0 {
			if h.doneCount(s)+len(extra[id]) > 0 {
				job = append(job, s)
			}
			continue
		}
		if finished(s) || !journal.SameWork(s.Header.Args, job[0].Header.Args) {
			break
		}
		job = append(job, s)
	}
	return job
}

// unfinishedBefore is the sort run just before oldest when it did not
// finish and is not undone: a run that a job ending at oldest leaves
// behind (its resume was another command, or it was never resumed).
func (h *history) unfinishedBefore(oldest journal.Summary) (journal.Summary, bool) {
	i := slices.IndexFunc(h.runs, func(s journal.Summary) bool { return s.Header.RunID == oldest.Header.RunID })
	if i <= 0 {
		return journal.Summary{}, false
	}
	prev := h.runs[i-1]
	return prev, !finished(prev) && !h.undone[prev.Header.RunID] && h.doneCount(prev) > 0
}

// journalsOf lists the journals holding what run did: its own and those
// of the recoveries that finished it.
func (h *history) journalsOf(run journal.Summary) []string {
	paths := []string{run.Path}
	for _, r := range h.recoveries[run.Header.RunID] {
		paths = append(paths, r.Path)
	}
	return paths
}

func reversibleAction(a journal.Action) bool {
	switch a {
	case journal.Copy, journal.Move, journal.Hardlink, journal.Symlink, journal.Reflink, journal.Mkdir,
		journal.RemoveDuplicate:
		return true
	}
	return false
}

// hasJournals reports whether dir holds any journal file at all.
func hasJournals(dir string) (bool, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read journals in %s: %w", quote.Path(dir), fsx.Bare(err))
	}
	for _, e := range entries {
		if filepath.Ext(e.Name()) == journal.Ext {
			return true, nil
		}
	}
	return false, nil
}

// journaledExecutor starts the executor an undo or a recovery works
// through, with a new journal of its own (Args [kind, runID]) naming the
// run it works on; a dry run gets neither journal nor changes.
func journaledExecutor(fsys fsx.FS, dry bool, dest, kind, runID string) (*transfer.Executor, *journal.Writer, error) {
	opt := transfer.Options{FS: fsys, DryRun: dry}
	var w *journal.Writer
	if !dry {
		now := time.Now()
		var err error
		w, err = journal.Create(journalDir(dest), journal.Header{
			RunID: journal.NewRunID(now), Started: now, Dest: dest, Args: []string{kind, runID},
		})
		if err != nil {
			return nil, nil, err
		}
		opt.Journal = w
	}
	return transfer.New(opt), w, nil
}
