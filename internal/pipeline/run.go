// Package pipeline runs the four stages of `shoebox sort` — scan, meta, plan,
// transfer — one after the other, with an on-disk store between them so that
// memory stays flat however many files there are. Each stage is a method, so
// the bench times exactly the code the CLI runs.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/shoebox-photos/shoebox/internal/archive"
	"github.com/shoebox-photos/shoebox/internal/filter"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/importlog"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/recovery"
	"github.com/shoebox-photos/shoebox/internal/shift"
	"github.com/shoebox-photos/shoebox/internal/storage"
	"github.com/shoebox-photos/shoebox/internal/store"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// Config is everything a run needs to know.
type Config struct {
	Sources    []string
	Dest       string
	Template   *layout.Template
	UnknownDir string // folder under Dest for files with no usable date
	NoModTime  bool   // a modification time alone is not a capture date: such files go to UnknownDir
	// TrustModTime (--mtime) takes every modification time for a capture
	// date; by default one that looks like a copy's is not (modtime.go).
	TrustModTime bool
	Mode         transfer.Mode
	Workers      int // files copied at once; 0 = chosen from the storage
	MetaWorkers  int // headers read at once; 0 = chosen from the storage
	DryRun       bool
	Dedup        bool
	Verify       bool
	FollowLinks  bool
	Hidden       bool
	VideoTZ      *time.Location
	Args         []string    // the command line, recorded in the journal
	Events       func(Event) // called for each planned and performed operation and each problem; may be nil
	StoreDir     string      // where the run store lives; "" means DEST/.shoebox (a temp dir for dry runs)
	FS           fsx.FS      // every transfer and content comparison goes through this seam; nil = fsx.OS (tests inject faults)

	// DeleteDuplicates (--mode move only) removes a source that duplicates a
	// file kept in the library, once that copy is durable and verified.
	DeleteDuplicates bool

	// PhotoTZ is the zone photo cameras' clocks were set to (--tz): a photo
	// date with no offset in its file takes this zone's. nil = none assumed.
	PhotoTZ *time.Location

	// DateTags is the precedence of date fields (--date-tags); the zero
	// Order is meta's default (MWG).
	DateTags meta.Order

	// Filter leaves files out of the import (--include, --since …); each
	// one left out is counted and reported with its reason. nil: none.
	Filter *filter.Filter

	// Checksum (--checksum) trusts no stat data: a file the import history
	// recognises is compared by content with its library copy, and the
	// library's hash index is not reused.
	Checksum bool
	// Reimport (--reimport) brings back files imported before and since
	// deleted or changed in the library.
	Reimport bool
	// Backup (--backup) is a folder that gets a second copy of every
	// file transferred, under the same path as in the library, written in
	// the same pass over the source (copy, move and reflink modes; a move
	// removes its source only once both copies are durable and verified).
	// "": none.
	Backup string
	// NoHistory runs without the import history: nothing recalled, nothing
	// recorded. For the bench only (--history off), which measures what
	// the history costs; no command line sets it.
	NoHistory bool

	// Shift corrects cameras' clocks (--shift): the chosen capture date
	// of each file a rule names moves by its amount before the layout.
	Shift *shift.Rules
}

