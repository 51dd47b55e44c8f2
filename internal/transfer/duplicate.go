package transfer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/shoebox-photos/shoebox/internal/digest"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// RemoveDuplicate removes dup, a source file byte-identical to kept, the
// copy of its content in the library under libRoot. It is the only way
// shoebox deletes a file that was not moved, so it proves everything
// first: both are regular files, they are not one directory entry reached
// by two paths, their bytes are equal now, and kept is durable (its data and
// every folder up to libRoot fsynced). The removal is journaled as an
// Intent, synced before dup goes, then Done (Src dup, Dst kept, Size and
// ModTime of dup, Dev and Ino of kept), so undo can copy kept back. Any
// doubt refuses with an error wrapping ErrLeftInPlace and changes nothing.
// In a dry run the same checks run and the removal is only recorded.
func (e *Executor) RemoveDuplicate(ctx context.Context, dup, kept, libRoot string) Result {
	d := &dupRemoval{e: e, ctx: ctx, root: libRoot, seq: e.journalSeq(), res: Result{Op: Op{Mode: Move, Src: dup, Dst: kept}}}
	if err := d.do(); err != nil {
		d.res.Err = fmt.Errorf("duplicate %s not removed: %w", quote.Path(dup), err)
	}
	return d.res
}

// dupRemoval carries one RemoveDuplicate call.
type dupRemoval struct {
	e    *Executor
	ctx  context.Context
	root string
	seq  uint64 // the removal's number in the journal
	res  Result

	dupInfo, keptInfo version
}

func (d *dupRemoval) dup() string  { return d.res.Op.Src }
func (d *dupRemoval) kept() string { return d.res.Op.Dst }

func (d *dupRemoval) do() error {
	if err := d.ctx.Err(); err != nil {
		return err
	}
	if err := d.check(); err != nil {
		return err
	}
	d.res.Op.Size, d.res.Op.ModTime = d.dupInfo.info.Size(), d.dupInfo.info.ModTime()
	if d.e.dryRun {
		d.res.Actions = append(d.res.Actions, "remove "+d.dup())
		return nil
	}
	if err := d.e.makeDurable(d.kept(), d.root); err != nil {
		return fmt.Errorf("its kept copy %s could not be made durable: %w", quote.Path(d.kept()), err)
	}
	if err := d.e.appendSynced(d.entry(), journal.Intent); err != nil {
		return err
	}
	cause := d.remove()
	return d.journalFinal(cause)
}

// check proves that dup may go: two regular files, two directory entries,
// the same bytes, and neither changed while they were compared.
func (d *dupRemoval) check() error {
	var err error
	if d.dupInfo, err = d.lstatRegular(d.dup(), "it"); err != nil {
		return err
	}
	if d.keptInfo, err = d.lstatRegular(d.kept(), fmt.Sprintf("its kept copy %s", quote.Path(d.kept()))); err != nil {
		return err
	}
	if d.dupInfo.info.Size() != d.keptInfo.info.Size() {
		return fmt.Errorf("it is %d bytes, its kept copy %s %d: %w", d.dupInfo.info.Size(), quote.Path(d.kept()), d.keptInfo.info.Size(), ErrLeftInPlace)
	}
	if err := d.checkTwoEntries(); err != nil {
		return err
	}
	same, err := digest.Equal(d.e.fs, d.dup(), d.kept())
	if err != nil {
		return fmt.Errorf("compare with its kept copy: %w", err)
	}
	if !same {
		return fmt.Errorf("it differs from %s now: %w", quote.Path(d.kept()), ErrLeftInPlace)
	}
	return d.unchangedSinceCompared()
}

func (d *dupRemoval) lstatRegular(path, what string) (version, error) {
	fi, err := d.e.fs.Lstat(path)
	if err != nil {
		return version{}, fmt.Errorf("check %s: %w", quote.Path(path), err)
	}
	if !fi.Mode().IsRegular() {
		return version{}, fmt.Errorf("%s is not a regular file (%v): %w", what, fi.Mode().Type(), ErrLeftInPlace)
	}
	return versionAt(path, fi), nil
}

// checkTwoEntries refuses when dup and kept are one directory entry seen
// through two paths (a symlinked folder, a bind mount, a case-insensitive
// name): removing "the duplicate" would then remove the kept file itself.
// Two hard links to one inode are two entries, and removing one is safe.
func (d *dupRemoval) checkTwoEntries() error {
	if fsx.OneEntry(d.e.fs.Stat, d.dup(), d.dupInfo.info, d.kept(), d.keptInfo.info) {
		return fmt.Errorf("it is the kept copy %s itself, reached through another path: %w", quote.Path(d.kept()), ErrLeftInPlace)
	}
	return nil
}

// unchangedSinceCompared catches a write to either file during the
// comparison.
func (d *dupRemoval) unchangedSinceCompared() error {
	for _, f := range []struct {
		path string
		was  version
	}{{d.dup(), d.dupInfo}, {d.kept(), d.keptInfo}} {
		now, err := d.e.fs.Lstat(f.path)
		if err != nil {
			return fmt.Errorf("check %s: %w", quote.Path(f.path), err)
		}
		if !sameVersion(f.was, versionAt(f.path, now)) {
			return fmt.Errorf("%s changed while it was compared: %w", quote.Path(f.path), ErrLeftInPlace)
		}
	}
	return nil
}

