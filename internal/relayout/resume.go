package relayout

import (
	"github.com/shoebox-photos/shoebox/internal/importlog"
	"github.com/shoebox-photos/shoebox/internal/recovery"
)

// resume moves the history entries after the files that relayout runs
// which did not finish (killed, stopped) moved before they could record
// it: a move their journals (and their recoveries') record done, whose
// file is gone from its old place and is at its new one. Entries already
// moved are left as they are, so it can run any number of times. Called
// after recovery, under the lock.
func resume(lib string, hist *importlog.Log) (int, error) {
	pairs, err := recovery.MovesWithin(lib, recovery.IsRelayout)
	if err != nil || len(pairs) == 0 {
		return 0, err
	}
	return hist.Relocate(importlog.Pairs(pairs))
}
