package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/shoebox-photos/shoebox/internal/scan"
)

// Scan walks the sources and records every regular file in the run store.
func (r *Run) Scan(ctx context.Context) error {
	start := time.Now()
	r.begin("scan", "looking for files in the sources", 0, 0)
	w := r.st.Writer(writeBatch)
	var e enc
	emit := func(f scan.File) error {
		r.nextSeq++
		r.progress("scan", int64(r.nextSeq), 0)
		e.reset()
		putFile(&e, f)
		if err := w.Put(seqKey(keyFile, r.nextSeq), e.bytes()); err != nil {
			return fmt.Errorf("record scanned file: %w", err)
		}
		if r.recallOn && (f.Dev != 0 || f.Ino != 0) {
			if err := w.Put(identityKey(fileKey{f.Dev, f.Ino, r.nextSeq}), e.bytes()); err != nil {
				return fmt.Errorf("record scanned file: %w", err)
			}
		}
		return nil
	}
	_, err := scan.Walk(ctx, r.sources, r.scanOptions(), emit, r.scanProblem("scan"))
	if ferr := w.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("record scanned files: %w", ferr)
	}
	r.sum.Scanned = int64(r.nextSeq)
	r.emit(Event{Type: "stage", Stage: "scan", Count: int64(r.nextSeq), Elapsed: time.Since(start).Seconds()})
	return err
}

// writeBatch bounds how many records a store writer holds before committing.
const writeBatch = 4096

func (r *Run) scanOptions() scan.Options {
	return scan.Options{
		FollowLinks: r.cfg.FollowLinks,
		Hidden:      r.cfg.Hidden,
		Exclude:     r.excluded(),
		Workers:     r.cfg.Workers,
	}
}

// excluded keeps the walk out of the library when the library lies inside a
// source (sorting a folder into a subfolder of itself), and always out of
// shoebox's own state.
func (r *Run) excluded() []string {
	ex := []string{StateDir(r.dest)}
	for _, s := range r.sources {
		if within(r.dest, s) {
			ex = append(ex, r.dest)
			break
		}
	}
	return ex
}

// within reports whether p is strictly inside dir.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func (r *Run) scanProblem(stage string) func(scan.Problem) {
	return func(p scan.Problem) {
		r.sum.Problems++
		r.emit(Event{Type: "problem", Stage: stage, Src: p.Path, Reason: p.Error()})
	}
}
