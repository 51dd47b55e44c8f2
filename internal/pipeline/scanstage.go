package pipeline

import (
	"context"
	"errors"
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
	err := r.scanSources(ctx, emit)
	if ferr := w.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("record scanned files: %w", ferr)
	}
	r.sum.Scanned = int64(r.nextSeq)
	r.emit(Event{Type: "stage", Stage: "scan", Count: int64(r.nextSeq), Elapsed: time.Since(start).Seconds()})
	return err
}

// scanSources walks the folders and files given, then the archives'
// members. Only when no source at all can be read is it an error.
func (r *Run) scanSources(ctx context.Context, emit func(scan.File) error) error {
	var err error
	plain := r.plainSources()
	if len(plain) > 0 {
		_, err = scan.Walk(ctx, plain, r.scanOptions(), emit, r.scanProblem("scan"))
	}
	read := len(r.archives.Archives()) > 0
	if errors.Is(err, scan.ErrNoSource) && read {
		err = nil // reported root by root; the archives are read
	}
	if err != nil {
		return err
	}
	if failed := r.archives.Failed(); len(plain) == 0 && !read && len(failed) > 0 {
		for _, p := range failed[1:] {
			r.scanProblem("scan")(scan.Problem{Path: p.Archive, Op: "read archive", Err: p.Err})
		}
		return fmt.Errorf("scan: %w: %w", scan.ErrNoSource, failed[0])
	}
	return r.scanArchives(ctx, emit, r.scanProblem("scan"))
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
