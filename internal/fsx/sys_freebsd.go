package fsx

import "golang.org/x/sys/unix"

// FreeBSD has no no-replace rename flag, no syncfs and no reflink ioctl
// (its copy_file_range may share blocks on ZFS, but promises nothing): the
// rename falls back to link and unlink, a flush to one fsync per folder,
// and --mode reflink to a verified copy.

func renameNoReplace(oldpath, newpath string) error {
	return renameWithFallback(oldpath, newpath, func(string, string) error { return unix.ENOSYS })
}

func syncFilesystem(File) error { return unix.ENOTSUP }

func cloneFile(dst, src File) error { return unix.ENOTSUP }
