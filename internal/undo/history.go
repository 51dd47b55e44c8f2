// Package undo reverses the last `shoebox sort` into a library, or a run
// named by its id. It reads the run journals in DEST/.shoebox/journal (as
// recovery.History classifies them), has package recovery finish what a
// killed run left half done first, and changes files only through the
// transfer executor, which refuses anything it cannot prove is shoebox's
// own, unchanged work.
package undo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/recovery"
)

// history is every journal of a library, classified (recovery.History),
// with what undo asks of it.
type history struct{ *recovery.History }

func loadHistory(dir string) (*history, error) {
	h, err := recovery.LoadHistory(dir)
	if err != nil {
		return nil, err
	}
	return &history{h}, nil
}

func newHistory(sums []journal.Summary) *history { return &history{recovery.NewHistory(sums)} }

// trustworthy refuses to act on a history with a damaged journal: it could
// hide what a run did or whether it was undone already.
func (h *history) trustworthy() error {
	if len(h.Unreadable) == 0 {
		return nil
	}
	return fmt.Errorf("cannot trust the run history: %w (move that journal out of the folder to undo the other runs)", h.Unreadable[0].Err)
}

// doneCount is how many Done entries a run and its recoveries hold.
func (h *history) doneCount(run journal.Summary) int {
	n := run.Done
	for _, r := range h.Recoveries[run.Header.RunID] {
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
	for i := len(h.Runs) - 1; i >= 0; i-- {
		s := h.Runs[i]
		id := s.Header.RunID
		if h.Undone[id] {
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
		if recovery.Finished(s) || !journal.SameWork(s.Header.Args, job[0].Header.Args) {
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
	i := slices.IndexFunc(h.Runs, func(s journal.Summary) bool { return s.Header.RunID == oldest.Header.RunID })
	if i <= 0 {
		return journal.Summary{}, false
	}
	prev := h.Runs[i-1]
	return prev, !recovery.Finished(prev) && !h.Undone[prev.Header.RunID] && h.doneCount(prev) > 0
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
