package transfer

import (
	"context"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/shoebox-photos/shoebox/internal/digest"
	"github.com/shoebox-photos/shoebox/internal/fsx"
)

// landCopy is the crash-safe copy protocol in one go: fill a fresh temp
// file beside the destination, check the source did not change meanwhile,
// fsync the temp, optionally verify, then rename it into place without
// replacing anything. On any failure the temp is removed and nothing is
// left at the destination. A batch (see Stage) runs the same three steps
// for many files, with one durability barrier between them.
func (r *run) landCopy(src fsx.File, before version, reflink, verify bool) error {
	if err := r.writeTemp(src, before, reflink); err != nil {
		return err
	}
	if err := r.syncTemp(); err != nil {
		return err
	}
	if err := r.publishTemp(verify); err != nil {
		r.removeTemp()
		return err
	}
	return nil
}

// writeTemp creates the temp file, fills it and sets its mtime, and checks
// that the source is still the version it started from; the temp is left
// open, not yet durable, for syncTemp. On failure the temp is removed.
func (r *run) writeTemp(src fsx.File, before version, reflink bool) error {
	perm := before.info.Mode().Perm()&0o666 | 0o400 // keep the source's bits, but stay readable for verification
	tmp, err := r.e.fs.OpenFile(r.tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("create temp: %w", err)
	}
	r.record("create %s", r.tmpName())
	err = r.fillTemp(tmp, src, before, reflink)
	if err == nil {
		err = r.checkSourceKept(src, before)
	}
	if err == nil {
		var fi os.FileInfo
		if fi, err = tmp.Stat(); err == nil {
			r.tmpDev, r.tmpIno = fsx.DevIno(fi)
		}
	}
	if err != nil {
		tmp.Close()
		r.removeTemp()
		return err
	}
	r.tmpFile = tmp
	return nil
}

func (r *run) fillTemp(tmp, src fsx.File, before version, reflink bool) error {
	if err := r.fillContent(tmp, src, before.info.Size(), reflink); err != nil {
		return err
	}
	fsx.CrashPoint(r.e.fs, fsx.AfterTempWrite)
	// The mtime is set before the fsync so that the fsync makes it durable
	// along with the data; nothing writes to the file afterwards.
	mtime := before.info.ModTime()
	if !r.op.LandModTime.IsZero() {
		mtime = r.op.LandModTime
	}
	if err := r.e.fs.Chtimes(r.tmp, time.Time{}, mtime); err != nil {
		return fmt.Errorf("set mtime: %w", err)
	}
	return nil
}

func (r *run) fillContent(tmp, src fsx.File, size int64, reflink bool) error {
	if reflink {
		err := r.e.fs.Clone(tmp, src)
		if err == nil {
			return nil
		}
		if !errors.Is(err, errors.ErrUnsupported) {
			return err
		}
		r.res.Fallback = fallbackReflink
	}
	var n int64
	var err error
	if r.e.hash {
		h, release := digest.Pooled()
		if n, err = copyData(r.ctx, tmp, src, h); err == nil {
			r.sum = new(digest.Sum)
			h.Sum(r.sum[:0])
		}
		release()
	} else {
		n, err = copyContent(r.ctx, tmp, src, size)
	}
	if err != nil {
		return err
	}
	if n != size {
		return fmt.Errorf("source %w: read %d bytes, expected %d", ErrChanged, n, size)
	}
	return nil
}

// checkSourceKept makes sure the bytes copied are one version of the
// source: same inode, size, mtime and ctime after the copy as before it.
func (r *run) checkSourceKept(src fsx.File, before version) error {
	after, err := src.Stat()
	if err != nil {
		return fmt.Errorf("stat source after copy: %w", err)
	}
	if !sameVersion(before, versionOf(src, after)) {
		return fmt.Errorf("source %w", ErrChanged)
	}
	return nil
}

// syncTemp makes the written temp durable (content and mtime) and closes
// it; only a temp that passed here may be renamed into place. On failure
// the temp is removed.
func (r *run) syncTemp() error {
	if r.bak != nil && !r.bak.kept && !r.bak.durable {
		if err := r.bak.syncTemp(); err != nil {
			r.removeTemp()
			return backupErr(r.bak, err)
		}
	}
	tmp := r.tmpFile
	r.tmpFile = nil
	if tmp == nil {
		return errors.New("no temp file to make durable")
	}
	err := tmp.Sync()
	if err != nil && !fsx.SyncUnsupported(err) {
		err = fmt.Errorf("fsync temp: %w", err)
	} else {
		err = nil
	}
	if closeErr := tmp.Close(); err == nil && closeErr != nil {
		err = fmt.Errorf("close temp: %w", closeErr)
	}
	if err != nil {
		r.removeTemp()
		return err
	}
	r.durable = true
	fsx.CrashPoint(r.e.fs, fsx.AfterSync)
	return nil
}

