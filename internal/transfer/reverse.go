package transfer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/shoebox-photos/shoebox/internal/digest"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// ErrLeftInPlace marks a reversal (or recovery) the executor refused
// because it could not prove the file is shoebox's own, unchanged work.
// Nothing was changed; the reason says what differs.
var ErrLeftInPlace = errors.New("left in place")

// Reversal reports what Reverse or CompleteMove did (or, in a dry run,
// would do) for one journaled operation.
type Reversal struct {
	Entry   journal.Entry // the Done entry being reversed (or the Intent being completed)
	Already bool          // nothing was left to do: an earlier, interrupted undo did it
	Err     error         // errors.Is(Err, ErrLeftInPlace) for a refusal
	Actions []string      // mutations performed or predicted
}

// Reverser undoes the Done operations of an earlier run through its
// executor, the one gate for mutations.
//
// Only undo uses it, yet it stays in this package, as do RemoveTemp and
// CompleteMove below, which package recovery uses: they act through the
// executor's unexported parts (its filesystem, dry run and journal, the
// folders it fsyncs, Do), and moving them out would take exporting those,
// so that the executor would no longer be the one place a change to a
// library is made.
type Reverser struct {
	e *Executor

	mu   sync.Mutex
	gone map[string]bool // dry run: paths the undo would have removed by now
}

// Reverser returns a Reverser working through e (and e's journal, DryRun
// and FS).
func (e *Executor) Reverser() *Reverser { return &Reverser{e: e} }

// Reverse undoes one Done operation of an earlier run, journaling it in
// the executor's journal with the original Seq: an Intent before a removal,
// then Undone, or Failed with the reason. Entries it writes carry no Tmp, so
// recovery never mistakes them for a transfer in flight. Every step is
// idempotent, so an undo killed halfway is finished by running it again.
func (u *Reverser) Reverse(ctx context.Context, done journal.Entry) Reversal {
	done.Tmp = ""
	rv := &reversal{u: u, e: u.e, ctx: ctx, res: Reversal{Entry: done}}
	if err := ctx.Err(); err != nil {
		rv.res.Err = err
		return rv.res
	}
	var err error
	switch done.Action {
	case journal.Mkdir:
		err = rv.removeDir()
	case journal.Move:
		err = rv.moveBack()
	case journal.Copy, journal.Reflink, journal.Hardlink, journal.Symlink:
		err = rv.removeCreated()
	case journal.RemoveDuplicate:
		err = rv.restoreDuplicate()
	default:
		err = fmt.Errorf("%s of %s: not a reversible operation: %w", done.Action, quote.Path(done.Dst), ErrLeftInPlace)
	}
	rv.finish(err)
	return rv.res
}

// reversal carries one Reverse call.
type reversal struct {
	u         *Reverser
	e         *Executor
	ctx       context.Context
	res       Reversal
	journaled bool
}

func (rv *reversal) record(format string, args ...any) {
	rv.res.Actions = append(rv.res.Actions, fmt.Sprintf(format, args...))
}

func (rv *reversal) append(state journal.State, cause error) error {
	if rv.e.journal == nil || rv.e.dryRun {
		return nil
	}
	entry := rv.res.Entry
	entry.State = state
	entry.Err = ""
	if cause != nil {
		entry.Err = cause.Error()
	}
	if err := rv.e.journal.Append(entry); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// intent is journaled before the first mutation, so a crash leaves a
// record of what the undo was about to do.
func (rv *reversal) intent() error {
	if rv.journaled {
		return nil
	}
	rv.journaled = true
	return rv.append(journal.Intent, nil)
}

func (rv *reversal) finish(err error) {
	state := journal.Undone
	if err != nil {
		state = journal.Failed
	}
	if jerr := rv.append(state, err); err == nil && jerr != nil {
		err = jerr
	}
	rv.res.Err = err
}

// refuse is a reversal declined for safety: nothing changes.
func refuse(path, format string, args ...any) error {
	return fmt.Errorf("%s %s: %w", quote.Path(path), fmt.Sprintf(format, args...), ErrLeftInPlace)
}

// checkCreated proves that fi is the very file the Done entry describes:
// same device and inode, size and modification time.
func checkCreated(done journal.Entry, fi os.FileInfo) error {
	dev, ino := fsx.DevIno(fi)
	switch {
	case done.Ino != 0 && (dev != done.Dev || ino != done.Ino):
		return refuse(done.Dst, "was replaced since shoebox put it there")
	case fi.Mode()&fs.ModeSymlink != 0 && done.Action == journal.Symlink:
		return nil // a link's own size and mtime are not the source's
	case !fi.Mode().IsRegular():
		return refuse(done.Dst, "is no longer a regular file")
	case fi.Size() != done.Size || (done.ModTime != 0 && fi.ModTime().UnixNano() != done.ModTime):
		return refuse(done.Dst, "changed since shoebox copied it")
	}
	return nil
}

// lstatDst returns the library file's info, or nil when it is gone.
func (rv *reversal) lstatDst() (os.FileInfo, error) {
	fi, err := rv.e.fs.Lstat(rv.res.Entry.Dst)
	if errors.Is(err, fs.ErrNotExist) || rv.u.goneInDryRun(rv.res.Entry.Dst) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("check %s: %w", quote.Path(rv.res.Entry.Dst), err)
	}
	return fi, nil
}

