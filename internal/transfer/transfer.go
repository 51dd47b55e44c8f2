// Package transfer is the one executor of every mutation shoebox makes to a
// filesystem. Each Op lands crash-safely (temp file, fsync, no-replace
// rename), never overwrites, and fails whole: on any error nothing is left at
// the destination and the source is untouched. A dry run is the same code
// path recording the mutations instead of performing them.
package transfer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/shoebox-photos/shoebox/internal/digest"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// Op is one file to bring to its destination. It carries no journal
// number: the executor numbers every operation it journals itself, from the
// journal (see journalSeq), so two files can never share one.
type Op struct {
	Mode    Mode
	Src     string    // source file
	Dst     string    // final destination path; its directory may not exist yet
	Size    int64     // as scanned
	ModTime time.Time // as scanned; zero skips the mtime check
	Verify  bool      // compare the copy with its source before it lands, whatever the executor's option
	// LandModTime, when set, is the mtime a copy (without Backup) lands
	// with instead of its
	// source's, and the one its journal records (so recovery and undo know
	// the file): check --repair restores a library file with the mtime
	// the import history recorded, whatever its backup copy's is (a FAT
	// drive keeps it to two seconds).
	LandModTime time.Time
	// FollowLink says Src was scanned through a symbolic link (--follow-links)
	// and may be one: the file it resolves to is the source. Copy-like modes
	// copy its bytes; a move copies them too and leaves the link and its
	// target where they are (moving the target out from under a link the user
	// made elsewhere, or deleting it, is never what "move" meant); hardlink
	// links the target. Without it, a link at Src is refused.
	FollowLink bool
	// Backup, when set, is where a second copy goes (--backup): under the
	// executor's backup root, written from the same reads of the source
	// as the first (Copy, Reflink and Move: a move then copies, and removes
	// its source only after both copies), durable and verified against it, and
	// journaled as its own Copy so that undo removes it too.
	Backup string
}

// Result reports what Do did (or, in a dry run, would do).
type Result struct {
	Op  Op
	Err error // nil on success, else an *Error naming mode and paths
	// Landed is true once the file is at its destination, whole (renamed
	// into place, linked). An Err with Landed set is about what came after:
	// the journal record, or removing a moved source.
	Landed   bool
	Fallback string   // e.g. "reflink unsupported, copied"
	Dev, Ino uint64   // identity of what was created (zero in a dry run)
	Actions  []string // mutations performed or predicted, temp names as "<tmp>"
	// Backup is the second copy's path once it is in place (or, in a dry
	// run, predicted); BackupKept says an identical file was there already
	// (a run killed between the two renames) and was kept as the copy.
	Backup     string
	BackupKept bool
	// Sum is the BLAKE3 of the bytes copied into place, when the executor
	// hashes (Options.Hash) and the bytes passed through it: a copy, or a
	// move across devices. A rename, a link or a clone reads no byte and
	// has none.
	Sum *digest.Sum
}

// Options configure an Executor.
type Options struct {
	FS     fsx.FS // nil means fsx.OS
	DryRun bool
	Verify bool // compare the copy with the source before it lands
	// Hash records each copy's content hash (Result.Sum) from the bytes as
	// they are copied, so that the import history knows every library file's
	// content and check --read-data can find it damaged. The bytes then go
	// by reads and writes, never by the kernel's copy_file_range, which
	// would show the process none of them.
	Hash    bool
	Journal *journal.Writer // may be nil
	// Library, when set, is the absolute library root every Op lands in:
	// Do then refuses a destination outside it or naming shoebox's own
	// files, and never creates or writes through a folder inside it that
	// is a symbolic link.
	Library string
	// Backup is the absolute root of --backup: Op.Backup must lie in it,
	// with the same rules as the library (no reserved names, no folder
	// that is a link).
	Backup string
	// LibraryRoot and BackupRoot, when set, are the library and the
	// backup folder opened when the run started: every operation under
	// them goes through them (fsx.Pin), so that none lands in a folder
	// that took their name since (an unmounted drive's empty mount
	// point), and no moved source is removed unless both are still
	// there.
	LibraryRoot, BackupRoot *fsx.Root
}

// Executor performs Ops. It is safe for concurrent use.
type Executor struct {
	tempsKept atomic.Int64 // temps that a failure could not remove (removeTemp)

	fs      fsx.FS
	dryRun  bool
	verify  bool
	hash    bool
	journal *journal.Writer
	library string
	backup  string
	roots   []namedRoot

	mkdirMu sync.Mutex // serialises directory creation so each is made and recorded once

	stateOnce   sync.Once
	stateIDList []fileID // DEST/.shoebox and its folders (stateIDs)

	mu    sync.Mutex
	dirs  map[string]bool     // directories known to exist (or, in a dry run, planned)
	dirty map[string]struct{} // directories whose entries changed since the last Flush
}

