package fsx

import "golang.org/x/sys/unix"

// The three calls that make shoebox's writes cheap and safe on Linux; other
// systems get the portable fallbacks in sys_other.go.

// renameNoReplace is renameat2(RENAME_NOREPLACE): the kernel refuses to
// replace an existing name, atomically.
func renameNoReplace(oldpath, newpath string) error {
	return unix.Renameat2(unix.AT_FDCWD, oldpath, unix.AT_FDCWD, newpath, unix.RENAME_NOREPLACE)
}

// syncFilesystem is syncfs(2): every dirty page of the filesystem holding fd.
func syncFilesystem(fd int) error { return unix.Syncfs(fd) }

// cloneFile is the FICLONE ioctl: dst shares src's extents (a reflink).
func cloneFile(dst, src int) error { return unix.IoctlFileClone(dst, src) }