// Run is one invocation of the pipeline.
type Run struct {
	cfg      Config
	dest     string // absolute
	sources  []string
	archives *archive.Set // the sources that are archives; nil when none
	albums   albumTitles  // Takeout album titles, by folder (albums.go)
	st       *store.Store
	stDir    string
	hashes   *store.Store // persistent content index of the library (a dry run's private copy of it); nil until openIndex
	hashCopy string       // the temp folder holding a dry run's copy of the index
	index    *hashIndex   // the sums in hashes, written in batches
	unlock   func() error
	exec     *transfer.Executor
	libRoot  *fsx.Root // the library, opened once for the transfer (real runs)
	bakRoot  *fsx.Root // the backup folder, likewise; nil without --backup
	jw       *journal.Writer
	sum      Summary
	nextSeq  uint64
	nextOp   uint64
	runID    string
	backup   string // absolute --backup folder, "" for none
	journalP string

	imports          *importlog.Log          // the library's import history; nil when unusable
	remember         *importlog.Recorder     // writes to it; nil in dry runs and until a real run records (recorder)
	importsReadOnly  bool                    // a real run's history, open read-only until the run records something
	pendingKeeps     []importlog.Entry       // landings to keep (keepLanding) once the history is open for writing
	interruptedMoves []recovery.RunMoves     // moves within the library of runs that did not finish (followInterruptedMoves)
	pendingImports   []importlog.Entry       // landed files waiting for the executor's Flush
	pendingFollows   [][2]string             // library files moved within it (from, to), waiting likewise
	recallOn         bool                    // the history has entries: the scan files sources by identity
	sourceSums       bool                    // dedup kept some source's hash (keySum) for the library index
	renumbering      map[string]bool         // source root → its filesystem numbers inodes afresh (recall.go)
	resumedCounters  map[string]map[int]bool // folded library folder → {counter}s the runs this one resumes gave (counter.go)
	landedBySrc      map[string][]landedFile // source or shot → where the runs this one resumes landed it (landed.go)
	damagedWarned    bool                    // a damaged history record was reported
	shifts           shiftUse                // which --shift rules named a file (shiftuse.go)
	indexCur         *store.Cursor           // dedup's cursor over the library index (scanIndex)

	now           time.Time // when the run started: "recent" modification times are judged from it
	lastProgress  time.Time
	doing         string             // the activity named in progress events (see begin)
	plannedBytes  int64              // bytes of the planned transfers
	companions    int64              // planned transfers that travel with a photo
	reflinkWarned bool               // the reflink fallback was reported (warnReflinkFallback)
	dupsFound     int64              // duplicates marked by the dedup pass
	keptForOthers int64              // of them, duplicates of a source kept in the run (dupsidecar.go)
	stop          context.CancelFunc // ends the transfer stage early
	stopped       error              // why it ended early (wraps ErrStopped); set under stopMu by the workers
	stopMu        sync.Mutex
}

