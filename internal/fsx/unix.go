//go:build unix

package fsx

import (
	"errors"
	"os"
	"syscall"
)

// What every Unix shares: errors are already POSIX errnos, opens need no
// sharing flags, a directory is made durable by fsyncing it, and a
// no-replace rename can always fall back to link and unlink.

func openFile(name string, flag int, perm os.FileMode) (File, error) {
	f, err := os.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err // avoid a typed-nil File
	}
	return f, nil
}

// platformHints are for Windows' errors only.
var platformHints []errnoHint

// platformFile needs no wrapping on Unix.
func platformFile(f *os.File) File { return f }

// posixEquivalent is for Windows' errors only.
func posixEquivalent(error) (syscall.Errno, bool) { return 0, false }

// portable is the identity on Unix: its errors are the POSIX errnos that
// shoebox classifies with errors.Is.
func portable(err error) error { return err }

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	syncErr := d.Sync()
	closeErr := d.Close()
	if syncErr != nil && !SyncUnsupported(syncErr) {
		return syncErr
	}
	if closeErr != nil {
		return &os.PathError{Op: "close", Path: dir, Err: closeErr}
	}
	return nil
}

// renameByLink is the no-replace rename where the system call
// is missing (old kernels, some network and FUSE filesystems, FreeBSD):
// link(2) itself refuses to replace an existing name, so link+unlink is
// just as safe.
func renameByLink(oldpath, newpath string) error {
	err := os.Link(oldpath, newpath)
	if err == nil {
		if err := os.Remove(oldpath); err != nil {
			return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
		}
		return nil
	}
	var le *os.LinkError
	if errors.As(err, &le) && (errors.Is(le.Err, syscall.EPERM) || isNotSupported(le.Err)) {
		return renameIfAbsent(oldpath, newpath)
	}
	return err
}

// renameIfAbsent is the last resort for filesystems with neither a
// no-replace rename nor hard links (FAT on a USB stick): check, then
// rename. The window between the two is real but small, and such
// filesystems are single-writer anyway.
func renameIfAbsent(oldpath, newpath string) error {
	if _, err := os.Lstat(newpath); err == nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: syscall.EEXIST}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return os.Rename(oldpath, newpath)
}

// renameWithFallback runs the system's no-replace rename and, where the
// system or filesystem lacks it, the link-based one.
func renameWithFallback(oldpath, newpath string, native func(string, string) error) error {
	err := native(oldpath, newpath)
	if err == nil {
		return nil
	}
	if !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOSYS) && !isNotSupported(err) {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
	}
	return renameByLink(oldpath, newpath)
}

// DevIno returns the device and inode numbers of fi, or zeros when fi did
// not come from a stat.
func DevIno(fi os.FileInfo) (dev, ino uint64) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0
	}
	return uint64(st.Dev), uint64(st.Ino)
}
