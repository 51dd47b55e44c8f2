package scan

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// File is one regular file found under a source root.
type File struct {
	Path    string // filepath.Join(root, relative path), root as given
	Root    string // the source root as given
	Size    int64
	ModTime time.Time
	// CTime is the inode's change time where the platform has one (zero
	// elsewhere): any write, chmod or rename moves it, so it catches a
	// file edited in place whose mtime was put back.
	CTime time.Time
	Dev   uint64
	Ino   uint64
	Nlink uint64
}

// Options tunes a Walk. The zero value is a sensible default.
type Options struct {
	// FollowLinks follows symlinks to directories and files. Loops are
	// detected by device+inode and reported as Problem{Op: "loop"}.
	FollowLinks bool
	// Hidden includes names starting with "." and system clutter
	// (see IsClutter); by default they are skipped.
	Hidden bool
	// Exclude lists absolute, cleaned directories that are never entered,
	// such as DEST when it lies inside a SRC.
	Exclude []string
	// Workers is how many directories are read concurrently; <= 0 means 4.
	Workers int
	// Library is told of each folder below a root that is a shoebox
	// library (fsx.IsLibrary), which the walk does not enter: its files
	// are copies already sorted, not originals. A library given as a
	// root is walked (a merge), without its state folder. Called from
	// Walk's goroutine, like report; nil: nobody is told.
	Library func(dir string)
}

// Problem is one path the walk could not handle. The walk goes on after it.
type Problem struct {
	Path string
	Op   string // "open", "readdir", "lstat", "stat", "loop", "root"
	Err  error
}

// Error names the path and, for errors the user can act on (permissions,
// I/O errors), adds what to check. A missing path needs no hint.
func (p Problem) Error() string {
	msg := fmt.Sprintf("%s %s: %v", p.Op, quote.Path(p.Path), p.Err)
	// The path goes with the cause, so the hint can say file or folder.
	if h := fsx.Hint(&fs.PathError{Op: p.Op, Path: p.Path, Err: p.Err}); h != "" && !errors.Is(p.Err, fs.ErrNotExist) {
		msg += " (" + h + ")"
	}
	return msg
}

func (p Problem) Unwrap() error { return p.Err }

// Stats counts what a Walk met.
type Stats struct {
	Dirs     int64 // directories read
	Files    int64 // files emitted
	Skipped  int64 // entries left out on purpose: hidden/clutter, excluded, libraries, unfollowed links, special files, duplicates
	Links    int64 // symlinks met, followed or not
	Problems int64 // problems reported
}

// ErrNameNotOpenable: on Windows, a name ending in a dot or a space (NTFS
// holds them, made through \\?\ paths, WSL or a NAS) is dropped from the
// name by every ordinary open, which then opens its neighbour without
// them ("IMG_1.JPG." opens "IMG_1.JPG"): such an entry is reported, not
// read, so that another file is never taken for it.
var ErrNameNotOpenable = errors.New("its name ends in a dot or a space, which Windows drops when a file is opened by name (another file would be read in its place); rename it to import it")

// ErrLoop is the error inside a Problem{Op: "loop"}.
var ErrLoop = errors.New("symlink loop: directory is its own ancestor")

// ErrNoSource is wrapped by Walk's error when no root could be read.
var ErrNoSource = errors.New("no source could be read")

// Walk streams every regular file under roots (a root may itself be a file).
//
// emit is called from one goroutine at a time, so callers need no locking;
// if emit returns an error the walk stops and Walk returns that error.
// report gets every Problem, serialized with emit. A root that does not
// exist or cannot be read is a Problem with Op "root"; Walk returns an error
// wrapping it (and ErrNoSource) only if no root could be read. Symlinks
// are skipped silently (counted in Stats.Links and Stats.Skipped) unless
// opt.FollowLinks. A file reachable twice, through overlapping roots or
// followed links, is emitted once, under its path inside a root when it has
// one. Hard links (same dev+ino, different paths) are each emitted.
//
// Roots themselves are always followed when they are symlinks, like
// find -H, since the user named them.
//
// When ctx is cancelled, Walk stops and returns ctx.Err().
func Walk(ctx context.Context, roots []string, opt Options, emit func(File) error, report func(Problem)) (Stats, error) {
	if report == nil {
		report = func(Problem) {}
	}
	if len(roots) == 0 {
		return Stats{}, fmt.Errorf("scan: %w: no roots given", ErrNoSource)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := newWalker(ctx, roots, opt)
	go w.run()
	return w.consume(ctx, cancel, emit, report)
}

// consume runs on the caller's goroutine: it is the single place where
// emit and report are called, which is what serializes them.
func (w *walker) consume(ctx context.Context, cancel context.CancelFunc, emit func(File) error, report func(Problem)) (Stats, error) {
	var emitErr error
	var firstRootProblem *Problem
	rootProblems := 0
	for msg := range w.out {
		if emitErr != nil {
			continue // drain so the readers can finish
		}
		for _, dir := range msg.libraries {
			if w.opt.Library != nil {
				w.opt.Library(dir)
			}
		}
		for _, p := range msg.problems {
			w.stats.Problems++
			if p.Op == "root" {
				rootProblems++
				if firstRootProblem == nil {
					firstRootProblem = &p
				}
			}
			report(p)
		}
		for _, f := range msg.files {
			if err := emit(f); err != nil {
				emitErr = err
				cancel()
				break
			}
			w.stats.Files++
		}
	}
	st := w.snapshot()
	switch {
	case emitErr != nil:
		return st, emitErr
	case ctx.Err() != nil:
		return st, ctx.Err()
	case rootProblems == len(w.roots) && firstRootProblem != nil:
		return st, fmt.Errorf("scan: %w: %w", ErrNoSource, *firstRootProblem)
	}
	return st, nil
}
