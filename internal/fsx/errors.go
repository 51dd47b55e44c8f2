package fsx

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// IsPermanent reports whether err will fail again if the same operation is
// retried unchanged (full disk, permissions, read-only mount, bad name), as
// opposed to transient errors (EINTR, EAGAIN, EIO) worth one more try.
func IsPermanent(err error) bool {
	for _, errno := range []syscall.Errno{
		syscall.ENOSPC, syscall.EDQUOT, syscall.EACCES, syscall.EPERM,
		syscall.EROFS, syscall.ENAMETOOLONG,
	} {
		if is(err, errno) {
			return true
		}
	}
	return false
}

type errnoHint struct {
	errno syscall.Errno
	hint  string
}

var hints = []errnoHint{
	{syscall.ENOSPC, "the destination is full"},
	{syscall.EDQUOT, "your disk quota is used up"},
	{syscall.EROFS, "is the disk or share mounted read-only?"},
	{syscall.EPERM, "the operation is not permitted here (permissions, or a filesystem without this feature)"},
	{syscall.EXDEV, "source and destination are on different disks"},
	{syscall.ENAMETOOLONG, "the file name or path is too long for this filesystem"},
	{syscall.EIO, "the disk reported an I/O error: check the drive and its cable"},
	// No hint for ENOENT: only the caller knows whether the path was seen
	// before ("it vanished after the scan") or never existed (a mistyped
	// source), and "no such file or directory" says the rest.
	{syscall.EEXIST, "something already exists at the destination"},
	{syscall.EMFILE, "too many open files: raise the limit with ulimit -n"},
}

// Hint returns a short human hint for err, or "" when there is none.
func Hint(err error) string {
	if is(err, syscall.EACCES) {
		return permissionHint(err)
	}
	for _, h := range append(platformHints, hints...) {
		if is(err, h.errno) {
			return h.hint
		}
	}
	return ""
}

// permissionHint names what to check for a permission error: the file, the
// folder, or the folders above a path that cannot even be looked at. It
// asks the filesystem what the path of the failed call is; a path that
// does not exist was being created, so its folder is the one to check.
func permissionHint(err error) string {
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path == "" {
		return "check the permissions"
	}
	st, serr := os.Lstat(pe.Path)
	switch {
	case errors.Is(serr, fs.ErrNotExist):
		return "check the folder's permissions"
	case serr != nil:
		return "check the permissions of the folders above it"
	case st.IsDir():
		return "check the folder's permissions"
	}
	return "check the file's permissions"
}

// Bare drops the "open /path: " that a *fs.PathError prints, for a message
// whose own words name the path already, so that it never reads
// `open "x": open x: permission denied`. The path error stays in the chain
// (errors.Is, errors.As and Hint see it); only its text is shortened.
func Bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && err == error(pe) {
		return bare{pe}
	}
	return err
}

type bare struct{ pe *fs.PathError }

func (b bare) Error() string { return b.pe.Err.Error() }
func (b bare) Unwrap() error { return b.pe }

// is is errors.Is for an errno class, also matching a Windows error whose
// POSIX equivalent it is (ERROR_DISK_FULL is ENOSPC).
func is(err error, errno syscall.Errno) bool {
	if errors.Is(err, errno) {
		return true
	}
	posix, ok := posixEquivalent(err)
	return ok && posix == errno
}
