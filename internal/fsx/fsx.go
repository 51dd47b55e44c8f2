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

	"github.com/shoebox-photos/shoebox/internal/quote"
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
		return nil, portable(err) // and avoid a typed-nil File
	}
	return platformFile(f), nil
}

// OpenFile opens with openFile, which on Windows lets other programs (and
// shoebox's own renames) read, write, rename and delete the file meanwhile.
func (osFS) OpenFile(name string, flag int, perm os.FileMode) (File, error) {
	return openFile(name, flag, perm)
}

func (osFS) Lstat(name string) (os.FileInfo, error)     { return os.Lstat(name) }
func (osFS) Stat(name string) (os.FileInfo, error)      { return os.Stat(name) }
func (osFS) ReadDir(name string) ([]os.DirEntry, error) { return os.ReadDir(name) }
func (osFS) MkdirAll(path string, perm os.FileMode) error {
	return portable(os.MkdirAll(path, perm))
}
func (osFS) Rename(oldpath, newpath string) error { return portable(os.Rename(oldpath, newpath)) }
func (osFS) Link(oldname, newname string) error   { return portable(os.Link(oldname, newname)) }
func (osFS) Symlink(oldname, newname string) error {
	return portable(os.Symlink(oldname, newname))
}
func (osFS) Remove(name string) error { return portable(os.Remove(name)) }
func (osFS) Chtimes(name string, atime, mtime time.Time) error {
	return portable(os.Chtimes(name, atime, mtime))
}

func (osFS) RenameNoReplace(oldpath, newpath string) error {
	return portable(renameNoReplace(oldpath, newpath))
}

func (osFS) SyncDir(dir string) error { return portable(syncDir(dir)) }

// SyncDir makes the directory entries of dir durable where the platform
// can (not on Windows, which has no way to): for the writers that do not
// go through an FS (journal, config).
func SyncDir(dir string) error { return OS.SyncDir(dir) }

func (osFS) SyncFS(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := syncFilesystem(f); err != nil {
		return &os.PathError{Op: "syncfs", Path: path, Err: err}
	}
	return nil
}

func (osFS) Clone(dst, src File) error {
	err := cloneFile(dst, src)
	if err == nil {
		return nil
	}
	if cloneUnsupported(err) {
		return fmt.Errorf("clone %s to %s: %w (%w)", quote.Path(src.Name()), quote.Path(dst.Name()), errors.ErrUnsupported, err)
	}
	return fmt.Errorf("clone %s to %s: %w", quote.Path(src.Name()), quote.Path(dst.Name()), err)
}

// cloneUnsupported covers every way the system says "no reflink here":
// the filesystem lacks it, the two files are on different filesystems, or
// the call is unknown to the file type.
func cloneUnsupported(err error) bool {
	return isNotSupported(err) || errors.Is(err, syscall.EXDEV) ||
		errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTTY) ||
		errors.Is(err, syscall.ENOSYS)
}

func isNotSupported(err error) bool {
	return errors.Is(err, syscall.ENOTSUP) || errors.Is(err, syscall.EOPNOTSUPP)
}

// SyncUnsupported reports whether a failed fsync only means the filesystem
// does not implement it (some FUSE and network filesystems); such an error
// is tolerated, every other fsync error means the data may not be on disk.
func SyncUnsupported(err error) bool {
	return isNotSupported(err) || errors.Is(err, syscall.EINVAL)
}

// SameFile is os.SameFile, and also knows the FileInfos of a wrapping FS
// whose Sys can tell (an archive's members, internal/archive): their Sys
// has a SameFile method.
func SameFile(a, b os.FileInfo) bool {
	if s, ok := a.Sys().(interface{ SameFile(other any) bool }); ok {
		return s.SameFile(b.Sys())
	}
	return os.SameFile(a, b)
}
