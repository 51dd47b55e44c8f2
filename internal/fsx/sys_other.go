//go:build !linux

package fsx

import "golang.org/x/sys/unix"

// Where Linux's calls are missing, each reports "not supported" and the
// caller takes its portable path: a no-replace rename by link and unlink,
// a flush by one fsync per folder, a reflink by a plain copy.

func renameNoReplace(oldpath, newpath string) error { return unix.ENOSYS }

func syncFilesystem(fd int) error { return unix.ENOTSUP }

func cloneFile(dst, src int) error { return unix.ENOTSUP }
