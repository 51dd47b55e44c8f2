// Package fsx is the small filesystem seam every mutation in shoebox goes
// through. OS is the real filesystem; Faults wraps any FS and injects errors,
// short writes, silent corruption and crash points so the transfer protocol
// can be tested against a real disk that misbehaves on demand.
package fsx

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// File is the subset of *os.File that shoebox uses. *os.File satisfies it.
type File interface {
	io.Reader
	io.ReaderAt
	io.Writer
	Sync() error
	Close() error
	Stat() (os.FileInfo, error)
	Name() string
	Fd() uintptr
}

// FS is the filesystem as seen by shoebox.
type FS interface {
	// Open opens a regular file for reading (following symbolic links) and
	// never blocks: anything else, a named pipe above all, is refused with
	// an error wrapping ErrNotRegular (see OpenRegular).
	Open(name string) (File, error)
	OpenFile(name string, flag int, perm os.FileMode) (File, error)
	Lstat(name string) (os.FileInfo, error)
	Stat(name string) (os.FileInfo, error)
	ReadDir(name string) ([]os.DirEntry, error)
	MkdirAll(path string, perm os.FileMode) error
	// RenameNoReplace renames oldpath to newpath but never replaces an
	// existing newpath: that case returns an error wrapping fs.ErrExist.
	RenameNoReplace(oldpath, newpath string) error
	Rename(oldpath, newpath string) error
	Link(oldname, newname string) error
	Symlink(oldname, newname string) error
	Remove(name string) error
	Chtimes(name string, atime, mtime time.Time) error
	// SyncDir makes the directory entries of dir durable. Filesystems that
	// cannot fsync a directory (ENOTSUP, EINVAL) are tolerated.
	SyncDir(dir string) error
	// SyncFS makes everything written to the filesystem holding path durable
	// (Linux syncfs): one call instead of one fsync per directory when a
	// batch touched many directories.
	SyncFS(path string) error
	// Clone makes dst share src's extents (FICLONE). Filesystems without
	// reflinks return an error wrapping errors.ErrUnsupported.
	Clone(dst, src File) error
}

// OS is the real filesystem.
var OS FS = osFS{}

type osFS struct{}

func (osFS) Open(name string) (File, error) {
	f, err := openRegular(name, true)
	if err != nil {
		return nil, err // avoid a typed-nil File
	}
	return f, nil
}

func (osFS) OpenFile(name string, flag int, perm os.FileMode) (File, error) {
	f, err := os.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return f, nil
}

func (osFS) Lstat(name string) (os.FileInfo, error)            { return os.Lstat(name) }
func (osFS) Stat(name string) (os.FileInfo, error)             { return os.Stat(name) }
func (osFS) ReadDir(name string) ([]os.DirEntry, error)        { return os.ReadDir(name) }
func (osFS) MkdirAll(path string, perm os.FileMode) error      { return os.MkdirAll(path, perm) }
func (osFS) Rename(oldpath, newpath string) error              { return os.Rename(oldpath, newpath) }
func (osFS) Link(oldname, newname string) error                { return os.Link(oldname, newname) }
func (osFS) Symlink(oldname, newname string) error             { return os.Symlink(oldname, newname) }
func (osFS) Remove(name string) error                          { return os.Remove(name) }
func (osFS) Chtimes(name string, atime, mtime time.Time) error { return os.Chtimes(name, atime, mtime) }

func (osFS) RenameNoReplace(oldpath, newpath string) error {
	err := renameNoReplace(oldpath, newpath)
	if err == nil {
		return nil
	}
	if !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOSYS) && !isNotSupported(err) {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
	}
	return renameByLink(oldpath, newpath)
}

// renameByLink emulates a no-replace rename where renameat2 is missing
// (old kernels, some network and FUSE filesystems): link(2) itself refuses
// to replace an existing name, so link+unlink is just as safe.
func renameByLink(oldpath, newpath string) error {
	err := os.Link(oldpath, newpath)
	if err == nil {
		if err := os.Remove(oldpath); err != nil {
			return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
		}
		return nil
	}
	var le *os.LinkError
	if errors.As(err, &le) && (errors.Is(le.Err, unix.EPERM) || isNotSupported(le.Err)) {
		return renameIfAbsent(oldpath, newpath)
	}
	return err
}

// renameIfAbsent is the last resort for filesystems with neither renameat2
// nor hard links (FAT on a USB stick): check, then rename. The window between
// the two is real but small, and such filesystems are single-writer anyway.
func renameIfAbsent(oldpath, newpath string) error {
	if _, err := os.Lstat(newpath); err == nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: syscall.EEXIST}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return os.Rename(oldpath, newpath)
}

func (osFS) SyncDir(dir string) error {
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
		return fmt.Errorf("close dir %q: %w", dir, closeErr)
	}
	return nil
}

func (osFS) SyncFS(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := syncFilesystem(int(f.Fd())); err != nil {
		return &os.PathError{Op: "syncfs", Path: path, Err: err}
	}
	return nil
}

func (osFS) Clone(dst, src File) error {
	err := cloneFile(int(dst.Fd()), int(src.Fd()))
	if err == nil {
		return nil
	}
	if cloneUnsupported(err) {
		return fmt.Errorf("clone %q to %q: %w (%w)", src.Name(), dst.Name(), errors.ErrUnsupported, err)
	}
	return fmt.Errorf("clone %q to %q: %w", src.Name(), dst.Name(), err)
}

// cloneUnsupported covers every way the kernel says "no reflink here":
// the filesystem lacks it, the two files are on different filesystems, or
// the ioctl is unknown to the file type.
func cloneUnsupported(err error) bool {
	return isNotSupported(err) || errors.Is(err, unix.EXDEV) ||
		errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOTTY) ||
		errors.Is(err, unix.ENOSYS)
}

func isNotSupported(err error) bool {
	return errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EOPNOTSUPP)
}

// SyncUnsupported reports whether a failed fsync only means the filesystem
// does not implement it (some FUSE and network filesystems); such an error
// is tolerated, every other fsync error means the data may not be on disk.
func SyncUnsupported(err error) bool {
	return isNotSupported(err) || errors.Is(err, unix.EINVAL)
}

// DevIno returns the device and inode numbers of fi, or zeros when the
// platform does not expose them.
func DevIno(fi os.FileInfo) (dev, ino uint64) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0
	}
	return uint64(st.Dev), st.Ino
}
