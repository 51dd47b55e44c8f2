package recovery

import (
	"os"
	"path/filepath"

	"github.com/shoebox-photos/shoebox/internal/journal"
)

// MovesWithin lists the moves from one place in the library dest to
// another that runs which did not finish (killed, stopped), chosen by of,
// made: those whose file is gone from its old place and is at its new
// one, as (old, new) pairs relative to dest, slash separated. A run
// records such a move in the import history only once the file is
// durable (relayout; a sort of the library's own folder with --mode
// move), so a kill in between leaves entries naming the old place: the
// next run moves them on with these pairs (importlog's Relocate, which
// changes nothing the second time).
func MovesWithin(dest string, of func(journal.Summary) bool) ([][2]string, error) {
	runs, err := MovesWithinByRun(dest, of)
	var pairs [][2]string
	for _, rm := range runs {
		pairs = append(pairs, rm.Pairs...)
	}
	return pairs, err
}

// RunMoves are the moves within the library of one run (MovesWithin).
type RunMoves struct {
	Run   string // the run's id
	Pairs [][2]string
}

// MovesWithinByRun is MovesWithin, run by run (oldest first), for a
// caller that records what it does after them as a recovery of the run.
func MovesWithinByRun(dest string, of func(journal.Summary) bool) ([]RunMoves, error) {
	h, err := LoadHistory(JournalDir(dest))
	if err != nil {
		return nil, err
	}
	var runs []RunMoves
	for _, run := range h.Runs {
		if !of(run) || Finished(run) || h.Undone[run.Header.RunID] {
			continue
		}
		rm := RunMoves{Run: run.Header.RunID}
		for _, path := range h.JournalsOf(run) {
			if _, err := journal.Read(path, func(e journal.Entry) error {
				if from, to, ok := movedWithin(dest, e); ok {
					rm.Pairs = append(rm.Pairs, [2]string{from, to})
				}
				return nil
			}); err != nil {
				return nil, err
			}
		}
		if len(rm.Pairs) > 0 {
			runs = append(runs, rm)
		}
	}
	return runs, nil
}

// movedWithin reports whether e is a done move between two places in
// dest whose file is at its new place and gone from its old one.
func movedWithin(dest string, e journal.Entry) (from, to string, ok bool) {
	from, to, ok = MoveWithin(dest, e)
	if !ok || e.State != journal.Done {
		return "", "", false
	}
	if _, err := os.Lstat(e.Src); !os.IsNotExist(err) {
		return "", "", false
	}
	if _, err := os.Lstat(e.Dst); err != nil {
		return "", "", false
	}
	return from, to, true
}

// MoveWithin reports whether the journal entry e is a move from one place
// in the library dest to another, and returns both relative to dest,
// slash separated: the moves whose history entries follow their files.
func MoveWithin(dest string, e journal.Entry) (from, to string, ok bool) {
	if e.Action != journal.Move {
		return "", "", false
	}
	from, err1 := filepath.Rel(dest, e.Src)
	to, err2 := filepath.Rel(dest, e.Dst)
	if err1 != nil || err2 != nil || !filepath.IsLocal(from) || !filepath.IsLocal(to) {
		return "", "", false
	}
	return filepath.ToSlash(from), filepath.ToSlash(to), true
}
