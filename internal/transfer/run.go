package transfer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"

	"github.com/shoebox-photos/shoebox/internal/digest"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// run carries one Op through its protocol.
type run struct {
	e   *Executor
	ctx context.Context
	op  Op
	res Result
	seq uint64 // this operation's number in the journal

	tmp       string // temp path for copy-like modes, chosen up front for the journal
	journaled bool   // an Intent was appended, so a final record is owed
	finished  bool   // the final record was appended
	tempKept  bool   // the temp could not be removed (its drive failing): see removeTemp

	tmpFile        fsx.File    // the written temp, open until syncTemp makes it durable
	sum            *digest.Sum // what was written to it, when hashed (Options.Hash)
	tmpDev, tmpIno uint64      // its identity, reported once it lands
	durable        bool        // syncTemp succeeded: the temp may be renamed into place

	bak    *run // the --backup copy, written in the same pass; nil without one
	parent *run // for a backup run: the run whose Actions it reports in
	kept   bool // backup run: an identical file is already at its destination
}

func (r *run) do() error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	if err := r.validate(); err != nil {
		return err
	}
	if r.op.Mode == Move && r.sourceIsLink() {
		// The link's target is the user's file somewhere else: copy its
		// bytes, and leave both the link and the target as they are. Undo
		// then removes just the copy.
		r.op.Mode = Copy
		r.res.Fallback = fallbackLinkedMove
	}
	if r.op.Backup != "" {
		if err := r.newBackup(); err != nil {
			return err
		}
	}
	if r.op.Mode == Copy || r.op.Mode == Reflink || r.op.Mode == Move {
		// Named before the journal Intent, so recovery knows which temp to sweep.
		r.tmp = tempPrefix(r.op.Dst) + fmt.Sprintf("%016x", rand.Uint64())
	}
	if err := r.journalIntent(); err != nil {
		return err
	}
	switch r.op.Mode {
	case Copy:
		return r.copy(false)
	case Reflink:
		return r.copy(true)
	case Move:
		if r.bak != nil {
			return r.moveWithBackup()
		}
		return r.move()
	case Hardlink:
		return r.hardlink()
	case Symlink:
		return r.symlink()
	}
	return fmt.Errorf("unknown mode %d", r.op.Mode)
}

func (r *run) validate() error {
	switch {
	case r.op.Mode > Reflink:
		return fmt.Errorf("unknown mode %d", r.op.Mode)
	case r.op.Src == "" || r.op.Dst == "":
		return errors.New("source and destination must both be given")
	case filepath.Clean(r.op.Src) == filepath.Clean(r.op.Dst):
		return errors.New("source and destination are the same path")
	}
	return r.e.checkLibraryDst(r.op.Dst)
}

// record notes a mutation performed (or, in a dry run, predicted).
func (r *run) record(format string, args ...any) {
	if r.parent != nil {
		r.parent.record(format, args...)
		return
	}
	r.res.Actions = append(r.res.Actions, fmt.Sprintf(format, args...))
}

// tmpName is the temp path as recorded in Actions: the random part is
// replaced by a placeholder so dry and real runs compare equal.
func (r *run) tmpName() string { return tempPrefix(r.op.Dst) + "<tmp>" }

// copy writes the temp and stops there, leaving it open and not yet
// durable: the Staged that Stage returns finishes it (Sync, then Publish),
// alone or in a batch.
func (r *run) copy(reflink bool) error {
	_, err := r.stageCopies(reflink)
	return err
}

// stageCopies opens the source and writes the library's temp from it, and
// the backup's temp from the same read when a backup copy is to be made;
// a dry run records those steps instead. A copy and a move with a backup
// both begin here, so they open, prepare and predict alike. The source's
// stat is returned for the checks that follow (a move's removal).
func (r *run) stageCopies(reflink bool) (version, error) {
	src, info, err := r.openSource()
	if err != nil {
		return version{}, err
	}
	defer src.Close()
	if err := r.prepareDst(); err != nil {
		return version{}, err
	}
	if err := r.prepareBackup(info.info); err != nil {
		return version{}, err
	}
	if r.e.dryRun {
		r.predictCopy()
		r.predictBackup()
		return info, nil
	}
	if r.bak != nil && !r.bak.kept {
		return info, r.writeTemps(src, info, reflink)
	}
	return info, r.writeTemp(src, info, reflink)
}

// finishCopy renames a durable temp into place and records it done.
func (r *run) finishCopy() error {
	verify := r.e.verify || r.op.Verify
	if verify && r.bak != nil && !r.bak.kept {
		// The library copy is checked against the source before the
		// backup is compared with it: a corrupt one is named as such.
		if err := r.verifyTemp(); err != nil {
			r.removeTemp()
			return err
		}
		verify = false
	}
	if err := r.publishBackup(); err != nil {
		r.removeTemp()
		return err
	}
	if err := r.publishTemp(verify); err != nil {
		r.removeTemp()
		r.withdrawBackup(err)
		return err
	}
	r.backupDone()
	return r.journalFinal(journal.Done, nil)
}

