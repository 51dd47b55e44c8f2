package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/scan"
	"github.com/shoebox-photos/shoebox/internal/store"
)

// IndexStats says what `shoebox index` did.
type IndexStats struct {
	Files, Hashed, Reused, Failed int64
}

// Index builds or refreshes the content index of a library, so later runs
// find duplicates against it without reading it again. Files whose size and
// mtime are unchanged since they were indexed are not re-read. It also
// rebuilds the library index by size and hash from the same walk, which
// then sees files put in the library by hand.
func Index(ctx context.Context, dest string, workers int, events func(Event)) (IndexStats, error) {
	var st IndexStats
	dest, err := filepath.Abs(dest)
	if err != nil {
		return st, fmt.Errorf("index %s: %w", quote.Path(dest), err)
	}
	if info, err := os.Stat(dest); err != nil || !info.IsDir() {
		return st, fmt.Errorf("index %s: not a folder", quote.Path(dest))
	}
	state := StateDir(dest)
	if err := os.MkdirAll(state, 0o755); err != nil {
		return st, fmt.Errorf("index: create %s: %w", quote.Path(state), err)
	}
	unlock, err := store.Lock(state)
	if err != nil {
		return st, fmt.Errorf("library %s is busy: %w", quote.Path(dest), err)
	}
	defer unlock()
	note := func(ev Event) {
		if events != nil {
			events(ev)
		}
	}
	idx, err := openLibraryIndex(state, func(msg string) {
		note(Event{Type: "warning", Stage: "index", Reason: msg})
	})
	if err != nil {
		return st, err
	}
	defer idx.Close()
	hashes := newHashIndex(idx, dest)
	sumOf := func(f scan.File, _ string) ([]byte, error) {
		st.Files++
		sum, fresh, err := hashes.sum(fsx.OS, f, true)
		switch {
		case err != nil:
			st.Failed++
			note(Event{Type: "problem", Stage: "index", Src: f.Path, Reason: fmt.Sprintf("hash %s: %v", quote.Path(f.Path), err)})
			return nil, err
		case fresh:
			st.Hashed++
		default:
			st.Reused++
		}
		return sum[:], ctx.Err()
	}
	report := func(p scan.Problem) {
		st.Failed++
		note(Event{Type: "problem", Stage: "index", Src: p.Path, Reason: p.Error()})
	}
	// The library index (libindex.go) is rebuilt from the same walk.
	err = rebuildIndex(ctx, hashes, dest, []string{state}, workers, report, sumOf)
	if ferr := hashes.flush(); err == nil && ferr != nil {
		err = fmt.Errorf("record library hashes: %w", ferr)
	}
	return st, err
}