// removeCreated removes a copy, link or symlink shoebox made, if it is
// unchanged and its source still holds the same content: an undo must never
// delete what has become the only copy of a photo.
func (rv *reversal) removeCreated() error {
	done := rv.res.Entry
	fi, err := rv.lstatDst()
	if err != nil {
		return err
	}
	if fi == nil {
		rv.res.Already = true
		return nil
	}
	if err := checkCreated(done, fi); err != nil {
		return err
	}
	if done.Action != journal.Symlink {
		if err := rv.sourceStillHolds(fi); err != nil {
			return err
		}
	}
	return rv.remove(done.Dst)
}

// sourceStillHolds checks that the original source still has the content
// of the library file about to be removed.
func (rv *reversal) sourceStillHolds(lib os.FileInfo) error {
	done := rv.res.Entry
	src, err := rv.e.fs.Lstat(done.Src)
	if errors.Is(err, fs.ErrNotExist) {
		return refuse(done.Dst, "is now the only copy (its source %s is gone)", quote.Path(done.Src))
	}
	if err != nil {
		return fmt.Errorf("check source %s: %w", quote.Path(done.Src), err)
	}
	if done.Action == journal.Hardlink {
		if !os.SameFile(src, lib) {
			return refuse(done.Dst, "is no longer linked to its source %s", quote.Path(done.Src))
		}
		return nil
	}
	same, err := digest.Equal(rv.e.fs, done.Src, done.Dst)
	if err != nil {
		return fmt.Errorf("compare with source %s: %w", quote.Path(done.Src), err)
	}
	if !same {
		return refuse(done.Dst, "differs from its source %s now", quote.Path(done.Src))
	}
	return nil
}

func (rv *reversal) remove(path string) error {
	if err := rv.intent(); err != nil {
		return err
	}
	rv.record("remove %s", path)
	if rv.e.dryRun {
		rv.u.markGoneInDryRun(path)
		return nil
	}
	if err := rv.e.fs.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", quote.Path(path), err)
	}
	rv.e.markDirty(filepath.Dir(path))
	return nil
}

// moveBack returns a moved file to where it came from: a no-replace rename
// on one device, else a verified durable copy back followed by removal of
// the library copy (the executor's own Move protocol, run in reverse).
func (rv *reversal) moveBack() error {
	done := rv.res.Entry
	fi, err := rv.lstatDst()
	if err != nil {
		return err
	}
	if fi == nil {
		return rv.checkAlreadyBack()
	}
	if err := checkCreated(done, fi); err != nil {
		return err
	}
	if _, err := rv.e.fs.Lstat(done.Src); err == nil {
		// The source is still there: the move's removal step never ran (or
		// failed), so the library file is a copy and is treated as one.
		if err := rv.sourceStillHolds(fi); err != nil {
			return err
		}
		return rv.remove(done.Dst)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("check %s: %w", quote.Path(done.Src), err)
	}
	return rv.renameBack(fi)
}

// renameBack leaves the journaling of the move itself to Do, whose Intent
// names its temp file for recovery.
func (rv *reversal) renameBack(fi os.FileInfo) error {
	done := rv.res.Entry
	back := Op{Mode: Move, Src: done.Dst, Dst: done.Src, Size: fi.Size(), ModTime: fi.ModTime()}
	res := rv.e.Do(rv.ctx, back)
	rv.res.Actions = append(rv.res.Actions, res.Actions...)
	if errors.Is(res.Err, fs.ErrExist) {
		return refuse(done.Dst, "stays: something now sits at its old place %s", quote.Path(done.Src))
	}
	if res.Err != nil {
		return res.Err
	}
	if rv.e.dryRun {
		rv.u.markGoneInDryRun(done.Dst)
	}
	return nil
}

