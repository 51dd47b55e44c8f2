package fsx

import (
	"os"
	"strings"
	"sync"
	"time"
)

// Crash points the transfer protocol announces through CrashPoint.
const (
	AfterTempWrite    = "after-temp-write"
	AfterSync         = "after-sync"
	AfterRename       = "after-rename"
	AfterRemoveSource = "after-remove-source"
	// AfterMkdir: a destination folder was created, its Done not journaled.
	AfterMkdir = "after-mkdir"
)

// CrashPoint announces that the caller reached a named point of a protocol.
// It does nothing unless fsys is (or wraps) a Faults with a crash hook: the
// real filesystem never sees it.
func CrashPoint(fsys FS, point string) {
	if cp, ok := fsys.(interface{ CrashPoint(string) }); ok {
		cp.CrashPoint(point)
	}
}

// Rule describes one injected fault.
type Rule struct {
	// Op is the operation to match: "open", "create" (OpenFile with
	// O_CREATE), "read", "write", "sync", "rename" (both renames), "link",
	// "symlink", "remove", "mkdir", "chtimes", "syncdir" or "clone".
	Op string
	// Path must be a substring of the path (either path, for renames and
	// links); "" matches every path.
	Path string
	// After lets this many matching calls through before the rule fires.
	After int
	// Times is how often the rule fires once armed; 0 means every time.
	Times int
	// Err is returned by the faulted call.
	Err error
	// Short (write only) writes only half the buffer and returns the short
	// count with Err, which may be nil: a lying device or a full quota.
	Short bool
	// Corrupt (write only) flips one byte of the data written and reports
	// success: silent corruption that only verification can catch.
	Corrupt bool
}

// Faults wraps an FS and injects the faults described by its rules while
// still performing every other call on the real disk. It is safe for
// concurrent use.
type Faults struct {
	base FS
	*faultState
}

// faultState is shared by a Faults and the copies Pin makes of it over
// another base: one set of rules, one record of calls.
type faultState struct {
	mu    sync.Mutex
	rules []*armedRule
	crash func(point string)
	calls map[string][]string // op → first path of every call, for assertions
}

type armedRule struct {
	Rule
	seen, fired int
}

// NewFaults wraps base.
func NewFaults(base FS) *Faults { return &Faults{base: base, faultState: &faultState{}} }

// under and withBase let Pin slip beneath the injector: the rules see
// (and match) the paths the caller gave, the disk gets them pinned.
func (f *Faults) under() FS           { return f.base }
func (f *Faults) withBase(base FS) FS { return &Faults{base: base, faultState: f.faultState} }

// Add appends a rule and returns f, for chaining.
func (f *Faults) Add(r Rule) *Faults {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rules = append(f.rules, &armedRule{Rule: r})
	return f
}

// OnCrashPoint sets the hook called at every crash point the protocol
// reaches; a test hook typically calls os.Exit there.
func (f *Faults) OnCrashPoint(hook func(point string)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.crash = hook
}

// CrashPoint calls the crash hook, if any.
func (f *Faults) CrashPoint(point string) {
	f.mu.Lock()
	hook := f.crash
	f.mu.Unlock()
	if hook != nil {
		hook(point)
	}
}

// Calls returns the path of every call of op so far (the old path for
// renames and links), oldest first.
func (f *Faults) Calls(op string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls[op]...)
}

// match returns the rule that fires for this call, or nil.
func (f *Faults) match(op string, paths ...string) *Rule {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calls == nil {
		f.calls = make(map[string][]string)
	}
	f.calls[op] = append(f.calls[op], paths[0])
	for _, r := range f.rules {
		if r.Op != op || !anyContains(paths, r.Path) {
			continue
		}
		r.seen++
		if r.seen <= r.After || (r.Times > 0 && r.fired >= r.Times) {
			continue
		}
		r.fired++
		rule := r.Rule
		return &rule
	}
	return nil
}

func anyContains(paths []string, sub string) bool {
	for _, p := range paths {
		if strings.Contains(p, sub) {
			return true
		}
	}
	return false
}

// fail returns the rule's error for a call that has no other effect.
func (f *Faults) fail(op string, paths ...string) error {
	if r := f.match(op, paths...); r != nil && r.Err != nil {
		return &os.PathError{Op: op, Path: paths[0], Err: r.Err}
	}
	return nil
}

func (f *Faults) Open(name string) (File, error) {
	if err := f.fail("open", name); err != nil {
		return nil, err
	}
	file, err := f.base.Open(name)
	if err != nil {
		return nil, err
	}
	return &faultyFile{File: file, faults: f}, nil
}

