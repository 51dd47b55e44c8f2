package recovery

import (
	"context"

	"github.com/shoebox-photos/shoebox/internal/fsx"

	"github.com/shoebox-photos/shoebox/internal/journal"
)

// Resumed calls fn with each source and the path it landed at, for what
// the unfinished runs of the command args put in the library at dest: the runs that a new run of that
// command finishes (one job, as undo sees it). A {counter} run numbers the
// files it still has to place around theirs, so that a kill and a resume
// number as one run that was never killed. What a killed run landed and
// no recovery recorded yet (a dry run does not recover) counts too.
func Resumed(ctx context.Context, dest string, fsys fsx.FS, args []string, fn func(src, dst string)) error {
	_, pending, err := All(ctx, dest, fsys, true)
	if err != nil {
		return err
	}
	h, err := LoadHistory(JournalDir(dest))
	if err != nil {
		return err
	}
	landed := func(e journal.Entry) error {
		if e.State == journal.Done && IsTransfer(e.Action) {
			fn(e.Src, e.Dst)
		}
		return nil
	}
	for i := len(h.Runs) - 1; i >= 0; i-- {
		s := h.Runs[i]
		if Finished(s) || h.Undone[s.Header.RunID] || !journal.SameWork(s.Header.Args, args) {
			return nil
		}
		for _, p := range h.JournalsOf(s) {
			if _, err := journal.Read(p, landed); err != nil {
				return err
			}
		}
		for _, e := range pending[s.Header.RunID] {
			landed(e)
		}
	}
	return nil
}