// checkAlreadyBack: the library file is gone; if the source is back, an
// earlier undo did the job, otherwise the file is lost to shoebox.
func (rv *reversal) checkAlreadyBack() error {
	done := rv.res.Entry
	src, err := rv.e.fs.Lstat(done.Src)
	if errors.Is(err, fs.ErrNotExist) {
		return refuse(done.Dst, "is gone from the library and %s is not back: nothing to move back", quote.Path(done.Src))
	}
	if err != nil {
		return fmt.Errorf("check %s: %w", quote.Path(done.Src), err)
	}
	if src.Size() != done.Size {
		return refuse(done.Src, "is not the file shoebox moved (size %d, moved %d)", src.Size(), done.Size)
	}
	rv.res.Already = true
	return nil
}

// removeDir removes a directory shoebox created, only when it is empty.
func (rv *reversal) removeDir() error {
	dir := rv.res.Entry.Dst
	fi, err := rv.e.fs.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		rv.res.Already = true
		return nil
	}
	if err != nil {
		return fmt.Errorf("check folder %s: %w", quote.Path(dir), err)
	}
	if !fi.IsDir() {
		return refuse(dir, "is no longer a folder")
	}
	// The folder the run created, proved by its identity where the
	// journal has it: a link put in place of a folder above it (the
	// backup folder, a library folder) leads to someone else's folder,
	// even an empty one of the same name.
	if done := rv.res.Entry; done.Dev != 0 || done.Ino != 0 {
		if dev, ino := fsx.DevIno(fi); dev != done.Dev || ino != done.Ino {
			return refuse(dir, "is not the folder shoebox created (another folder is there now, or it is reached through a link)")
		}
	}
	if rv.e.dryRun {
		return rv.predictRemoveDir(dir)
	}
	if err := rv.intent(); err != nil {
		return err
	}
	// rmdir itself refuses a non-empty folder, atomically.
	err = rv.e.fs.Remove(dir)
	if errors.Is(err, syscall.ENOTEMPTY) || errors.Is(err, syscall.EEXIST) {
		return refuse(dir, "is not empty")
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove folder %s: %w", quote.Path(dir), err)
	}
	rv.record("rmdir %s", dir)
	rv.e.markDirty(filepath.Dir(dir))
	return nil
}

// predictRemoveDir counts what would be left in dir after the dry run's
// own predicted removals.
func (rv *reversal) predictRemoveDir(dir string) error {
	entries, err := rv.e.fs.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("read folder %s: %w", quote.Path(dir), err)
	}
	for _, ent := range entries {
		if !rv.u.goneInDryRun(filepath.Join(dir, ent.Name())) {
			return refuse(dir, "is not empty")
		}
	}
	rv.record("rmdir %s", dir)
	rv.u.markGoneInDryRun(dir)
	return nil
}

// RemoveTemp deletes one temp file a killed run named in its journal. It
// refuses any name that is not one of the executor's temp names.
func (e *Executor) RemoveTemp(tmp string) (bool, error) {
	if !isTempName(filepath.Base(tmp)) {
		return false, fmt.Errorf("remove temp %s: not a shoebox temp name: %w", quote.Path(tmp), ErrLeftInPlace)
	}
	fi, err := e.fs.Lstat(tmp)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("remove temp %s: %w", quote.Path(tmp), err)
	}
	if !fi.Mode().IsRegular() {
		return false, fmt.Errorf("remove temp %s: not a regular file: %w", quote.Path(tmp), ErrLeftInPlace)
	}
	if e.dryRun {
		return true, nil
	}
	if err := e.fs.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("remove temp %s: %w", quote.Path(tmp), err)
	}
	e.markDirty(filepath.Dir(tmp))
	return true, nil
}

// CompleteMove finishes a move a killed run left half done: its copy landed
// at intent.Dst but the source is still there. The source is removed only
// if the copy is byte-identical to it and both still have the size and
// mtime the run recorded, and only after the copy's folders up to libRoot
// are durable. The journal gets RemoveSource Intent/Done and a Done Move
// describing the landed file, so an undo can reverse it.
func (e *Executor) CompleteMove(ctx context.Context, intent journal.Entry, libRoot string) Reversal {
	return e.CompleteMoveWithBackup(ctx, intent, libRoot, nil)
}