// errNotDurable is the protocol's own guard: a temp whose fsync has not
// succeeded is never renamed into place.
var errNotDurable = errors.New("temp file not made durable; not renamed into place")

// publishTemp verifies the durable temp if asked and renames it into
// place. The caller removes the temp on failure.
func (r *run) publishTemp(verify bool) error {
	if !r.durable {
		return errNotDurable
	}
	if verify {
		if err := r.verifyTemp(); err != nil {
			return err
		}
	}
	err := r.e.fs.RenameNoReplace(r.tmp, r.op.Dst)
	if errors.Is(err, fs.ErrExist) {
		return errDstExists
	} else if err != nil {
		return fmt.Errorf("rename temp into place: %w", err)
	}
	r.record("rename %s -> %s", r.tmpName(), r.op.Dst)
	r.res.Landed = true
	r.res.Dev, r.res.Ino, r.res.Sum = r.tmpDev, r.tmpIno, r.sum
	r.e.markDirty(filepath.Dir(r.op.Dst))
	fsx.CrashPoint(r.e.fs, fsx.AfterRename)
	return nil
}

func (r *run) verifyTemp() error {
	same, err := digest.Equal(r.e.fs, r.op.Src, r.tmp)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	if !same {
		return ErrVerify
	}
	return nil
}

// removeTemp deletes the temp after a failure (closing it first if it is
// still open). Its own failure is not reported over the original error; a
// temp left so keeps its name taken (it is never mistaken for a free name)
// and is named in the journal's Intent for this op, which is then left
// open (no Failed record; journalFinal): the executor counts it
// (TempsKept), the run leaves its journal unfinished, and the next run's
// recovery removes the temps of the Intents left open, as after a kill.
// A drive that fails (EIO, read-only) refuses the removal too; once it
// works again the same command cleans up.
func (r *run) removeTemp() {
	if r.bak != nil && !r.bak.res.Landed && !r.bak.kept {
		r.bak.removeTemp()
	}
	if r.tmpFile != nil {
		r.tmpFile.Close()
		r.tmpFile = nil
	}
	err := r.e.fs.Remove(r.tmp)
	switch {
	case err == nil:
		r.record("remove %s", r.tmpName())
		r.keepTemp(false)
	case !errors.Is(err, fs.ErrNotExist):
		r.keepTemp(true)
	}
}

// keepTemp notes whether the op's temp is left behind.
func (r *run) keepTemp(kept bool) {
	if r.tempKept == kept || r.e.dryRun {
		return
	}
	r.tempKept = kept
	if kept {
		r.e.tempsKept.Add(1)
	} else {
		r.e.tempsKept.Add(-1)
	}
}

// kernelCopyChunk is how much one copy_file_range call copies: small enough
// that a cancelled run stops mid-file soon, large enough to be few calls.
const kernelCopyChunk = 8 << 20

// copyContent copies src (size bytes, as scanned) to dst inside the kernel
// where it can (fsx.CopyRange: no bytes through user space), and with reads
// and writes where it cannot or as soon as the kernel copies nothing (a
// source that shrank, a filesystem that declines silently). Either way the
// caller compares the total with the size, and verification reads the temp
// back: how the bytes moved changes nothing after.
//
// Files under one copy buffer go by one read and one write: the kernel
// copy would save them little and cost its own checks.
func copyContent(ctx context.Context, dst, src fsx.File, size int64) (int64, error) {
	var total int64
	for size >= copyBufSize && total < size {
		if err := ctx.Err(); err != nil {
			return total, err
		}
		n, err := fsx.CopyRange(dst, src, min(size-total, kernelCopyChunk))
		total += n
		if errors.Is(err, errors.ErrUnsupported) || (err == nil && n == 0) {
			break
		}
		if err != nil {
			return total, err
		}
	}
	// The rest, if any, by reads and writes; also what proves the source
	// did not grow: one more read must find its end.
	n, err := copyData(ctx, dst, src, nil)
	return total + n, err
}

// copyBufSize balances syscall count against memory for N workers.
const copyBufSize = 1 << 20

