package transfer

import (
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/shoebox-photos/shoebox/internal/digest"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// A backup copy (--backup) is a second run of the Copy protocol, bound to
// its op's: its own journal number, temp, Intent and Done, so that
// recovery sweeps its temp and undo removes it like any copy. Its bytes
// come from the same reads of the source as the library copy's (one pass,
// two writes); it is verified against the library copy's temp, made
// durable with it, and renamed into place just before it. Either failing
// fails the file, and nothing of it is left behind:
//
//   - the backup temp fails: both temps go;
//   - the backup is in place but the library copy cannot land: the backup
//     copy, made a moment ago by this op, is removed again.
//
// A kill between the two renames leaves a backup without its library
// copy: the next run finds that backup identical to the source and keeps
// it as this file's backup (recovery recorded it Done for the killed run).

// ErrBackupTaken: the backup folder holds another file at the path the
// library copy's layout gives the backup copy.
var ErrBackupTaken = errors.New("the backup folder already holds a different file there")

// newBackup sets up the backup run of a copy, a reflink or a move.
// Hardlink and symlink read no bytes and make no copy: a backup, always a
// real copy of the bytes, is refused with them (the CLI says so first).
func (r *run) newBackup() error {
	if r.op.Mode == Hardlink || r.op.Mode == Symlink {
		return fmt.Errorf("a backup copy is made only with --mode copy, move or reflink, not %s", r.op.Mode)
	}
	if err := r.e.checkBackupDst(r.op.Backup); err != nil {
		return err
	}
	bop := r.op
	// Journaled as a copy whatever the library copy's mode: recovery
	// and undo treat it as one (a move's backup leaves its source alone).
	bop.Mode, bop.Dst, bop.Backup = Copy, r.op.Backup, ""
	r.bak = &run{e: r.e, ctx: r.ctx, op: bop, res: Result{Op: bop}, parent: r}
	r.bak.tmp = tempPrefix(bop.Dst) + fmt.Sprintf("%016x", rand.Uint64())
	return nil
}

// backupErr says that the error is the backup copy's.
func backupErr(b *run, err error) error {
	return fmt.Errorf("backup copy %s: %w", quote.Path(b.op.Dst), err)
}

// prepareBackup checks the backup's destination and creates its folder;
// an identical file already there is kept as the backup. The folders on
// the way are checked first, as for a file to be written there: a kept
// file is one found in the backup folder, not behind a link put inside
// it. And it must be another file than the source (src, as opened): the
// source itself, reached through a hard link or a bind mount, is no
// second copy, and a move would remove it.
func (r *run) prepareBackup(src os.FileInfo) error {
	b := r.bak
	if b == nil {
		return nil
	}
	if err := b.ensureDir(filepath.Dir(b.op.Dst)); err != nil {
		return backupErr(b, err)
	}
	fi, err := r.e.fs.Lstat(b.op.Dst)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return backupErr(b, fmt.Errorf("check destination: %w", err))
	case !fi.Mode().IsRegular() || fi.Size() != r.op.Size:
		return backupErr(b, ErrBackupTaken)
	case os.SameFile(fi, src):
		return backupErr(b, fmt.Errorf("%w: it is the source file itself (a hard link or a mount of it), not a copy", ErrBackupTaken))
	default:
		same, err := digest.Equal(r.e.fs, r.op.Src, b.op.Dst)
		if err != nil {
			return backupErr(b, fmt.Errorf("compare the file there: %w", err))
		}
		if !same {
			return backupErr(b, ErrBackupTaken)
		}
		b.kept = true
		r.res.BackupKept = true
		r.res.Backup = b.op.Dst
		return nil
	}
	if !r.e.dryRun {
		b.seq = r.e.journalSeq()
		if err := b.journalIntent(); err != nil {
			return backupErr(b, err)
		}
	}
	return nil
}

func (r *run) predictBackup() {
	if r.bak == nil || r.bak.kept {
		return
	}
	r.bak.predictCopy()
	r.res.Backup = r.bak.op.Dst
}