func (r *run) predictCopy() {
	r.record("create %s", r.tmpName())
	r.record("rename %s -> %s", r.tmpName(), r.op.Dst)
}

func (r *run) move() error {
	info, err := r.lstatSource()
	if err != nil {
		return err
	}
	if err := r.prepareDst(); err != nil {
		return err
	}
	if r.e.dryRun {
		return r.predictMove(info)
	}
	err = r.e.fs.RenameNoReplace(r.op.Src, r.op.Dst)
	switch {
	case err == nil:
		r.record("rename %s -> %s", r.op.Src, r.op.Dst)
		r.res.Landed = true
		r.res.Dev, r.res.Ino = fsx.DevIno(info)
		r.e.markDirty(filepath.Dir(r.op.Src), filepath.Dir(r.op.Dst))
		fsx.CrashPoint(r.e.fs, fsx.AfterRename)
		return r.journalFinal(journal.Done, nil)
	case errors.Is(err, syscall.EXDEV):
		return r.moveAcrossDevices()
	case errors.Is(err, fs.ErrExist):
		return errDstExists
	}
	return err
}

func (r *run) predictMove(info os.FileInfo) error {
	cross, err := r.crossDevice(info)
	if err != nil {
		return err
	}
	if !cross {
		r.record("rename %s -> %s", r.op.Src, r.op.Dst)
		return nil
	}
	r.predictCopy()
	r.record("remove %s", r.op.Src)
	r.res.Fallback = fallbackCrossDevice
	return nil
}

// sourceIsLink reports whether the source is a symbolic link followed on
// purpose (--follow-links).
func (r *run) sourceIsLink() bool {
	if !r.op.FollowLink {
		return false
	}
	info, err := r.e.fs.Lstat(r.op.Src)
	return err == nil && info.Mode()&fs.ModeSymlink != 0
}

const (
	fallbackLinkedMove  = "a symbolic link: its target's bytes copied, the link and its target left in place"
	fallbackCrossDevice = "cross-device, copied then removed source"
	fallbackReflink     = "reflink unsupported, copied"
)

// moveAcrossDevices copies with verification forced, makes the copy durable,
// and only then removes the source: at no moment is the file in neither
// place.
func (r *run) moveAcrossDevices() error {
	r.res.Fallback = fallbackCrossDevice
	src, info, err := r.openSource()
	if err != nil {
		return err
	}
	defer src.Close()
	if err := r.landCopy(src, info, false, true); err != nil {
		return err
	}
	if err := r.e.syncChain(filepath.Dir(r.op.Dst)); err != nil {
		return fmt.Errorf("copied, but could not make the copy durable, source kept: %w", err)
	}
	if err := r.removeSource(info); err != nil {
		r.journalFinal(journal.Done, nil) // the copy did land; only the removal failed
		return fmt.Errorf("copied, but %w: %w", ErrSourceKept, err)
	}
	return r.journalFinal(journal.Done, nil)
}

func (r *run) removeSource(copied version) error {
	if err := r.copiesInPlace(); err != nil {
		return err
	}
	entry := r.entry(journal.Intent)
	entry.Action = journal.RemoveSource
	if err := r.appendJournal(entry); err != nil {
		return err
	}
	// This intent says the verified copy is in place; it must be durable
	// before the source, until now the only other copy, goes.
	if err := r.syncJournal(); err != nil {
		return err
	}
	// The path must still be the very file that was copied and verified.
	now, err := r.e.fs.Lstat(r.op.Src)
	if err != nil {
		return r.journalRemoveSource(fmt.Errorf("stat source before removal: %w", err))
	}
	if !sameVersion(copied, versionAt(r.op.Src, now)) {
		return r.journalRemoveSource(fmt.Errorf("source %w", ErrChanged))
	}
	if err := r.e.fs.Remove(r.op.Src); err != nil {
		return r.journalRemoveSource(err)
	}
	r.record("remove %s", r.op.Src)
	r.e.markDirty(filepath.Dir(r.op.Src))
	fsx.CrashPoint(r.e.fs, fsx.AfterRemoveSource)
	return r.journalRemoveSource(nil)
}

// copiesInPlace is the last look before a moved source goes: the drives
// of the library and of the backup are still the ones the run started
// with, and the copies are there on them, whole.
func (r *run) copiesInPlace() error {
	if g := r.e.Gone(); g != nil {
		return g
	}
	for _, x := range []*run{r, r.bak} {
		if x == nil {
			continue
		}
		fi, err := r.e.fs.Lstat(x.op.Dst)
		if err != nil {
			return fmt.Errorf("look at the copy %s before removing the source: %w", quote.Path(x.op.Dst), fsx.Bare(err))
		}
		if !fi.Mode().IsRegular() || fi.Size() != r.op.Size {
			return fmt.Errorf("the copy %s is not the whole file any more", quote.Path(x.op.Dst))
		}
	}
	return nil
}

func (r *run) journalRemoveSource(cause error) error {
	state := journal.Done
	if cause != nil {
		state = journal.Failed
	}
	entry := r.entry(state)
	entry.Action = journal.RemoveSource
	if cause != nil {
		entry.Err = cause.Error()
	}
	if err := r.appendJournal(entry); err != nil && cause == nil {
		return err
	}
	return cause
}

