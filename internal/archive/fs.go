package archive

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
)

// Set is the archives a run reads, by their paths. A nil *Set is an
// empty one.
type Set struct {
	paths    []string
	archives []*Archive
	failed   []Problem
}

// OpenSet opens every archive in paths. On error the ones opened are
// closed again.
func OpenSet(paths []string) (*Set, error) {
	s := OpenEach(paths)
	if len(s.failed) > 0 {
		s.Close()
		return nil, s.failed[0]
	}
	return s, nil
}

// OpenEach opens every archive in paths; those that cannot be read are
// kept in Failed, so that a run can report them and read the rest.
func OpenEach(paths []string) *Set {
	s := &Set{paths: paths}
	for _, p := range paths {
		a, err := Open(p)
		if err != nil {
			s.failed = append(s.failed, err.(Problem))
			continue
		}
		s.archives = append(s.archives, a)
	}
	return s
}

// Archives are the archives of the set that could be read, in the order
// given.
func (s *Set) Archives() []*Archive {
	if s == nil {
		return nil
	}
	return s.archives
}

// Failed are the archives that could not be read, and why.
func (s *Set) Failed() []Problem {
	if s == nil {
		return nil
	}
	return s.failed
}

// Holds reports whether path is one of the set's archives, read or not.
func (s *Set) Holds(path string) bool {
	if s == nil {
		return false
	}
	for _, p := range s.paths {
		if p == path {
			return true
		}
	}
	return false
}

// Close closes every archive.
func (s *Set) Close() error {
	if s == nil {
		return nil
	}
	var errs []error
	for _, a := range s.archives {
		errs = append(errs, a.Close())
	}
	s.archives = nil
	return errors.Join(errs...)
}

// Lookup finds the member at path. inside is true when path lies under
// one of the set's archives, whether or not such a member exists.
func (s *Set) Lookup(path string) (m *Member, inside bool) {
	if s == nil {
		return nil, false
	}
	for _, a := range s.archives {
		rest, ok := strings.CutPrefix(path, a.Path+string(filepath.Separator))
		if !ok {
			continue
		}
		return a.members[filepath.ToSlash(rest)], true
	}
	return nil, false
}

// Open opens the member at path as a read-only fsx.File; ok is false when
// path is not under one of the set's archives.
func (s *Set) Open(path string) (f fsx.File, ok bool, err error) {
	m, inside := s.Lookup(path)
	switch {
	case !inside:
		return nil, false, nil
	case m == nil:
		return nil, true, &fs.PathError{Op: "open", Path: path, Err: ErrNotInSource}
	}
	return &memberFile{m: m, path: path}, true, nil
}

// FS wraps base so that paths under the set's archives open, stat and
// lstat as their members, read-only; every other path goes to base.
func (s *Set) FS(base fsx.FS) fsx.FS { return &archiveFS{FS: base, set: s} }

type archiveFS struct {
	fsx.FS
	set *Set
}

func (a *archiveFS) Open(name string) (fsx.File, error) {
	if f, ok, err := a.set.Open(name); ok {
		return f, err
	}
	return a.FS.Open(name)
}

func (a *archiveFS) Lstat(name string) (os.FileInfo, error) { return a.stat("lstat", name, a.FS.Lstat) }
func (a *archiveFS) Stat(name string) (os.FileInfo, error)  { return a.stat("stat", name, a.FS.Stat) }

func (a *archiveFS) stat(op, name string, base func(string) (os.FileInfo, error)) (os.FileInfo, error) {
	m, inside := a.set.Lookup(name)
	switch {
	case !inside:
		return base(name)
	case m == nil:
		return nil, &fs.PathError{Op: op, Path: name, Err: ErrNotInSource}
	}
	return memberInfo{m}, nil
}

// The calls that would change a path: refused under an archive (no
// command asks for them there; this keeps it so).
func (a *archiveFS) OpenFile(name string, flag int, perm os.FileMode) (fsx.File, error) {
	if err := a.readOnly("open", name); err != nil {
		return nil, err
	}
	return a.FS.OpenFile(name, flag, perm)
}

func (a *archiveFS) Remove(name string) error {
	if err := a.readOnly("remove", name); err != nil {
		return err
	}
	return a.FS.Remove(name)
}