// writeTemps is writeTemp for a copy with a backup: both temps filled from
// one read of each block of the source. With reflink, the library temp
// shares the source's extents (no read) and the backup temp, a real copy
// on its own volume, gets the bytes read once.
func (r *run) writeTemps(src fsx.File, before version, reflink bool) error {
	b := r.bak
	perm := before.info.Mode().Perm()&0o666 | 0o400
	tmp, err := r.e.fs.OpenFile(r.tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("create temp: %w", err)
	}
	r.record("create %s", r.tmpName())
	r.tmpFile = tmp
	btmp, err := r.e.fs.OpenFile(b.tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		r.removeTemp()
		return backupErr(b, fmt.Errorf("create temp: %w", err))
	}
	b.record("create %s", b.tmpName())
	b.tmpFile = btmp
	if err := r.fillBoth(src, before, reflink); err != nil {
		r.removeTemp()
		return err
	}
	return nil
}

func (r *run) fillBoth(src fsx.File, before version, reflink bool) error {
	b := r.bak
	var w io.Writer = twoWriter{r.tmpFile, b.tmpFile, b.op.Dst}
	if reflink {
		switch err := r.e.fs.Clone(r.tmpFile, src); {
		case err == nil:
			w = backupWriter{b.tmpFile, b.op.Dst}
		case errors.Is(err, errors.ErrUnsupported):
			r.res.Fallback = fallbackReflink
		default:
			return err
		}
	}
	var h hash.Hash
	if r.e.hash {
		var release func()
		h, release = digest.Pooled()
		defer release()
	}
	n, err := copyData(r.ctx, w, src, h)
	if err != nil {
		return err
	}
	if h != nil {
		// The bytes read went to both copies (or, cloned, the library's
		// are the source's own): one sum for both.
		r.sum = new(digest.Sum)
		h.Sum(r.sum[:0])
	}
	if n != before.info.Size() {
		return fmt.Errorf("source %w: read %d bytes, expected %d", ErrChanged, n, before.info.Size())
	}
	fsx.CrashPoint(r.e.fs, fsx.AfterTempWrite)
	if err := r.e.fs.Chtimes(r.tmp, time.Time{}, before.info.ModTime()); err != nil {
		return fmt.Errorf("set mtime: %w", err)
	}
	if err := r.e.fs.Chtimes(b.tmp, time.Time{}, before.info.ModTime()); err != nil {
		return backupErr(b, fmt.Errorf("set mtime: %w", err))
	}
	if err := r.checkSourceKept(src, before); err != nil {
		return err
	}
	for _, x := range []*run{r, b} {
		fi, err := x.tmpFile.Stat()
		if err != nil {
			return fmt.Errorf("stat temp %s: %w", quote.Path(x.tmp), err)
		}
		x.tmpDev, x.tmpIno = fsx.DevIno(fi)
	}
	return nil
}

// twoWriter writes each block to the library temp, then the backup temp,
// and says which one failed.
type twoWriter struct {
	lib, bak fsx.File
	bakDst   string
}

func (w twoWriter) Write(p []byte) (int, error) {
	n, err := w.lib.Write(p)
	if err == nil && n != len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return n, err
	}
	n, err = w.bak.Write(p)
	if err == nil && n != len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return n, fmt.Errorf("backup copy %s: %w", quote.Path(w.bakDst), err)
	}
	return n, nil
}

// backupWriter writes to the backup temp alone (the library temp is a
// reflink) and names the backup copy when it fails.
type backupWriter struct {
	bak    fsx.File
	bakDst string
}

func (w backupWriter) Write(p []byte) (int, error) {
	n, err := w.bak.Write(p)
	if err == nil && n != len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return n, fmt.Errorf("backup copy %s: %w", quote.Path(w.bakDst), err)
	}
	return n, nil
}

// publishBackup verifies the durable backup temp against the library
// copy's (whose bytes --verify checks against the source) and renames it
// into place.
func (r *run) publishBackup() error {
	b := r.bak
	if b == nil || b.kept {
		return nil
	}
	if !b.durable {
		return backupErr(b, errNotDurable)
	}
	same, err := digest.Equal(r.e.fs, r.tmp, b.tmp)
	if err != nil {
		return backupErr(b, fmt.Errorf("verify: %w", err))
	}
	if !same {
		return backupErr(b, ErrVerify)
	}
	err = r.e.fs.RenameNoReplace(b.tmp, b.op.Dst)
	if errors.Is(err, fs.ErrExist) {
		return backupErr(b, ErrBackupTaken)
	} else if err != nil {
		return backupErr(b, fmt.Errorf("rename temp into place: %w", err))
	}
	b.record("rename %s -> %s", b.tmpName(), b.op.Dst)
	b.res.Landed = true
	b.res.Dev, b.res.Ino = b.tmpDev, b.tmpIno
	r.e.markDirty(filepath.Dir(b.op.Dst))
	fsx.CrashPoint(r.e.fs, fsx.AfterRename)
	r.res.Backup = b.op.Dst
	return nil
}