// remove deletes dup if it is still the very file that was compared.
func (d *dupRemoval) remove() error {
	// The kept copy must still be on the library's drive as the run
	// opened it: a drive gone since leaves the duplicate where it is.
	if g := d.e.Gone(); g != nil {
		return g
	}
	now, err := d.e.fs.Lstat(d.dup())
	if err != nil {
		return fmt.Errorf("check %s before removal: %w", quote.Path(d.dup()), err)
	}
	if !sameVersion(d.dupInfo, versionAt(d.dup(), now)) {
		return fmt.Errorf("it changed after it was compared: %w", ErrLeftInPlace)
	}
	if err := d.e.fs.Remove(d.dup()); err != nil {
		return fmt.Errorf("remove: %w", err)
	}
	d.res.Actions = append(d.res.Actions, "remove "+d.dup())
	d.e.markDirty(filepath.Dir(d.dup()))
	fsx.CrashPoint(d.e.fs, fsx.AfterRemoveSource)
	return nil
}

func (d *dupRemoval) entry() journal.Entry {
	dev, ino := fsx.DevIno(d.keptInfo.info)
	return journal.Entry{
		Seq: d.seq, Action: journal.RemoveDuplicate, Src: d.dup(), Dst: d.kept(),
		Size: d.dupInfo.info.Size(), ModTime: d.dupInfo.info.ModTime().UnixNano(), Dev: dev, Ino: ino,
	}
}

// journalFinal records Done, or Failed with the cause. The Done record
// needs no sync of its own: the run's next Flush makes it durable, and
// until then a crash leaves an Intent that recovery resolves by looking.
func (d *dupRemoval) journalFinal(cause error) error {
	if d.e.journal == nil {
		return cause
	}
	entry := d.entry()
	entry.State = journal.Done
	if cause != nil {
		entry.State, entry.Err = journal.Failed, cause.Error()
	}
	if err := d.e.journal.Append(entry); err != nil && cause == nil {
		return fmt.Errorf("removed, but the journal could not record it: %w", err)
	}
	return cause
}

// makeDurable fsyncs a file's data and every folder from its own up to
// root, so that the file survives a crash right after its only other copy
// is removed.
func (e *Executor) makeDurable(path, root string) error {
	if err := e.syncFile(path); err != nil {
		return err
	}
	return e.syncUpTo(filepath.Dir(path), root)
}

// syncFile fsyncs a file's data (where the filesystem can).
func (e *Executor) syncFile(path string) error {
	f, err := e.fs.Open(path)
	if err != nil {
		return fmt.Errorf("open %s: %w", quote.Path(path), fsx.Bare(err))
	}
	err = f.Sync()
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	if err != nil && !fsx.SyncUnsupported(err) {
		return fmt.Errorf("fsync %s: %w", quote.Path(path), err)
	}
	return nil
}

// restoreDuplicate reverses a RemoveDuplicate: the kept library file is
// copied back, verified, to the duplicate's old path, with the duplicate's
// old modification time. Whatever already sits at that path (an earlier,
// interrupted undo put it back, or the user did) is left alone.
func (rv *reversal) restoreDuplicate() error {
	done := rv.res.Entry
	if _, err := rv.e.fs.Lstat(done.Src); err == nil {
		rv.res.Already = true
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("check %s: %w", quote.Path(done.Src), err)
	}
	kept, err := rv.lstatDst()
	if err != nil {
		return err
	}
	if err := checkKept(done, kept); err != nil {
		return err
	}
	back := Op{Mode: Copy, Src: done.Dst, Dst: done.Src, Size: kept.Size(), ModTime: kept.ModTime()}
	res := rv.e.copyVerified(rv.ctx, back)
	rv.res.Actions = append(rv.res.Actions, res.Actions...)
	if errors.Is(res.Err, fs.ErrExist) {
		rv.res.Already = true // put back between the check and the copy
		return nil
	}
	if res.Err != nil {
		return res.Err
	}
	rv.restoreModTime(done)
	return nil
}

// checkKept proves the library file is still the one the duplicate was
// compared with when it was removed.
func checkKept(done journal.Entry, kept os.FileInfo) error {
	switch {
	case kept == nil:
		return refuse(done.Src, "cannot be restored: its kept copy %s is gone", quote.Path(done.Dst))
	case !kept.Mode().IsRegular():
		return refuse(done.Src, "cannot be restored: its kept copy %s is no longer a regular file", quote.Path(done.Dst))
	}
	dev, ino := fsx.DevIno(kept)
	if done.Ino != 0 && (dev != done.Dev || ino != done.Ino) {
		return refuse(done.Src, "cannot be restored: its kept copy %s was replaced since", quote.Path(done.Dst))
	}
	if kept.Size() != done.Size {
		return refuse(done.Src, "cannot be restored: its kept copy %s changed since (%d bytes, was %d)", quote.Path(done.Dst), kept.Size(), done.Size)
	}
	return nil
}

// restoreModTime gives the restored file the duplicate's own mtime (the
// copy carries the kept file's). The bytes are what matter and are back,
// verified; a failure here is not worth failing the undo over, and a rerun
// could not fix it anyway since the file now exists.
func (rv *reversal) restoreModTime(done journal.Entry) {
	if rv.e.dryRun || done.ModTime == 0 {
		return
	}
	mtime := time.Unix(0, done.ModTime)
	if err := rv.e.fs.Chtimes(done.Src, time.Time{}, mtime); err != nil {
		return
	}
	if f, err := rv.e.fs.Open(done.Src); err == nil {
		_ = f.Sync()
		f.Close()
	}
}

// copyVerified is Do for a Copy with verification forced whatever the
// executor's options: the copy restores a file whose other copy was removed.
func (e *Executor) copyVerified(ctx context.Context, op Op) Result {
	op.Mode, op.Verify = Copy, true
	return e.Do(ctx, op)
}