func (a *archiveFS) Rename(oldpath, newpath string) error {
	if err := a.readOnly("rename", oldpath); err != nil {
		return err
	}
	return a.FS.Rename(oldpath, newpath)
}

func (a *archiveFS) RenameNoReplace(oldpath, newpath string) error {
	if err := a.readOnly("rename", oldpath); err != nil {
		return err
	}
	return a.FS.RenameNoReplace(oldpath, newpath)
}

func (a *archiveFS) Link(oldname, newname string) error {
	if err := a.readOnly("link", oldname); err != nil {
		return err
	}
	return a.FS.Link(oldname, newname)
}

func (a *archiveFS) Chtimes(name string, atime, mtime time.Time) error {
	if err := a.readOnly("chtimes", name); err != nil {
		return err
	}
	return a.FS.Chtimes(name, atime, mtime)
}

// Clone cannot share a member's extents: the caller copies instead.
func (a *archiveFS) Clone(dst, src fsx.File) error {
	if _, ok := src.(*memberFile); ok {
		return &fs.PathError{Op: "clone", Path: src.Name(), Err: errors.ErrUnsupported}
	}
	return a.FS.Clone(dst, src)
}

func (a *archiveFS) readOnly(op, name string) error {
	if _, inside := a.set.Lookup(name); inside {
		return &fs.PathError{Op: op, Path: name, Err: ErrReadOnly}
	}
	return nil
}

// memberInfo is a member's FileInfo: a read-only regular file.
type memberInfo struct{ m *Member }

func (i memberInfo) Name() string       { return filepath.Base(filepath.FromSlash(i.m.Name)) }
func (i memberInfo) Size() int64        { return i.m.Size }
func (i memberInfo) Mode() fs.FileMode  { return 0o444 }
func (i memberInfo) ModTime() time.Time { return i.m.ModTime }
func (i memberInfo) IsDir() bool        { return false }
func (i memberInfo) Sys() any           { return i.m }

// memberFile is an open member. Read streams it from the start (checked
// against its declared size and CRC); ReadAt serves the header reader.
type memberFile struct {
	m    *Member
	path string
	seq  io.ReadCloser // Read's stream, opened on first use
	at   randomReader
}

func (f *memberFile) Read(p []byte) (int, error) {
	if f.seq == nil {
		rc, err := f.m.open()
		if err != nil {
			return 0, err
		}
		f.seq = rc
	}
	return f.seq.Read(p)
}

func (f *memberFile) ReadAt(p []byte, off int64) (int, error) { return f.at.readAt(f.m, p, off) }

func (f *memberFile) Write([]byte) (int, error) {
	return 0, &fs.PathError{Op: "write", Path: f.path, Err: ErrReadOnly}
}

func (f *memberFile) Sync() error                { return nil }
func (f *memberFile) Stat() (os.FileInfo, error) { return memberInfo{f.m}, nil }
func (f *memberFile) Name() string               { return f.path }

// Fd is no descriptor: calls that need one (a reflink) are refused by
// the FS before they get here.
func (f *memberFile) Fd() uintptr { return ^uintptr(0) }

func (f *memberFile) Close() error {
	var err error
	if f.seq != nil {
		err = f.seq.Close()
		f.seq = nil
	}
	f.at.close()
	return err
}

// Split finds the archive in a path that names one of its members,
// "ARCHIVE:MEMBER" or "ARCHIVE/MEMBER" (the form sort reports): the
// shortest prefix ending at a colon or separator that is an archive file.
// ok is false when no prefix is.
func Split(path string) (archivePath, member string, ok bool) {
	for i := 1; i < len(path); i++ {
		if path[i] != ':' && !os.IsPathSeparator(path[i]) {
			continue
		}
		prefix := path[:i]
		if !Is(prefix) {
			continue
		}
		if info, err := os.Stat(prefix); err == nil && info.Mode().IsRegular() {
			return prefix, path[i+1:], true
		}
	}
	return "", "", false
}

// Archive is the archive m belongs to.
func (m *Member) Owner() *Archive { return m.a }

func pathDir(name string) string {
	i := strings.LastIndexByte(name, '/')
	if i < 0 {
		return ""
	}
	return name[:i]
}
