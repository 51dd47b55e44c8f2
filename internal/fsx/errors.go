package fsx

import (
	"errors"
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
		if errors.Is(err, errno) {
			return true
		}
	}
	return false
}

var hints = []struct {
	errno syscall.Errno
	hint  string
}{
	{syscall.ENOSPC, "the destination is full"},
	{syscall.EDQUOT, "your disk quota is used up"},
	{syscall.EROFS, "is the disk or share mounted read-only?"},
	{syscall.EACCES, "check the folder's permissions"},
	{syscall.EPERM, "the operation is not permitted here (permissions, or a filesystem without this feature)"},
	{syscall.EXDEV, "source and destination are on different disks"},
	{syscall.ENAMETOOLONG, "the file name or path is too long for this filesystem"},
	{syscall.EIO, "the disk reported an I/O error: check the drive and its cable"},
	{syscall.ENOENT, "the file or folder no longer exists"},
	{syscall.EEXIST, "something already exists at the destination"},
	{syscall.EMFILE, "too many open files: raise the limit with ulimit -n"},
}

// Hint returns a short human hint for err, or "" when there is none.
func Hint(err error) string {
	for _, h := range hints {
		if errors.Is(err, h.errno) {
			return h.hint
		}
	}
	return ""
}