func (r *run) hardlink() error {
	info, err := r.lstatSource()
	if err != nil {
		return err
	}
	if err := r.prepareDst(); err != nil {
		return err
	}
	if r.e.dryRun {
		if cross, err := r.crossDevice(info); err != nil || cross {
			return errors.Join(err, r.crossDeviceLinkErr(cross))
		}
		r.record("hardlink %s -> %s", r.op.Src, r.op.Dst)
		return nil
	}
	linkFrom, err := r.hardlinkTarget(info)
	if err != nil {
		return err
	}
	err = r.e.fs.Link(linkFrom, r.op.Dst)
	switch {
	case errors.Is(err, syscall.EXDEV):
		return r.crossDeviceLinkErr(true)
	case errors.Is(err, fs.ErrExist):
		return errDstExists
	case err != nil:
		return err
	}
	if err := r.checkLinked(info); err != nil {
		return err
	}
	r.record("hardlink %s -> %s", r.op.Src, r.op.Dst)
	r.res.Landed = true
	r.res.Dev, r.res.Ino = fsx.DevIno(info)
	r.e.markDirty(filepath.Dir(r.op.Dst))
	return r.journalFinal(journal.Done, nil)
}

// checkLinked makes sure the new name is the very file that was checked:
// a source replaced between the check and link(2) — by a named pipe, a
// device, another file — would otherwise enter the library. The name was
// created just now by this op, so removing it loses nothing.
func (r *run) checkLinked(checked os.FileInfo) error {
	now, err := r.e.fs.Lstat(r.op.Dst)
	if err == nil && sameFileUnchanged(checked, now) {
		return nil
	}
	if rmErr := r.e.fs.Remove(r.op.Dst); rmErr != nil && !errors.Is(rmErr, fs.ErrNotExist) {
		return fmt.Errorf("source %w while being linked, and the new link could not be removed: %w", ErrChanged, rmErr)
	}
	return fmt.Errorf("source %w while being linked", ErrChanged)
}

// hardlinkTarget is the path to hard-link: the source itself, or, for a
// followed symbolic link, the file it resolves to (link(2) would make a
// second name for the link, not for the photo), checked to be the file
// that was stat'ed.
func (r *run) hardlinkTarget(info os.FileInfo) (string, error) {
	if !r.sourceIsLink() {
		return r.op.Src, nil
	}
	resolved, err := filepath.EvalSymlinks(r.op.Src)
	if err != nil {
		return "", sourceErr(err)
	}
	now, err := r.e.fs.Lstat(resolved)
	if err != nil {
		return "", sourceErr(err)
	}
	if !sameFileUnchanged(info, now) {
		return "", fmt.Errorf("source %w: its link now points elsewhere", ErrChanged)
	}
	return resolved, nil
}

func (r *run) crossDeviceLinkErr(cross bool) error {
	if !cross {
		return nil
	}
	return fmt.Errorf("cannot hardlink: %w; use copy or reflink instead", ErrCrossDevice)
}

func (r *run) symlink() error {
	if _, err := r.lstatSource(); err != nil {
		return err
	}
	target, err := filepath.Abs(r.op.Src)
	if err != nil {
		return fmt.Errorf("absolute source path: %w", err)
	}
	if err := r.prepareDst(); err != nil {
		return err
	}
	if r.e.dryRun {
		r.record("symlink %s -> %s", target, r.op.Dst)
		return nil
	}
	err = r.e.fs.Symlink(target, r.op.Dst)
	if errors.Is(err, fs.ErrExist) {
		return errDstExists
	} else if err != nil {
		return err
	}
	r.record("symlink %s -> %s", target, r.op.Dst)
	r.res.Landed = true
	if link, err := r.e.fs.Lstat(r.op.Dst); err == nil {
		r.res.Dev, r.res.Ino = fsx.DevIno(link)
	}
	r.e.markDirty(filepath.Dir(r.op.Dst))
	return r.journalFinal(journal.Done, nil)
}

// prepareDst fails early when the destination is taken (the no-replace
// rename would refuse it anyway, but only after a full copy) and creates
// its directory.
func (r *run) prepareDst() error {
	if _, err := r.e.fs.Lstat(r.op.Dst); err == nil {
		return errDstExists
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("check destination: %w", err)
	}
	return r.ensureDir(filepath.Dir(r.op.Dst))
}

// crossDevice predicts whether renaming or linking the source to the
// destination would cross filesystems, from the device of the destination's
// nearest existing ancestor.
func (r *run) crossDevice(src os.FileInfo) (bool, error) {
	for dir := filepath.Dir(r.op.Dst); ; dir = filepath.Dir(dir) {
		fi, err := r.e.fs.Stat(dir)
		if err == nil {
			srcDev, _ := fsx.DevIno(src)
			dstDev, _ := fsx.DevIno(fi)
			return srcDev != dstDev, nil
		}
		if !errors.Is(err, fs.ErrNotExist) || dir == filepath.Dir(dir) {
			return false, fmt.Errorf("check destination device: %w", err)
		}
	}
}
