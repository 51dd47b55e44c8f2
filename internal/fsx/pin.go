package fsx

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Pin returns fsys with every path under one of roots reached through
// that root's open folder (see Root): on Linux each such path is rewritten
// to /proc/self/fd/N/rest, so a create, mkdir, rename or remove lands on
// the drive the run started with or fails, and never in a folder that
// took the root's name since (the empty mount point of an unmounted
// drive). Where that is not possible, each operation under a root first
// checks that the root's name still leads to its folder and fails with a
// *GoneError when it does not. Errors and open files carry the caller's
// paths, never the rewritten ones. A Faults stays on top: its rules match
// the caller's paths.
func Pin(fsys FS, roots ...*Root) FS {
	var live []*Root
	for _, r := range roots {
		if r != nil {
			live = append(live, r)
		}
	}
	if len(live) == 0 {
		return fsys
	}
	if l, ok := fsys.(layer); ok {
		return l.withBase(Pin(l.under(), live...))
	}
	if p, ok := fsys.(*pinned); ok {
		// One pinned over another would open the inner one's rewritten
		// paths by name: a file so opened is named /proc/self/fd/N/...
		// in every error it gives. One pinned holds all the roots.
		return &pinned{base: p.base, roots: append(slices.Clone(p.roots), live...), direct: p.direct}
	}
	return &pinned{base: fsys, roots: live, direct: fsys == OS}
}

// layer is an FS that wraps another and can be rebuilt over a new base.
type layer interface {
	under() FS
	withBase(FS) FS
}

type pinned struct {
	base   FS
	roots  []*Root
	direct bool // base is the OS: opens are made here, named as the caller named them
}

// resolve maps name to the path the base is given and the root it lies
// under (nil: none). A root that cannot be reached through its open
// folder is checked instead, and its absence is the error.
func (p *pinned) resolve(name string) (string, *Root, error) {
	if !filepath.IsAbs(name) {
		return name, nil, nil
	}
	name = filepath.Clean(name)
	for _, r := range p.roots {
		if !nameUnder(name, r.name) {
			continue
		}
		if r.via == "" {
			return name, r, r.Present()
		}
		rel, _ := filepath.Rel(r.name, name)
		if rel == "." {
			return r.via, r, nil
		}
		return r.via + string(filepath.Separator) + rel, r, nil
	}
	return name, nil, nil
}

// back gives a rewritten path its caller's name again.
func (p *pinned) back(path string) string {
	for _, r := range p.roots {
		if r.via != "" && (path == r.via || strings.HasPrefix(path, r.via+string(filepath.Separator))) {
			return r.name + path[len(r.via):]
		}
	}
	return path
}

// unpin puts the caller's paths back into an error of the base.
func (p *pinned) unpin(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) && err == error(pe) {
		return &os.PathError{Op: pe.Op, Path: p.back(pe.Path), Err: pe.Err}
	}
	var le *os.LinkError
	if errors.As(err, &le) && err == error(le) {
		return &os.LinkError{Op: le.Op, Old: p.back(le.Old), New: p.back(le.New), Err: le.Err}
	}
	return err
}

func (p *pinned) Open(name string) (File, error) {
	path, root, err := p.resolve(name)
	if err != nil {
		return nil, err
	}
	if root != nil && root.via != "" && p.direct {
		return openVia(path, name)
	}
	f, err := p.base.Open(path)
	return f, p.unpin(err)
}

func (p *pinned) OpenFile(name string, flag int, perm os.FileMode) (File, error) {
	path, root, err := p.resolve(name)
	if err != nil {
		return nil, err
	}
	if root != nil && root.via != "" && p.direct {
		return openFileVia(path, name, flag, perm)
	}
	f, err := p.base.OpenFile(path, flag, perm)
	return f, p.unpin(err)
}

// one runs op on name's resolved path.
func (p *pinned) one(name string, op func(string) error) error {
	path, _, err := p.resolve(name)
	if err != nil {
		return err
	}
	return p.unpin(op(path))
}

// two runs op on both names' resolved paths.
func (p *pinned) two(a, b string, op func(string, string) error) error {
	pa, _, err := p.resolve(a)
	if err != nil {
		return err
	}
	pb, _, err := p.resolve(b)
	if err != nil {
		return err
	}
	return p.unpin(op(pa, pb))
}

func (p *pinned) Lstat(name string) (fi os.FileInfo, err error) {
	err = p.one(name, func(s string) error { fi, err = p.base.Lstat(s); return err })
	return fi, err
}

func (p *pinned) Stat(name string) (fi os.FileInfo, err error) {
	err = p.one(name, func(s string) error { fi, err = p.base.Stat(s); return err })
	return fi, err
}

func (p *pinned) ReadDir(name string) (ents []os.DirEntry, err error) {
	err = p.one(name, func(s string) error { ents, err = p.base.ReadDir(s); return err })
	return ents, err
}

func (p *pinned) MkdirAll(path string, perm os.FileMode) error {
	return p.one(path, func(s string) error { return p.base.MkdirAll(s, perm) })
}

func (p *pinned) RenameNoReplace(oldpath, newpath string) error {
	return p.two(oldpath, newpath, p.base.RenameNoReplace)
}

func (p *pinned) Rename(oldpath, newpath string) error {
	return p.two(oldpath, newpath, p.base.Rename)
}

func (p *pinned) Link(oldname, newname string) error {
	return p.two(oldname, newname, p.base.Link)
}

// Symlink pins only the new name: the target is the link's content, kept
// as the caller wrote it.
func (p *pinned) Symlink(oldname, newname string) error {
	return p.one(newname, func(s string) error { return p.base.Symlink(oldname, s) })
}

func (p *pinned) Remove(name string) error { return p.one(name, p.base.Remove) }

func (p *pinned) Chtimes(name string, atime, mtime time.Time) error {
	return p.one(name, func(s string) error { return p.base.Chtimes(s, atime, mtime) })
}

func (p *pinned) SyncDir(dir string) error  { return p.one(dir, p.base.SyncDir) }
func (p *pinned) SyncFS(path string) error  { return p.one(path, p.base.SyncFS) }
func (p *pinned) Clone(dst, src File) error { return p.base.Clone(dst, src) }

// CrashPoint passes the protocol's crash points on to a wrapped Faults.
func (p *pinned) CrashPoint(point string) { CrashPoint(p.base, point) }
