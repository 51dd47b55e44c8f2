package pipeline

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/shoebox-photos/shoebox/internal/quote"
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
	r.warnLibraryInSource()
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
		Library:     r.warnNestedLibrary,
	}
}

// warnNestedLibrary says that a shoebox library met inside a source was
// left out: its files are another library's copies, and sorting them
// would take them for originals (and, in move mode, empty that library).
func (r *Run) warnNestedLibrary(dir string) {
	r.emit(Event{Type: "warning", Stage: "scan", Src: dir,
		Reason: fmt.Sprintf("%s is a shoebox library: its files are not sorted again; give it as a source on its own to merge it", quote.Path(dir))})
}

// warnLibraryInSource says, before the scan, that the library lies inside
// a source and is left out of it: the same words on every run, before the
// library exists and after.
func (r *Run) warnLibraryInSource() {
	if src := r.sourceHoldingLibrary(); src != "" {
		r.emit(Event{Type: "warning", Stage: "scan", Src: r.dest,
			Reason: fmt.Sprintf("the library %s is inside the source %s: its files are not sorted again", quote.Path(r.dest), quote.Path(src))})
	}
}

// sourceHoldingLibrary is the first source the library lies inside, or "".
func (r *Run) sourceHoldingLibrary() string {
	for _, s := range r.sources {
		if within(r.dest, s) {
			return s
		}
	}
	return ""
}

// excluded keeps the walk out of the library when the library lies inside a
// source (sorting a folder into a subfolder of itself), and always out of
// shoebox's own state.
func (r *Run) excluded() []string {
	ex := []string{StateDir(r.dest)}
	if r.sourceHoldingLibrary() != "" {
		ex = append(ex, r.dest)
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