var copyBufs = sync.Pool{New: func() any {
	b := make([]byte, copyBufSize)
	return &b
}}

// copyData copies src to dst through a pooled buffer, checking ctx between
// chunks so a cancelled run stops mid-file; h, when not nil, hashes the
// bytes written.
func copyData(ctx context.Context, dst io.Writer, src io.Reader, h hash.Hash) (int64, error) {
	bufp := copyBufs.Get().(*[]byte)
	defer copyBufs.Put(bufp)
	buf := *bufp
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return total, err
		}
		n, readErr := src.Read(buf)
		if n > 0 {
			w, err := dst.Write(buf[:n])
			total += int64(w)
			if err != nil {
				return total, fmt.Errorf("write temp: %w", err)
			}
			if w != n {
				return total, fmt.Errorf("write temp: %w", io.ErrShortWrite)
			}
			if h != nil {
				h.Write(buf[:n])
			}
		}
		if readErr == io.EOF {
			return total, nil
		}
		if readErr != nil {
			return total, fmt.Errorf("read source: %w", readErr)
		}
	}
}

// openSource opens the source for copying after checking it is a regular
// file that still matches the scan. Lstat comes first so a FIFO is never
// opened (that would block).
func (r *run) openSource() (fsx.File, version, error) {
	scanned, err := r.lstatSource()
	if err != nil {
		return nil, version{}, err
	}
	f, err := r.e.fs.Open(r.op.Src)
	if err != nil {
		return nil, version{}, sourceErr(err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, version{}, fmt.Errorf("stat source: %w", err)
	}
	if !sameFileUnchanged(scanned, info) {
		f.Close()
		return nil, version{}, fmt.Errorf("source %w: replaced while being opened", ErrChanged)
	}
	return f, versionOf(f, info), nil
}

// lstatSource checks that the source exists, is a regular file, and still
// has the size and mtime it was scanned with. A symbolic link is refused,
// unless the op was scanned through links: then the file it resolves to is
// checked.
func (r *run) lstatSource() (os.FileInfo, error) {
	info, err := r.e.fs.Lstat(r.op.Src)
	if err != nil {
		return nil, sourceErr(err)
	}
	if r.op.FollowLink && info.Mode()&fs.ModeSymlink != 0 {
		if info, err = r.e.fs.Stat(r.op.Src); err != nil {
			return nil, sourceErr(err)
		}
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("source is %w (%s)", fsx.ErrNotRegular, fsx.KindOf(info.Mode()))
	}
	if info.Size() != r.op.Size {
		return nil, fmt.Errorf("source %w: scanned at %d bytes, now %d", ErrChanged, r.op.Size, info.Size())
	}
	if !r.op.ModTime.IsZero() && !info.ModTime().Equal(r.op.ModTime) {
		return nil, fmt.Errorf("source %w: scanned with mtime %s, now %s", ErrChanged,
			r.op.ModTime.Format(time.RFC3339Nano), info.ModTime().Format(time.RFC3339Nano))
	}
	return info, nil
}

func sourceErr(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("source missing (it vanished after the scan): %w", fsx.Bare(err))
	}
	return fmt.Errorf("cannot read the source: %w", fsx.Bare(err))
}

// sameFileUnchanged reports whether two stats show one regular file with
// the same size and mtime. The inode number alone is not enough: a file
// removed and replaced (by a named pipe, by another file) often gets the
// freed inode number back at once.
func sameFileUnchanged(a, b os.FileInfo) bool {
	return fsx.SameFile(a, b) && a.Mode().IsRegular() && b.Mode().IsRegular() &&
		a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// version is one content version of a file as seen without reading it:
// its stat (identity, size, mtime) and its change time, which moves on a
// write even when the writer puts the mtime back.
type version struct {
	info  os.FileInfo
	ctime int64 // ns; 0 where the filesystem has none
}

// versionOf is the version of the open file f, whose stat is info.
func versionOf(f fsx.File, info os.FileInfo) version {
	return version{info, changeTimeOf(f, info)}
}

// versionAt is the version of the file at path, whose Lstat is info.
func versionAt(path string, info os.FileInfo) version {
	return version{info, changeTimeAt(path, info)}
}

// sameVersion reports whether two looks at a file show the same content
// version: same file, size, mtime and change time.
func sameVersion(a, b version) bool {
	return fsx.SameFile(a.info, b.info) && a.info.Size() == b.info.Size() &&
		a.info.ModTime().Equal(b.info.ModTime()) && a.ctime == b.ctime
}
