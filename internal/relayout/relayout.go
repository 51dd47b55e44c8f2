// Package relayout moves every file of a library to where another
// template puts it (shoebox relayout LIB -t NEW).
//
// The plan is sort's: each library file is dated as its import recorded
// (the capture date sort filed it under, --shift included), grouped as
// sort groups sources (pipeline.DecideWith: sidecars, RAW+JPEG and Live
// Photo halves travel with their leader under its stem), and every target
// folder is resolved by the same planner (plan.Resolve), so a name two
// files want gets sort's counter. A file already where the new template
// puts it stays.
//
// Every move goes through the transfer executor (a no-replace rename
// within the library), journaled as one run whose first argument is
// "relayout": shoebox log lists it, shoebox undo moves the files back
// and restores the recorded template. A kill leaves each file in its old
// place or its new one; the next relayout first lets recovery finish the
// killed run's half-done move, then moves the import history's entries
// after the files the killed run moved (resume), plans again and moves
// what is left. The import history follows the files after they moved,
// the library index (a cache) is dropped before the first move so that
// the next sort rebuilds it, and the recorded template changes only once
// every file has moved.
package relayout

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/shoebox-photos/shoebox/internal/config"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/importlog"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/recovery"
	"github.com/shoebox-photos/shoebox/internal/store"
)

// Kind is the first word of a relayout run's journal (Header.Args).
const Kind = recovery.KindRelayout

// Options configure Run.
type Options struct {
	Library string
	From    *layout.Template // the layout the library's files follow now
	To      *layout.Template // the layout they move to
	DryRun  bool
	FS      fsx.FS     // nil means fsx.OS
	Moved   func(Move) // one call per file moved (or, in a dry run, to move); may be nil
	Left    func(Left) // one call per file left where it is, and why; may be nil
	// Backup is the backup folder whose copies move with the files
	// (--backup); "" means the one the library records, if any.
	Backup string
	// BackupLeft is called for each file whose backup copy is not moved
	// (not there, its new place taken), and why; may be nil.
	BackupLeft func(Left)
}

// Move is one file's move, paths relative to the library, slash separated.
type Move struct {
	From, To string
	Renamed  bool  // the new template's name was taken: sort's counter was added
	Err      error // the move failed (the file is still at From)
}

// Left is a library file relayout does not move, and why.
type Left struct {
	Path   string
	Reason string
}

// Stats count what Run did (or, in a dry run, would do).
type Stats struct {
	Files       int // library files the import history records and that are there
	Moved       int
	InPlace     int // already where the new template puts them
	Left        int // not moved: undated, a sidecar with no photo, ...
	Failed      int
	DirsRemoved int    // folders the moves left empty, removed
	Resumed     int    // history entries moved after the files a killed relayout had moved
	Run         string // the journal's run id ("" in a dry run, or when nothing moved)

	Backup        string // the backup folder whose copies moved with the files; "" for none
	BackupMoved   int    // backup copies moved after their files
	BackupMissing int    // moved files with no backup copy at their old place
	BackupFailed  int    // backup copies not moved (their new place taken, not a file)
	BackupResumed int    // backup copies a killed or stopped relayout had left behind, moved
}

var (
	// ErrNotLibrary: the folder has no import history.
	ErrNotLibrary = errors.New("not a shoebox library (no import history in .shoebox): nothing to relayout")
	// ErrSameTemplate: the new template is the one the library records.
	ErrSameTemplate = errors.New("the library is laid out by this template already: nothing to do")
	// ErrCounter: relayout does not number files yet.
	ErrCounter = errors.New("relayout does not support a template with {counter} yet")
)

// Run relayouts the library (see the package comment).
func Run(ctx context.Context, opt Options) (Stats, error) {
	var st Stats
	lib, err := filepath.Abs(opt.Library)
	if err != nil {
		return st, fmt.Errorf("relayout %s: %w", quote.Path(opt.Library), err)
	}
	if err := refuse(lib, opt); err != nil {
		return st, fmt.Errorf("relayout %s: %w", quote.Path(opt.Library), err)
	}
	if opt.FS == nil {
		opt.FS = fsx.OS
	}
	if st.Backup, err = backupFolder(lib, opt); err != nil {
		return st, fmt.Errorf("relayout %s: %w", quote.Path(opt.Library), err)
	}
	state := pipeline.StateDir(lib)
	if !opt.DryRun {
		unlock, err := lock(ctx, lib)
		if err != nil {
			return st, err
		}
		defer unlock()
	}
	hist, err := openHistory(state, opt.DryRun)
	if err != nil {
		return st, fmt.Errorf("relayout %s: %w", quote.Path(opt.Library), err)
	}
	defer hist.Close()
	if !opt.DryRun {
		if st.Resumed, err = resume(lib, hist); err != nil {
			return st, fmt.Errorf("relayout %s: resume the interrupted relayout: %w", quote.Path(opt.Library), err)
		}
		if st.Backup != "" {
			if err := resumeBackup(ctx, lib, st.Backup, opt, &st); err != nil {
				return st, fmt.Errorf("relayout %s: move the backup copies the interrupted relayout left behind: %w", quote.Path(opt.Library), err)
			}
		}
	}
	p, err := planLibrary(ctx, lib, hist, opt)
	if err != nil {
		return st, fmt.Errorf("relayout %s: %w", quote.Path(opt.Library), err)
	}
	st.Files, st.InPlace, st.Left = p.files, p.inPlace, len(p.left)
	for _, l := range p.left {
		if opt.Left != nil {
			opt.Left(l)
		}
	}
	if opt.DryRun {
		var moves []Move
		for _, m := range p.moves {
			st.Moved++
			moves = append(moves, m.move(lib, nil))
			report(opt, moves[len(moves)-1])
		}
		if st.Backup != "" {
			predictBackup(st.Backup, moves, opt, &st)
		}
		return st, nil
	}
	return apply(ctx, lib, hist, p, opt, st)
}

// refuse says why the library cannot be relayouted to opt.To, if so.
func refuse(lib string, opt Options) error {
	if !importlog.Exists(pipeline.StateDir(lib)) {
		return ErrNotLibrary
	}
	if opt.From.String() == opt.To.String() {
		return ErrSameTemplate
	}
	if opt.To.HasCounter() {
		return ErrCounter
	}
	_, _, err := config.ReadFile(config.LibraryPath(lib))
	return err
}

// lock takes the library lock as sort does, then finishes what a killed
// run (a relayout among them) left half done.
func lock(ctx context.Context, lib string) (unlock func() error, err error) {
	unlock, err = store.Lock(pipeline.StateDir(lib))
	if err != nil {
		return nil, fmt.Errorf("library %s is busy: %w", quote.Path(lib), err)
	}
	if clean, err := journal.AllClosed(recovery.JournalDir(lib)); err == nil && clean {
		return unlock, nil
	}
	if _, err := recovery.Interrupted(ctx, lib, fsx.OS); err != nil {
		unlock()
		return nil, fmt.Errorf("relayout: finish the interrupted run in %s: %w", quote.Path(lib), err)
	}
	return unlock, nil
}

func openHistory(state string, dry bool) (*importlog.Log, error) {
	if dry {
		return importlog.OpenForReading(state)
	}
	return importlog.OpenForUpdate(state)
}

func report(opt Options, m Move) {
	if opt.Moved != nil {
		opt.Moved(m)
	}
}
