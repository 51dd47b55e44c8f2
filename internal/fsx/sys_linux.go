package fsx

import "golang.org/x/sys/unix"

// The three calls that make shoebox's writes cheap and safe on Linux.

// renameNoReplace is renameat2(RENAME_NOREPLACE): the kernel refuses to
// replace an existing name, atomically.
func renameNoReplace(oldpath, newpath string) error {
	return renameWithFallback(oldpath, newpath, func(o, n string) error {
		return unix.Renameat2(unix.AT_FDCWD, o, unix.AT_FDCWD, n, unix.RENAME_NOREPLACE)
	})
}

// syncFilesystem is syncfs(2): every dirty page of the filesystem holding f.
func syncFilesystem(f File) error { return unix.Syncfs(int(f.Fd())) }

// cloneFile is the FICLONE ioctl: dst shares src's extents (a reflink).
func cloneFile(dst, src File) error { return unix.IoctlFileClone(int(dst.Fd()), int(src.Fd())) }