// sameFolder reports whether two existing paths name one folder (through
// a symlink or a bind mount).
func sameFolder(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// unwrapPath drops the *PathError wrapper whose path the message already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// recoverInterrupted finishes what a killed run left half done (temp files,
// a cross-device move whose copy landed but whose source was not yet
// removed) before this run plans anything. Dry runs only look.
func (r *Run) recoverInterrupted() error {
	if r.unlock == nil {
		return nil
	}
	// Every earlier run ended cleanly (the usual case): their journals'
	// tails say so, and nothing needs reading.
	if clean, err := journal.AllClosed(filepath.Join(StateDir(r.dest), "journal")); err == nil && clean {
		return nil
	}
	st, err := recovery.Interrupted(context.Background(), r.dest, r.cfg.FS)
	for _, p := range st.Problems {
		r.emit(Event{Type: "warning", Stage: "recover", Reason: p})
	}
	if err != nil {
		return fmt.Errorf("finish the interrupted run in %s: %w", quote.Path(r.dest), err)
	}
	r.followInterruptedMoves()
	return nil
}

// chooseWorkers picks the transfer workers from the storage under the
// sources and the destination when none were asked for (fewer on spinning
// disks and network shares), and says what it chose and why; then the
// header readers (more on network shares, where each read waits a round
// trip).
func (r *Run) chooseWorkers() {
	if r.cfg.Workers > 0 && r.cfg.MetaWorkers > 0 {
		return
	}
	probe := func(paths ...string) []storage.Info {
		var out []storage.Info
		for _, p := range paths {
			if in, err := storage.Probe(p); err == nil {
				out = append(out, in)
			}
		}
		return out
	}
	src := probe(r.sources...)
	if r.cfg.Workers <= 0 {
		n, why := storage.Workers(src, probe(r.dest), 0)
		r.cfg.Workers = n
		r.emit(Event{Type: "info", Stage: "transfer", Count: int64(n), Reason: why})
	}
	if r.cfg.MetaWorkers <= 0 {
		n, why := storage.MetaWorkers(src, runtime.NumCPU(), r.cfg.Workers)
		r.cfg.MetaWorkers = n
		if why != "" {
			r.emit(Event{Type: "info", Stage: "meta", Count: int64(n), Reason: why})
		}
	}
}

// Workers says how many files this run copies at once and how many
// headers it reads at once, as asked for or chosen from the storage.
func (r *Run) Workers() (copying, headers int) { return r.cfg.Workers, r.cfg.MetaWorkers }

// ErrConfig marks a configuration that cannot work (the command line's
// fault, not the disk's): the CLI answers it with its usage exit code.
var ErrConfig = errors.New("invalid arguments")

// StateDir is where shoebox keeps its state inside a library.
func StateDir(dest string) string { return filepath.Join(dest, ".shoebox") }

// Open validates the configuration and opens the run store.
func Open(cfg Config) (*Run, error) {
	r := &Run{cfg: cfg, sum: newSummary(), runID: journal.NewRunID(time.Now()), now: time.Now()}
	if err := r.checkDeleteDuplicates(); err != nil {
		return nil, err
	}
	if err := r.resolvePaths(); err != nil {
		return nil, err
	}
	if err := r.destNotABackup(); err != nil {
		return nil, err
	}
	r.chooseWorkers()
	if r.cfg.FS == nil {
		r.cfg.FS = fsx.OS
	}
	if err := r.openArchives(); err != nil {
		return nil, err
	}
	if r.cfg.UnknownDir == "" {
		r.cfg.UnknownDir = "unknown"
	}
	if err := r.openStores(); err != nil {
		err = r.asDriveStop(err)
		r.Close()
		return nil, err
	}
	if err := r.recoverInterrupted(); err != nil {
		err = r.asDriveStop(err)
		r.Close()
		return nil, err
	}
	if err := r.claimBackup(); err != nil {
		err = r.asDriveStop(err)
		r.Close()
		return nil, err
	}
	r.dropInterruptedBackupCopies()
	r.followInterruptedRelayouts()
	return r, nil
}

func (r *Run) resolvePaths() error {
	if len(r.cfg.Sources) == 0 {
		return fmt.Errorf("%w: no source folder given", ErrConfig)
	}
	dest, err := filepath.Abs(r.cfg.Dest)
	if err != nil {
		return fmt.Errorf("destination %s: %w", quote.Path(r.cfg.Dest), err)
	}
	r.dest = dest
	if err := fsx.OutsideState("the library", r.cfg.Dest); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	for _, s := range r.cfg.Sources {
		abs, err := filepath.Abs(s)
		if err != nil {
			return fmt.Errorf("source %s: %w", quote.Path(s), err)
		}
		if abs == dest || sameFolder(abs, dest) {
			return fmt.Errorf("%w: source %s is the destination itself: sort into a different folder", ErrConfig, quote.Path(s))
		}
		// Checked before anything is created, so a mistyped source leaves no
		// empty library behind.
		st, err := os.Stat(abs)
		if err != nil {
			return fmt.Errorf("source %s: %w", quote.Path(s), unwrapPath(err))
		}
		if err := r.canMoveFrom(abs, st); err != nil {
			return err
		}
		r.sources = append(r.sources, abs)
	}
	return r.resolveBackup()
}

// canMoveFrom refuses a move out of a source whose files cannot be
// removed (no write permission, a read-only mount: a card's lock switch)
// before anything is copied, in one sentence rather than one failure per
// file. An archive source is refused a move on its own terms.
func (r *Run) canMoveFrom(abs string, st os.FileInfo) error {
	if r.cfg.Mode != transfer.Move || (st.Mode().IsRegular() && archive.Is(abs)) {
		return nil
	}
	dir := abs
	if !st.IsDir() {
		dir = filepath.Dir(abs)
	}
	if err := fsx.CanRemoveFrom(dir); err != nil {
		return fmt.Errorf("%w: --mode move cannot remove files from the source %s: %v; use --mode copy to leave them there",
			ErrConfig, quote.Path(dir), fsx.Bare(err))
	}
	return nil
}

// resolveBackup checks --backup: a mode that copies bytes (copy, move,
// reflink), no --delete-duplicates, and a folder apart from
// the library and every source (a backup inside a source would be sorted
// next time; one inside the library would be a second library in it).
func (r *Run) resolveBackup() error {
	if r.cfg.Backup == "" {
		return nil
	}
	switch {
	case r.cfg.Mode == transfer.Hardlink || r.cfg.Mode == transfer.Symlink:
		return fmt.Errorf("%w: --backup writes a second copy from the bytes it copies, and --mode %s copies none (the library would only point at the sources): use --mode copy, move or reflink with --backup", ErrConfig, r.cfg.Mode)
	case r.cfg.DeleteDuplicates:
		return fmt.Errorf("%w: --delete-duplicates removes sources whose only copy is in the library, never in the backup: it cannot be combined with --backup", ErrConfig)
	}
	abs, err := filepath.Abs(r.cfg.Backup)
	if err != nil {
		return fmt.Errorf("--backup %s: %w", quote.Path(r.cfg.Backup), err)
	}
	if err := fsx.OutsideState("--backup", r.cfg.Backup); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	// By name and by identity, each way round: a link, a bind mount or
	// another spelling of a name does not make a folder apart.
	apart := func(what, p string) error {
		if fsx.Within(abs, p) || fsx.Within(p, abs) {
			return fmt.Errorf("%w: --backup %s and the %s %s overlap: the backup must be a folder of its own, outside both", ErrConfig, quote.Path(r.cfg.Backup), what, quote.Path(p))
		}
		return nil
	}
	if err := apart("library", r.dest); err != nil {
		return err
	}
	for _, s := range r.sources {
		if err := apart("source", s); err != nil {
			return err
		}
	}
	if err := backupThere(r.cfg.Backup, abs); err != nil {
		return err
	}
	r.backup = abs
	return nil
}

// backupThere refuses a backup folder that does not exist: shoebox never
// creates one, so that a backup drive that is not connected (its mount
// point an empty folder on the system disk) or a typo is never taken for
// a backup and filled.
func backupThere(given, abs string) error {
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return backupAway{fmt.Errorf("%w: backup folder %s is not there: is its drive connected? Connect it; a new backup folder must be made first (shoebox never creates one, so that a drive that is not mounted is not replaced by its empty mount point)", ErrConfig, quote.Path(given))}
	case err != nil:
		return fmt.Errorf("%w: backup folder %s: %w", ErrConfig, quote.Path(given), fsx.Bare(err))
	case !fi.IsDir():
		return fmt.Errorf("%w: backup folder %s is not a folder", ErrConfig, quote.Path(given))
	}
	return nil
}