// CompleteMoveWithBackup is CompleteMove for a move made with --backup:
// backup is the Intent of its backup copy. The source is removed only if
// that copy too is in place, byte-identical to it, and its folders are
// durable; else both stay and the error says why.
func (e *Executor) CompleteMoveWithBackup(ctx context.Context, intent journal.Entry, libRoot string, backup *journal.Entry) Reversal {
	res := Reversal{Entry: intent}
	lib, err := e.checkLanded(intent)
	if err == nil && backup != nil {
		err = e.checkBackupLanded(*backup)
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		res.Err = err
		return res
	}
	res.Entry.Dev, res.Entry.Ino = fsx.DevIno(lib)
	res.Entry.ModTime = lib.ModTime().UnixNano()
	res.Actions = append(res.Actions, "remove "+intent.Src)
	if e.dryRun {
		return res
	}
	res.Err = e.removeMovedSource(res.Entry, libRoot)
	return res
}

// checkBackupLanded: the backup copy of a half-done move is in place,
// identical to the source, and it and its folders are durable.
func (e *Executor) checkBackupLanded(backup journal.Entry) error {
	if _, err := e.checkLanded(backup); err != nil {
		return fmt.Errorf("its backup copy is not in place: %w", err)
	}
	if e.dryRun {
		return nil
	}
	if err := e.makeDurable(backup.Dst, string(filepath.Separator)); err != nil {
		return fmt.Errorf("its backup copy %s is not durable: %w", quote.Path(backup.Dst), err)
	}
	return nil
}

// checkLanded verifies that intent.Dst holds exactly intent.Src's content
// and that the source is the version the run scanned.
func (e *Executor) checkLanded(intent journal.Entry) (os.FileInfo, error) {
	lib, err := e.fs.Lstat(intent.Dst)
	if err != nil {
		return nil, fmt.Errorf("complete move to %s: %w", quote.Path(intent.Dst), err)
	}
	src, err := e.fs.Lstat(intent.Src)
	if err != nil {
		return nil, fmt.Errorf("complete move of %s: %w", quote.Path(intent.Src), err)
	}
	for _, fi := range []os.FileInfo{lib, src} {
		if !fi.Mode().IsRegular() || fi.Size() != intent.Size ||
			(intent.ModTime != 0 && fi.ModTime().UnixNano() != intent.ModTime) {
			return nil, refuse(intent.Src, "or its copy %s changed since the move began", quote.Path(intent.Dst))
		}
	}
	same, err := digest.Equal(e.fs, intent.Src, intent.Dst)
	if err != nil {
		return nil, fmt.Errorf("complete move of %s: compare: %w", quote.Path(intent.Src), err)
	}
	if !same {
		return nil, refuse(intent.Src, "differs from its copy %s", quote.Path(intent.Dst))
	}
	return lib, nil
}

func (e *Executor) removeMovedSource(landed journal.Entry, libRoot string) error {
	if err := e.syncUpTo(filepath.Dir(landed.Dst), libRoot); err != nil {
		return fmt.Errorf("complete move of %s: copy not durable, source kept: %w", quote.Path(landed.Src), err)
	}
	rs := landed
	rs.Action = journal.RemoveSource
	if err := e.appendSynced(rs, journal.Intent); err != nil {
		return err
	}
	if err := e.fs.Remove(landed.Src); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("complete move: remove source %s: %w", quote.Path(landed.Src), err)
	}
	e.markDirty(filepath.Dir(landed.Src))
	if err := e.appendSynced(rs, journal.Done); err != nil {
		return err
	}
	return e.appendSynced(landed, journal.Done)
}

func (e *Executor) appendSynced(entry journal.Entry, state journal.State) error {
	if e.journal == nil {
		return nil
	}
	entry.State = state
	if err := e.journal.Append(entry); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := e.journal.Sync(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// syncUpTo fsyncs dir and each parent up to and including root, making a
// landed file's path durable; a dir outside root is synced alone.
func (e *Executor) syncUpTo(dir, root string) error {
	for d := dir; ; d = filepath.Dir(d) {
		if err := e.fs.SyncDir(d); err != nil {
			return fmt.Errorf("sync dir %s: %w", quote.Path(d), err)
		}
		if d == root || d == filepath.Dir(d) || !within(root, d) {
			return nil
		}
	}
}

func within(root, p string) bool {
	if root == "" {
		return false
	}
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// In a dry run nothing is removed, so the executor remembers what the run
// would have removed: later predictions (is this folder empty now?) then
// match what the real run would do.
func (u *Reverser) markGoneInDryRun(path string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.gone == nil {
		u.gone = make(map[string]bool)
	}
	u.gone[path] = true
}

func (u *Reverser) goneInDryRun(path string) bool {
	if !u.e.dryRun {
		return false
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.gone[path]
}