func (f *Faults) OpenFile(name string, flag int, perm os.FileMode) (File, error) {
	op := "open"
	if flag&os.O_CREATE != 0 {
		op = "create"
	}
	if err := f.fail(op, name); err != nil {
		return nil, err
	}
	file, err := f.base.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &faultyFile{File: file, faults: f}, nil
}

func (f *Faults) Lstat(name string) (os.FileInfo, error)     { return f.base.Lstat(name) }
func (f *Faults) Stat(name string) (os.FileInfo, error)      { return f.base.Stat(name) }
func (f *Faults) ReadDir(name string) ([]os.DirEntry, error) { return f.base.ReadDir(name) }

func (f *Faults) MkdirAll(path string, perm os.FileMode) error {
	if err := f.fail("mkdir", path); err != nil {
		return err
	}
	return f.base.MkdirAll(path, perm)
}

func (f *Faults) RenameNoReplace(oldpath, newpath string) error {
	if err := f.linkFail("rename", oldpath, newpath); err != nil {
		return err
	}
	return f.base.RenameNoReplace(oldpath, newpath)
}

func (f *Faults) Rename(oldpath, newpath string) error {
	if err := f.linkFail("rename", oldpath, newpath); err != nil {
		return err
	}
	return f.base.Rename(oldpath, newpath)
}

func (f *Faults) Link(oldname, newname string) error {
	if err := f.linkFail("link", oldname, newname); err != nil {
		return err
	}
	return f.base.Link(oldname, newname)
}

func (f *Faults) Symlink(oldname, newname string) error {
	if err := f.linkFail("symlink", oldname, newname); err != nil {
		return err
	}
	return f.base.Symlink(oldname, newname)
}

func (f *Faults) linkFail(op, oldpath, newpath string) error {
	if r := f.match(op, oldpath, newpath); r != nil && r.Err != nil {
		return &os.LinkError{Op: op, Old: oldpath, New: newpath, Err: r.Err}
	}
	return nil
}

func (f *Faults) Remove(name string) error {
	if err := f.fail("remove", name); err != nil {
		return err
	}
	return f.base.Remove(name)
}

func (f *Faults) Chtimes(name string, atime, mtime time.Time) error {
	if err := f.fail("chtimes", name); err != nil {
		return err
	}
	return f.base.Chtimes(name, atime, mtime)
}

func (f *Faults) SyncDir(dir string) error {
	if err := f.fail("syncdir", dir); err != nil {
		return err
	}
	return f.base.SyncDir(dir)
}

func (f *Faults) SyncFS(path string) error {
	if err := f.fail("syncfs", path); err != nil {
		return err
	}
	return f.base.SyncFS(path)
}

func (f *Faults) Clone(dst, src File) error {
	if err := f.linkFail("clone", src.Name(), dst.Name()); err != nil {
		return err
	}
	return f.base.Clone(dst, src)
}

// faultyFile applies read, write and sync rules to an open file. Fd passes
// through, so Clone on the base FS works on wrapped files.
type faultyFile struct {
	File
	faults *Faults
}

func (ff *faultyFile) Read(p []byte) (int, error) {
	if err := ff.faults.fail("read", ff.Name()); err != nil {
		return 0, err
	}
	return ff.File.Read(p)
}

func (ff *faultyFile) ReadAt(p []byte, off int64) (int, error) {
	if err := ff.faults.fail("read", ff.Name()); err != nil {
		return 0, err
	}
	return ff.File.ReadAt(p, off)
}

func (ff *faultyFile) Write(p []byte) (int, error) {
	r := ff.faults.match("write", ff.Name())
	switch {
	case r == nil:
		return ff.File.Write(p)
	case r.Corrupt:
		return ff.writeCorrupted(p)
	case r.Short:
		n, err := ff.File.Write(p[:len(p)/2])
		if err != nil {
			return n, err
		}
		return n, wrapPath("write", ff.Name(), r.Err)
	default:
		return 0, wrapPath("write", ff.Name(), r.Err)
	}
}

func (ff *faultyFile) writeCorrupted(p []byte) (int, error) {
	if len(p) == 0 {
		return ff.File.Write(p)
	}
	bad := append([]byte(nil), p...)
	bad[len(bad)/2] ^= 0x01
	return ff.File.Write(bad)
}

func (ff *faultyFile) Sync() error {
	if err := ff.faults.fail("sync", ff.Name()); err != nil {
		return err
	}
	return ff.File.Sync()
}

func wrapPath(op, path string, err error) error {
	if err == nil {
		return nil
	}
	return &os.PathError{Op: op, Path: path, Err: err}
}