func (r *Run) openStores() error {
	if err := r.prepareStateDir(); err != nil {
		return err
	}
	// Scratch: the store starts empty, whatever a killed run left there.
	st, err := store.Open(r.stDir, store.Options{Scratch: true})
	if err != nil {
		return fmt.Errorf("open run store: %w", err)
	}
	r.st = st
	if r.cfg.DryRun && r.cfg.StoreDir == "" {
		// The real run opens these in the library: what it would refuse
		// there, the dry run foretells.
		if err := store.Check(filepath.Join(StateDir(r.dest), "run")); err != nil {
			return fmt.Errorf("open run store: %w", err)
		}
		if err := store.Check(filepath.Join(StateDir(r.dest), "index")); err != nil {
			return fmt.Errorf("open library index: %w", err)
		}
	}
	r.openImports()
	return nil
}

// openIndex opens the library index the first time the run needs it:
// to compare new files with the library (dedup), or to file one the plan
// puts in the library (with dedup off too: the index must learn of every
// file shoebox puts there, libindex.go). A run with nothing to do (every
// source recalled from the import history) never opens it, and so never
// writes to it (opening a store writes its manifest and log anew).
func (r *Run) openIndex() error {
	if r.index != nil {
		return nil
	}
	warn := func(msg string) { r.emit(Event{Type: "warning", Stage: "plan", Reason: msg}) }
	var h *store.Store
	var err error
	if r.cfg.DryRun {
		h, err = r.copyLibraryIndex(StateDir(r.dest), warn)
	} else if err = r.rootsPresent(); err == nil {
		h, err = openLibraryIndex(StateDir(r.dest), warn)
		err = r.asDriveStop(err)
	}
	if err != nil {
		return err
	}
	r.hashes, r.index = h, newHashIndex(h, r.dest)
	return nil
}

// openLibraryIndex opens the library's hash index in the state folder. It
// is a cache of what hashing the library gives: one that cannot be opened
// is rebuilt empty, and warn says so (the library is then hashed again).
func openLibraryIndex(state string, warn func(string)) (*store.Store, error) {
	dir := LibraryIndexDir(state)
	h, err := store.Open(dir, store.Options{Disposable: true})
	if err != nil {
		return nil, fmt.Errorf("open library index: %w", err)
	}
	if why := h.Discarded(); why != nil {
		warn(indexRebuiltWarning(dir, why, "it was rebuilt empty, so the library's files are hashed again"))
	}
	return h, nil
}

func indexRebuiltWarning(dir string, why error, what string) string {
	return fmt.Sprintf("the library's hash index %s could not be opened (%v): %s", quote.Path(dir), why, what)
}

