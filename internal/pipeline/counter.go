package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/quote"
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
// unfinished runs of this same command gave (landed.go).
func (r *Run) loadResumedCounters() error {
	if !r.cfg.Template.HasCounter() {
		return nil
	}
	if err := r.loadLanded(); err != nil {
		return err
	}
	r.resumedCounters = map[string]map[int]bool{}
	for _, files := range r.landedBySrc {
		for _, f := range files {
			n, ok := r.cfg.Template.CounterOf(f.name)
			if !ok {
				continue
			}
			if r.resumedCounters[f.dir] == nil {
				r.resumedCounters[f.dir] = map[int]bool{}
			}
			r.resumedCounters[f.dir][n] = true
		}
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
		if n, ok := r.numberLandedBefore(dir, batch[i]); ok {
			f.Counter = n
		} else {
			f.Counter = next()
		}
		_, batch[i].Name = r.cfg.Template.Expand(f)
	}
	return nil
}

// numberLandedBefore is the number a run this one resumes gave to p's
// group, when part of it landed: a kill can land a Live Photo's movie or
// a sidecar (they go first) and not the photo, which then takes the
// number its companion carries, as one run never killed gives it. A half
// that landed whole is in the library already, and dedup takes it out of
// the group: its source folder and stem still name it (IMG_1.MOV,
// IMG_1.JPG.xmp beside IMG_1.JPG), which landedNames looks up too.
func (r *Run) numberLandedBefore(dir string, p planned) (int, bool) {
	for _, name := range r.landedNames(dir, p) {
		if n, ok := r.cfg.Template.CounterOf(name); ok {
			return n, true
		}
	}
	return 0, false
}

// shotKey names a source's shot: its folder and its name up to the first
// dot, folded, marked apart from any path.
func shotKey(src string) string {
	base := filepath.Base(src)
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return "\x00" + layout.FoldKey(filepath.Join(filepath.Dir(src), base))
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