// backupDone records the backup copy done once its library copy landed.
func (r *run) backupDone() {
	if b := r.bak; b != nil && b.res.Landed {
		if err := b.journalFinal(journal.Done, nil); err != nil {
			r.res.Err = err // reported after the landing, as any journal trouble
		}
	}
}

// withdrawBackup removes the backup copy this op just put in place when
// its library copy could not land: the file fails whole.
func (r *run) withdrawBackup(cause error) {
	b := r.bak
	if b == nil || !b.res.Landed {
		return
	}
	fi, err := r.e.fs.Lstat(b.op.Dst)
	if err == nil && fi.Mode().IsRegular() {
		if dev, ino := fsx.DevIno(fi); dev == b.tmpDev && ino == b.tmpIno {
			if r.e.fs.Remove(b.op.Dst) == nil {
				b.record("remove %s", b.op.Dst)
				b.res.Landed = false
				r.res.Backup = ""
				r.e.markDirty(filepath.Dir(b.op.Dst))
			}
		}
	}
	// Failed when withdrawn; Done when it could not be (it is in place,
	// whole, and undo must know it).
	if b.res.Landed {
		_ = b.journalFinal(journal.Done, nil)
		return
	}
	_ = b.journalFinal(journal.Failed, fmt.Errorf("withdrawn: the library copy failed: %w", cause))
}

const fallbackBackupMove = "moved with a backup: copied to the library and the backup, then the source removed"

// moveWithBackup is a move with --backup: the cross-device move's
// protocol with two copies. Both temps are filled from one read of the
// source and made durable; the backup is compared with the library temp
// and renamed into place, the library copy is compared with the source
// and renamed after it; both folders are synced, the backup is journaled
// done, and only then is the source removed (after its own synced Intent,
// as any move's). So at no moment is the source gone while either copy is
// missing, not durable or unverified. Even on one device the library copy
// is a copy, not a rename: the bytes read for the backup are written to
// the library in the same pass, and a rename would make no copy to verify.
func (r *run) moveWithBackup() error {
	r.res.Fallback = fallbackBackupMove
	info, err := r.stageCopies(false)
	if err != nil {
		return err
	}
	if r.e.dryRun {
		r.record("remove %s", r.op.Src)
		return nil
	}
	if err := r.syncTemp(); err != nil {
		return err
	}
	// The library copy is checked against the source first, so that a
	// corrupt one is not blamed on the backup compared with it.
	if err := r.verifyTemp(); err != nil {
		r.removeTemp()
		return err
	}
	if err := r.publishBackup(); err != nil {
		r.removeTemp()
		return err
	}
	if err := r.publishTemp(false); err != nil {
		r.removeTemp()
		r.withdrawBackup(err)
		return err
	}
	if err := r.syncBoth(); err != nil {
		// Both copies are in place, whole: undo must know them.
		r.backupDone()
		r.journalFinal(journal.Done, nil)
		return fmt.Errorf("copied to the library and the backup, but could not make them durable, source kept: %w", err)
	}
	// The backup's Done goes before the source's removal Intent, whose
	// sync makes it durable: recovery never meets a removed source whose
	// backup copy is not recorded (and so could not be undone).
	r.backupDone()
	if err := r.removeSource(info); err != nil {
		r.journalFinal(journal.Done, nil) // both copies landed; only the removal failed
		return fmt.Errorf("copied to the library and the backup, but %w: %w", ErrSourceKept, err)
	}
	return r.journalFinal(journal.Done, nil)
}

// syncBoth makes the library copy's and the backup copy's folders durable
// (an identical backup found in place too: a killed run may have renamed
// it there without syncing its folder), and a backup found in place its
// data as well: one copied there by hand may still be in the page cache.
func (r *run) syncBoth() error {
	if err := r.e.syncChain(filepath.Dir(r.op.Dst)); err != nil {
		return err
	}
	if r.bak.kept {
		if err := r.e.syncFile(r.bak.op.Dst); err != nil {
			return backupErr(r.bak, err)
		}
	}
	if err := r.e.syncChain(filepath.Dir(r.bak.op.Dst)); err != nil {
		return backupErr(r.bak, err)
	}
	return nil
}
