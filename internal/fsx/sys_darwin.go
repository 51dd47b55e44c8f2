package fsx

import "golang.org/x/sys/unix"

// macOS: renamex_np(RENAME_EXCL) is the atomic no-replace rename (APFS and
// HFS+; other filesystems fall back to link and unlink). Durability needs
// no call of ours: Go's File.Sync on darwin is fcntl(F_FULLFSYNC), which
// also empties the drive's cache, and SyncDir fsyncs through it too.
//
// clonefile(2) is not used for --mode reflink yet: it creates its
// destination by name, while this seam clones into a temp file shoebox
// already holds open (and fsyncs, stats and records by that handle).
// Until the seam clones by path, reflink falls back to a verified copy.

func renameNoReplace(oldpath, newpath string) error {
	return renameWithFallback(oldpath, newpath, func(o, n string) error {
		return unix.RenamexNp(o, n, unix.RENAME_EXCL)
	})
}

func syncFilesystem(File) error { return unix.ENOTSUP }

func cloneFile(dst, src File) error { return unix.ENOTSUP }