// New returns an Executor.
func New(opt Options) *Executor {
	fsys := opt.FS
	if fsys == nil {
		fsys = fsx.OS
	}
	var roots []namedRoot
	for _, nr := range []namedRoot{{"library", opt.LibraryRoot}, {"backup", opt.BackupRoot}} {
		if nr.root != nil {
			roots = append(roots, nr)
			fsys = fsx.Pin(fsys, nr.root)
		}
	}
	return &Executor{
		roots:   roots,
		fs:      fsys,
		dryRun:  opt.DryRun,
		verify:  opt.Verify,
		hash:    opt.Hash,
		journal: opt.Journal,
		library: opt.Library,
		backup:  opt.Backup,
		dirs:    make(map[string]bool),
		dirty:   make(map[string]struct{}),
	}
}

// namedRoot is a root the executor writes under, and what it is.
type namedRoot struct {
	what string // "library" or "backup"
	root *fsx.Root
}

// DriveGoneError says that the drive of the library or of the backup
// folder went away during the run, or is there but failing: every
// operation answered with an I/O error, or every write refused as the
// system made it read-only (the embedded GoneError's Cause). It wraps
// fsx.ErrGone, and the cause.
type DriveGoneError struct {
	What string // "library" or "backup"
	*fsx.GoneError
}

func (e *DriveGoneError) Error() string {
	return fmt.Sprintf("the %s drive at %s %s", e.What, quote.Path(e.Mount), e.Happened())
}

// Happened says what became of the drive: "went away", "became
// read-only", "failed with an I/O error (...)".
func (e *DriveGoneError) Happened() string {
	switch {
	case e.Cause == nil:
		return "went away"
	case errors.Is(e.Cause, syscall.EROFS):
		return "became read-only"
	case errors.Is(e.Cause, syscall.EIO):
		return "failed with an I/O error"
	}
	return fmt.Sprintf("failed (%v)", e.Cause)
}

func (e *DriveGoneError) Unwrap() error { return e.GoneError }

// TempsKept is how many temps a failure left behind because they could
// not be removed (their drive failing): their journal Intents are left
// open, so the run must leave its journal unfinished (CloseUnfinished) for
// the next run's recovery to remove them.
func (e *Executor) TempsKept() int64 { return e.tempsKept.Load() }

// Gone reports, between files, whether the library's or the backup's
// drive went away since the run opened them, or fails to answer: nil
// while both are there.
func (e *Executor) Gone() *DriveGoneError {
	for _, nr := range e.roots {
		if err := nr.root.Present(); err != nil {
			var g *fsx.GoneError
			errors.As(err, &g)
			return &DriveGoneError{What: nr.what, GoneError: g}
		}
	}
	return nil
}

// DriveFault tells whether err, the error of an operation, is the
// library's or the backup's drive failing rather than this one file: the
// drive went away, or an operation on a path under one of them (never a
// source's) failed with EROFS, which every later file would meet too, or
// with EIO while the drive no longer shows its root folder either. It
// returns nil for any other error (an EIO on one file of a drive that
// answers otherwise fails that file alone).
func (e *Executor) DriveFault(err error) *DriveGoneError {
	if err == nil {
		return nil
	}
	if g := (*DriveGoneError)(nil); errors.As(err, &g) {
		return g
	}
	for _, nr := range e.roots {
		if g := RootFault(err, nr.what, nr.root); g != nil {
			return g
		}
	}
	return nil
}

// RootFault is DriveFault for one root, named what ("library",
// "backup"): for the errors met before the executor exists (the
// library's state folder, the backup's record).
func RootFault(err error, what string, root *fsx.Root) *DriveGoneError {
	if err == nil || root == nil {
		return nil
	}
	var cause syscall.Errno
	for _, errno := range []syscall.Errno{syscall.EIO, syscall.EROFS} {
		if errors.Is(err, errno) {
			cause = errno
		}
	}
	if cause == 0 {
		return nil
	}
	for _, p := range errPaths(err) {
		if name := root.Name(); p != name && !strings.HasPrefix(p, name+string(filepath.Separator)) {
			continue
		}
		if cause == syscall.EROFS {
			return &DriveGoneError{What: what, GoneError: root.Failed(cause)}
		}
		// One I/O error may be one bad spot (that file fails alone); a
		// drive that also fails to show its root folder is failing.
		var g *fsx.GoneError
		if errors.As(root.Present(), &g) {
			if g.Cause == nil {
				g.Cause = cause
			}
			return &DriveGoneError{What: what, GoneError: g}
		}
		return nil
	}
	return nil
}

// errPaths lists the paths that the path and link errors in err's tree
// name: where the operations that failed were made.
func errPaths(err error) []string {
	var out []string
	var walk func(error)
	walk = func(err error) {
		switch x := err.(type) {
		case nil:
			return
		case *fs.PathError:
			out = append(out, filepath.Clean(x.Path))
		case *os.LinkError:
			out = append(out, filepath.Clean(x.Old), filepath.Clean(x.New))
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				walk(e)
			}
		}
	}
	walk(err)
	return out
}

// Do carries out op and reports the outcome. A copy is a batch of one:
// Stage, Sync, Publish.
func (e *Executor) Do(ctx context.Context, op Op) Result {
	s, res := e.Stage(ctx, op)
	if s == nil {
		return res
	}
	e.Sync([]*Staged{s})
	return s.Publish()
}

