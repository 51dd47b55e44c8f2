package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/undo"
)

// {counter} numbers each folder's new files in capture order, after the
// highest counter the folder holds, so a later import never renumbers what
// is there. One run is one sequence even when it is killed and run again:
// its workers land batches side by side, so a kill leaves numbers taken
// here and there, not a prefix. The resumed run knows from the journals
// which numbers the killed runs gave; the files still to place take the
// numbers between them, in capture order, then continue. That is exactly
// the numbering of one run never killed: it gave the killed runs' files
// their numbers and the others the rest of one unbroken range.

// loadResumedCounters reads, once per run, the counters that the
// unfinished runs of this same command gave (undo.Resumed).
func (r *Run) loadResumedCounters() error {
	if !r.cfg.Template.HasCounter() {
		return nil
	}
	r.resumedCounters = map[string]map[int]bool{}
	err := undo.Resumed(context.Background(), r.dest, r.cfg.FS, r.cfg.Args, func(dst string) {
		n, ok := r.cfg.Template.CounterOf(filepath.Base(dst))
		if !ok {
			return
		}
		dir := layout.FoldKey(filepath.Dir(dst))
		if r.resumedCounters[dir] == nil {
			r.resumedCounters[dir] = map[int]bool{}
		}
		r.resumedCounters[dir][n] = true
	})
	if err != nil {
		return fmt.Errorf("read the interrupted run's numbers in %s: %w", quote.Path(r.dest), err)
	}
	return nil
}

// numberBatch gives each dated file of one folder its {counter}, in
// capture order (the batch's order).
func (r *Run) numberBatch(dir string, batch []planned) error {
	next, err := r.counterSlots(dir)
	if err != nil {
		return err
	}
	for i := range batch {
		if batch[i].Unknown || batch[i].Present {
			continue
		}
		f := r.fields(batch[i])
		f.Counter = next()
		_, batch[i].Name = r.cfg.Template.Expand(f)
	}
	return nil
}

// counterSlots returns the source of dir's next counters: the numbers
// after the highest counter in dir that a resumed run did not give,
// skipping those it gave.
func (r *Run) counterSlots(dir string) (func() int, error) {
	given := r.resumedCounters[layout.FoldKey(dir)]
	high, err := r.highestCounter(dir, given)
	if err != nil {
		return nil, err
	}
	n := high
	return func() int {
		for n++; given[n]; n++ {
		}
		return n
	}, nil
}

// highestCounter is the highest counter among the names in dir, not
// counting the numbers in skip.
func (r *Run) highestCounter(dir string, skip map[int]bool) (int, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read destination folder %s: %w", quote.Path(dir), fsx.Bare(err))
	}
	high := 0
	for _, de := range entries {
		if n, ok := r.cfg.Template.CounterOf(de.Name()); ok && n > high && !skip[n] {
			high = n
		}
	}
	return high, nil
}
