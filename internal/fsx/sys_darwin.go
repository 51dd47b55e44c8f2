package fsx

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// macOS: renamex_np(RENAME_EXCL) is the atomic no-replace rename (APFS and
// HFS+; other filesystems fall back to link and unlink). Durability needs
// no call of ours: Go's File.Sync on darwin is fcntl(F_FULLFSYNC), which
// also empties the drive's cache, and SyncDir fsyncs through it too.
// --mode reflink is clonefile(2) (APFS), see cloneFile.

func renameNoReplace(oldpath, newpath string) error {
	return renameWithFallback(oldpath, newpath, func(o, n string) error {
		return unix.RenamexNp(o, n, unix.RENAME_EXCL)
	})
}

func syncFilesystem(File) error { return unix.ENOTSUP }

// cloneFile makes dst, the empty temp file the caller created and holds
// open, a clone of src sharing its blocks (APFS). macOS clones only into a
// new name (fclonefileat(2)), so the empty temp is unlinked, the clone made
// from src's descriptor at the temp's name (refused, never replacing, if
// anything took the name meanwhile), and the clone's descriptor put under
// dst's own (dup2): the caller's handle, its Stat, Sync and Close then
// work on the clone, keeping the temp's permission bits. Where the volume
// cannot clone (HFS+, exFAT, network shares, another volume), an empty temp
// is made again under the name and handle (O_EXCL) and the clone's error is
// returned, so the caller copies into the temp as on any other system.
func cloneFile(dst, src File) error {
	name := dst.Name()
	var st unix.Stat_t
	if err := unix.Fstat(int(dst.Fd()), &st); err != nil {
		return &os.PathError{Op: "fstat", Path: name, Err: err}
	}
	if st.Size != 0 || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return &os.PathError{Op: "clonefile", Path: name, Err: errNotFreshTemp} // not unsupported: no copy over it either
	}
	if err := unix.Unlink(name); err != nil {
		return &os.PathError{Op: "unlink", Path: name, Err: err}
	}
	cloneErr := unix.Fclonefileat(int(src.Fd()), unix.AT_FDCWD, name, unix.CLONE_NOFOLLOW|unix.CLONE_NOOWNERCOPY)
	flags := unix.O_WRONLY | unix.O_NOFOLLOW | unix.O_CLOEXEC
	if cloneErr != nil {
		flags |= unix.O_CREAT | unix.O_EXCL // the empty temp again, for the caller's copy
	}
	perm := uint32(st.Mode & 0o7777)
	fd, err := unix.Open(name, flags, perm)
	if err != nil {
		return &os.PathError{Op: "open", Path: name, Err: err} // not ErrUnsupported: the caller removes the temp
	}
	defer unix.Close(fd)
	if cloneErr == nil {
		if err := unix.Fchmod(fd, perm); err != nil { // the clone has the source's bits
			return &os.PathError{Op: "chmod", Path: name, Err: err}
		}
	}
	if err := unix.Dup2(fd, int(dst.Fd())); err != nil {
		return &os.PathError{Op: "dup2", Path: name, Err: err}
	}
	if cloneErr != nil {
		return &os.PathError{Op: "clonefile", Path: name, Err: cloneErr}
	}
	return nil
}

var errNotFreshTemp = errors.New("clone target is not an empty new file")
