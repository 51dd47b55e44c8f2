package relayout

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/shoebox-photos/shoebox/internal/config"
	"github.com/shoebox-photos/shoebox/internal/importlog"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/recovery"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// flushEvery bounds how many moves share one round of fsyncs (and how
// many the history learns of at once).
const flushEvery = 256

// Args is the journal's Header.Args of a relayout from one template to
// another: the command, as shoebox log shows it, and what undo needs to
// put the recorded template back (--from).
func Args(lib, from, to string) []string {
	return []string{Kind, "--from", from, "-t", to, lib}
}

// FromOf is the template a relayout run's journal says the library had
// before it ("" when the args do not say).
func FromOf(args []string) string {
	for i := 1; i+1 < len(args); i++ {
		if args[i] == "--from" {
			return args[i+1]
		}
	}
	return ""
}

// apply makes the planned moves as one journaled run, then has the
// history follow them and, once every file has moved, records the new
// template.
func apply(ctx context.Context, lib string, hist *importlog.Log, p *planned, opt Options, st Stats) (Stats, error) {
	if len(p.moves) == 0 {
		return st, recordTemplate(lib, opt.To.String())
	}
	// The library index is a cache of where files are: stale once they
	// move, so it goes first, and the next sort walks the library anew.
	if err := os.RemoveAll(pipeline.LibraryIndexDir(pipeline.StateDir(lib))); err != nil {
		return st, fmt.Errorf("relayout %s: drop the library index: %w", quote.Path(opt.Library), err)
	}
	now := time.Now()
	st.Run = journal.NewRunID(now)
	w, err := journal.Create(recovery.JournalDir(lib), journal.Header{RunID: st.Run, Started: now, Dest: lib,
		Args: Args(lib, opt.From.String(), opt.To.String())})
	if err != nil {
		return st, fmt.Errorf("relayout %s: start the run: %w", quote.Path(opt.Library), err)
	}
	x := transfer.New(transfer.Options{FS: opt.FS, Journal: w, Library: lib})
	var done [][2]string // (old, new) relative paths, for the history
	stop := ctx.Err()
	for i, m := range p.moves {
		if stop = ctx.Err(); stop != nil {
			break
		}
		res := x.Do(ctx, transfer.Op{Mode: transfer.Move, Src: m.f.full, Dst: m.dst, Size: m.f.size, ModTime: m.f.mod})
		if res.Landed {
			st.Moved++
			done = append(done, [2]string{rel(lib, m.f.full), rel(lib, m.dst)})
		} else {
			st.Failed++
		}
		report(opt, m.move(lib, res.Err))
		if (i+1)%flushEvery == 0 {
			if err := follow(x, hist, &done); err != nil {
				return st, errors.Join(fmt.Errorf("relayout %s: %w", quote.Path(opt.Library), err), w.CloseUnfinished())
			}
		}
	}
	err = follow(x, hist, &done)
	if err == nil && stop == nil && st.Failed == 0 {
		err = recordTemplate(lib, opt.To.String())
	}
	if stop == nil {
		st.DirsRemoved = removeEmptied(lib, p.moves)
	}
	end := journal.EndComplete
	switch {
	case stop != nil:
		end = journal.EndInterrupted
	case err != nil || st.Failed > 0:
		end = journal.EndStopped
	}
	planned := int64(len(p.moves))
	cerr := w.CloseWith(journal.Outcome{End: end, Planned: planned, Transferred: int64(st.Moved), Failed: int64(st.Failed),
		NotAttempted: planned - int64(st.Moved+st.Failed)})
	if err = errors.Join(err, cerr); err != nil {
		return st, fmt.Errorf("relayout %s: %w", quote.Path(opt.Library), err)
	}
	switch {
	case stop != nil:
		return st, stop
	case st.Failed > 0:
		return st, fmt.Errorf("relayout %s: %d files could not be moved (listed above); the library keeps its recorded template until every file has moved: run the same relayout again", quote.Path(opt.Library), st.Failed)
	}
	return st, nil
}

// follow makes the moves so far durable, then moves their history
// entries after them: a kill in between leaves entries naming the old
// places, which the next relayout's resume moves on from the journal.
func follow(x *transfer.Executor, hist *importlog.Log, done *[][2]string) error {
	if err := x.Flush(); err != nil {
		return err
	}
	pairs := *done
	*done = (*done)[:0]
	_, err := hist.Relocate(importlog.Pairs(pairs))
	return err
}

// recordTemplate records the library's new template, keeping its other
// settings.
func recordTemplate(lib, template string) error {
	s, _, err := config.ReadFile(config.LibraryPath(lib))
	if err != nil {
		return err
	}
	s.Template = &template
	return config.SaveLibrary(lib, s)
}

// removeEmptied removes the folders the moves emptied: those a moved file
// was in, and their parents up to the library, deepest first, each only
// when it holds nothing now (a folder with anything in it, a file the
// user put there or one relayout left, stays; rmdir removes only an empty
// folder, so nothing can be lost). It returns how many it removed.
func removeEmptied(lib string, moves []move) int {
	seen := map[string]bool{}
	var dirs []string
	for _, m := range moves {
		for d := filepath.Dir(m.f.full); d != lib && len(d) > len(lib) && !seen[d]; d = filepath.Dir(d) {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
	n := 0
	for _, d := range dirs {
		if os.Remove(d) == nil {
			n++
		}
	}
	return n
}
