package relayout

import (
	"os"
	"path/filepath"

	"github.com/shoebox-photos/shoebox/internal/importlog"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/recovery"
)

// resume moves the history entries after the files that relayout runs
// which did not finish (killed, stopped) moved before they could record
// it: a move their journals (and their recoveries') record done, whose
// file is gone from its old place and is at its new one. Entries already
// moved are left as they are, so it can run any number of times. Called
// after recovery, under the lock.
func resume(lib string, hist *importlog.Log) (int, error) {
	h, err := recovery.LoadHistory(recovery.JournalDir(lib))
	if err != nil {
		return 0, err
	}
	var pairs [][2]string
	for _, run := range h.Runs {
		if !recovery.IsRelayout(run) || recovery.Finished(run) || h.Undone[run.Header.RunID] {
			continue
		}
		for _, path := range h.JournalsOf(run) {
			if _, err := journal.Read(path, func(e journal.Entry) error {
				if e.State == journal.Done && e.Action == journal.Move && gone(e.Src) && there(e.Dst) {
					pairs = append(pairs, [2]string{rel(lib, e.Src), rel(lib, e.Dst)})
				}
				return nil
			}); err != nil {
				return 0, err
			}
		}
	}
	if len(pairs) == 0 {
		return 0, nil
	}
	return hist.Relocate(func(yield func(string, string) bool) {
		for _, p := range pairs {
			if !yield(p[0], p[1]) {
				return
			}
		}
	})
}

func gone(p string) bool {
	_, err := os.Lstat(filepath.Clean(p))
	return os.IsNotExist(err)
}

func there(p string) bool {
	_, err := os.Lstat(filepath.Clean(p))
	return err == nil
}
