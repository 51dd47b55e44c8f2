//go:build unix && !linux && !darwin && !freebsd

package fsx

import "golang.org/x/sys/unix"

// Other Unixes get the portable paths: a no-replace rename by link and
// unlink, a flush by one fsync per folder, a reflink by a plain copy.

func renameNoReplace(oldpath, newpath string) error {
	return renameWithFallback(oldpath, newpath, func(string, string) error { return unix.ENOSYS })
}

func syncFilesystem(File) error { return unix.ENOTSUP }

func cloneFile(dst, src File) error { return unix.ENOTSUP }