// fail finishes the op as failed with err, once.
func (r *run) fail(err error) {
	r.res.Err = &Error{Mode: r.op.Mode, Src: r.op.Src, Dst: r.op.Dst, Err: err}
	r.journalFinal(journal.Failed, err)
	if b := r.bak; b != nil {
		if b.res.Landed {
			b.journalFinal(journal.Done, nil) // in place, whole: undo must know it
		} else {
			b.journalFinal(journal.Failed, err)
		}
	}
}

// Flush makes durable every directory entry created since the last Flush
// and then the journal. A journal Done record only counts once Flush has
// returned nil. A batch that touched a few directories fsyncs each; one that
// touched many (a library by day spreads files thin) syncs each filesystem
// once with syncfs, which costs one journal commit instead of one per folder.
func (e *Executor) Flush() error {
	if e.dryRun {
		return nil
	}
	e.mu.Lock()
	dirs := make([]string, 0, len(e.dirty))
	for d := range e.dirty {
		dirs = append(dirs, d)
	}
	clear(e.dirty)
	e.mu.Unlock()
	slices.Sort(dirs)

	errs := e.syncDirs(dirs)
	if e.journal != nil {
		if err := e.journal.Sync(); err != nil {
			errs = append(errs, fmt.Errorf("flush: sync journal: %w", err))
		}
	}
	return errors.Join(errs...)
}

// syncFSThreshold is the number of dirty directories above which one syncfs
// per filesystem is cheaper than an fsync per directory.
const syncFSThreshold = 4

func (e *Executor) syncDirs(dirs []string) []error {
	if len(dirs) > syncFSThreshold {
		if err := e.syncFilesystems(dirs); err == nil {
			return nil
		}
		// syncfs unavailable or failed: fall back to per-directory fsync,
		// which reports the failing directory by name.
	}
	var errs []error
	for _, d := range dirs {
		// A directory removed since is no longer ours to make durable.
		if err := e.fs.SyncDir(d); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("flush: sync dir %s: %w", quote.Path(d), err))
		}
	}
	return errs
}

// syncFilesystems calls syncfs once per device among dirs.
func (e *Executor) syncFilesystems(dirs []string) error {
	seen := map[uint64]bool{}
	for _, d := range dirs {
		info, err := e.fs.Stat(d)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		dev, _ := fsx.DevIno(info)
		if seen[dev] {
			continue
		}
		seen[dev] = true
		if err := e.fs.SyncFS(d); err != nil {
			return err
		}
	}
	return nil
}

// syncChain makes dir's entries durable now, and with them every directory
// above it created since the last Flush (a new directory's own entry lives
// in its parent): what a cross-device move needs before deleting its source.
func (e *Executor) syncChain(dir string) error {
	for d := dir; ; d = filepath.Dir(d) {
		if err := e.fs.SyncDir(d); err != nil {
			return fmt.Errorf("sync dir %s: %w", quote.Path(d), err)
		}
		parent := filepath.Dir(d)
		if parent == d || !e.isDirty(parent) {
			return nil
		}
	}
}

func (e *Executor) isDirty(dir string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	_, ok := e.dirty[dir]
	return ok
}

func (e *Executor) markDirty(dirs ...string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, d := range dirs {
		e.dirty[d] = struct{}{}
	}
}

// journalSeq numbers one operation in the executor's journal. Recovery
// pairs an Intent with its outcome by this number, so each file (and each
// folder) the run touches gets its own: a sidecar that shared its photo's
// number would let the photo's Done stand for the sidecar's unfinished
// move. Without a journal (a dry run) nothing is numbered.
func (e *Executor) journalSeq() uint64 {
	if e.journal == nil || e.dryRun {
		return 0
	}
	return e.journal.NextSeq()
}

func (e *Executor) knownDir(dir string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.dirs[dir]
}

func (e *Executor) rememberDirs(dirs ...string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, d := range dirs {
		e.dirs[d] = true
	}
}

// tempMarker is in every temp name; layout reserves every name that has
// it, so no planned destination can ever take a temp's name.
const tempMarker = layout.TempMarker

// maxTempBase keeps ".<base>.shoebox-tmp-<16 hex>" within the usual 255-byte
// name limit even for a destination name that is itself near the limit.
const maxTempBase = 200

// isTempName reports whether name has the form of the executor's temp
// files. It is a sanity check on paths a journal recorded, never a reason
// to delete a file: a user's file can have that form too.
func isTempName(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tempMarker)
}

// tempPrefix is the temp path for dst without its random suffix.
func tempPrefix(dst string) string {
	dir, base := filepath.Split(dst)
	return filepath.Join(dir, "."+truncateName(base, maxTempBase)+tempMarker)
}

// truncateName cuts name to at most max bytes without splitting a UTF-8
// sequence.
func truncateName(name string, max int) string {
	if len(name) <= max {
		return name
	}
	cut := max
	for cut > 0 && name[cut]&0xC0 == 0x80 {
		cut--
	}
	return name[:cut]
}