// copyLibraryIndex gives a dry run what openLibraryIndex gives the real
// run, without writing to the library: a private copy of the index, in a
// temp folder, that the dry run reads and updates exactly as the real run
// does its index (the same walk when it is not whole, the same listing
// of the folders files land in when it is), so that the dry run decides
// what the run would, and costs what it would, not a walk and hash of the
// whole library. No index, or one that cannot be opened, gives an empty
// copy: the real run would start with an empty index too.
func (r *Run) copyLibraryIndex(state string, warn func(string)) (*store.Store, error) {
	tmp, err := os.MkdirTemp("", "shoebox-dry-run-index-")
	if err != nil {
		return nil, fmt.Errorf("create temp store: %w", err)
	}
	r.hashCopy = tmp
	src, dst := LibraryIndexDir(state), filepath.Join(tmp, "index")
	if _, err := os.Lstat(src); err == nil {
		h, err := store.CopyOf(src, dst)
		if err == nil {
			return h, nil
		}
		warn(indexRebuiltWarning(src, err, "the run would rebuild it empty and hash the library's files again"))
	}
	h, err := store.Open(dst, store.Options{Scratch: true})
	if err != nil {
		return nil, fmt.Errorf("open library index: %w", err)
	}
	return h, nil
}

// prepareStateDir picks the store's folder. A dry run must not touch the
// library, so its store lives in a temp folder; a real run keeps it in the
// library, locked, so two runs cannot interleave.
func (r *Run) prepareStateDir() error {
	if r.cfg.StoreDir != "" {
		r.stDir = r.cfg.StoreDir
		return nil
	}
	if r.cfg.DryRun {
		dir, err := os.MkdirTemp("", "shoebox-dry-run-")
		if err != nil {
			return fmt.Errorf("create temp store: %w", err)
		}
		r.stDir = dir
		return nil
	}
	state := StateDir(r.dest)
	if err := os.MkdirAll(state, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", quote.Path(state), err)
	}
	unlock, err := store.Lock(state)
	if err != nil {
		return fmt.Errorf("library %s is busy: %w", quote.Path(r.dest), err)
	}
	r.unlock = unlock
	r.stDir = filepath.Join(state, "run")
	// The library is held open from its first write on, not from the
	// transfer's start: a drive pulled in between is then told from the
	// empty folder its mount point becomes (see rootsPresent), where
	// the transfer would otherwise make the library anew and fill it.
	lib, err := fsx.OpenRoot(r.dest)
	if err != nil {
		return fmt.Errorf("open the library %s: %w", quote.Path(r.dest), fsx.Bare(err))
	}
	r.libRoot = lib
	return nil
}

// Close releases the stores and the library lock; a dry run's temp store is removed.
func (r *Run) Close() error {
	// The journal and the library and backup folders, if a transfer
	// that stopped early left them open.
	errs := []error{r.closeExecutor(ErrStopped)}
	if r.st != nil {
		errs = append(errs, r.st.Close())
	}
	if r.hashes != nil {
		errs = append(errs, r.hashes.Close())
	}
	if r.imports != nil {
		errs = append(errs, r.imports.Close())
	}
	// The run store is scratch: a later run rebuilds everything it needs,
	// so it is removed rather than left to take disk space in the library.
	if r.cfg.StoreDir == "" && r.stDir != "" {
		errs = append(errs, store.Remove(r.stDir))
	}
	if r.hashCopy != "" {
		errs = append(errs, os.RemoveAll(r.hashCopy))
	}
	if r.unlock != nil {
		errs = append(errs, r.unlock())
	}
	if r.archives != nil {
		errs = append(errs, r.archives.Close())
	}
	return errors.Join(errs...)
}

// All runs every stage in order.
func (r *Run) All(ctx context.Context) error {
	for _, stage := range []func(context.Context) error{r.Scan, r.Meta, r.Plan, r.Transfer} {
		if err := stage(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Summary is what the run did so far.
func (r *Run) Summary() Summary { return r.sum }

// Dest is the absolute destination.
func (r *Run) Dest() string { return r.dest }

// JournalPath is the journal of this run, "" for dry runs or before transfer.
func (r *Run) JournalPath() string { return r.journalP }

func (r *Run) emit(ev Event) {
	if r.cfg.Events != nil {
		r.cfg.Events(ev)
	}
}

// metaWorkers is how many headers are read at once (see chooseWorkers).
func (r *Run) metaWorkers() int {
	if r.cfg.MetaWorkers > 0 {
		return r.cfg.MetaWorkers
	}
	return max(storage.LocalMetaWorkers(runtime.NumCPU()), r.cfg.Workers)
}
