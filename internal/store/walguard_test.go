package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// walFaultFS fails one kind of WAL operation once full is set, as a full
// disk or a drive that went away does.
type walFaultFS struct {
	vfs.FS
	op      string // "create", "write", "sync", "close" or "dirsync"
	full    *atomic.Bool
	refused *atomic.Int32
}

var errFull = fmt.Errorf("injected: %w", syscall.ENOSPC)

func (fs walFaultFS) failing(op, name string) bool {
	if fs.op == op && fs.full.Load() && (op == "dirsync" || isWAL(name)) {
		fs.refused.Add(1)
		return true
	}
	return false
}

func (fs walFaultFS) Create(name string, category vfs.DiskWriteCategory) (vfs.File, error) {
	if fs.failing("create", name) {
		return nil, errFull
	}
	f, err := fs.FS.Create(name, category)
	return walFaultFile{File: f, fs: fs, name: name}, err
}

func (fs walFaultFS) ReuseForWrite(oldname, newname string, category vfs.DiskWriteCategory) (vfs.File, error) {
	if fs.failing("create", newname) {
		return nil, errFull
	}
	f, err := fs.FS.ReuseForWrite(oldname, newname, category)
	return walFaultFile{File: f, fs: fs, name: newname}, err
}

func (fs walFaultFS) OpenDir(name string) (vfs.File, error) {
	f, err := fs.FS.OpenDir(name)
	return walFaultFile{File: f, fs: fs, name: name, dir: true}, err
}

type walFaultFile struct {
	vfs.File
	fs   walFaultFS
	name string
	dir  bool
}

func (f walFaultFile) Write(p []byte) (int, error) {
	if f.fs.failing("write", f.name) {
		return 0, errFull
	}
	return f.File.Write(p)
}

func (f walFaultFile) Sync() error {
	if f.dir && f.fs.failing("dirsync", f.name) || !f.dir && f.fs.failing("sync", f.name) {
		return errFull
	}
	return f.File.Sync()
}

func (f walFaultFile) SyncData() error {
	if f.fs.failing("sync", f.name) {
		return errFull
	}
	return f.File.SyncData()
}

func (f walFaultFile) Close() error {
	err := f.File.Close()
	if f.fs.failing("close", f.name) {
		return errFull
	}
	return err
}

// Pebble ends the process ("fatal error: sync: unlock of unlocked mutex",
// which no recover catches) when a WAL it rotates to cannot be created or
// the one it leaves cannot be closed, and panics when a WAL write fails.
// Before walGuardFS this test did not fail: it crashed the test binary.
// Every way a WAL can fail must instead fail the commit that needed it
// with the cause, refuse later writes, and keep every acknowledged
// commit: the store opens again with all of them.
func TestAFailingWALIsAnErrorAndLosesNoAcknowledgedWrite(t *testing.T) {
	for _, op := range []string{"create", "write", "sync", "close", "dirsync"} {
		t.Run(op, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "db")
			fsys := walFaultFS{FS: vfs.Default, op: op, full: new(atomic.Bool), refused: new(atomic.Int32)}
			s, err := open(dir, Options{base: fsys})
			if err != nil {
				t.Fatal(err)
			}
			w := s.Writer(100)
			val := make([]byte, 100)
			key := func(i int) []byte { return fmt.Appendf(nil, "k%08d", i) }
			const failAt = 15_000 // past the first memtable: a rotation is behind us
			acked, werr := 0, error(nil)
			for i := 0; i < 200_000 && werr == nil; i++ { // far more than one memtable
				if i == failAt {
					fsys.full.Store(true)
				}
				if werr = w.Put(key(i), val); werr == nil && (i+1)%100 == 0 {
					acked = i + 1
				}
			}
			if fsys.refused.Load() == 0 {
				t.Fatalf("no %s of a WAL was attempted after the fault was set: the test missed its point", op)
			}
			if !errors.Is(werr, syscall.ENOSPC) {
				t.Fatalf("the write after the WAL failed: %v, want an error that is ENOSPC", werr)
			}
			if acked < failAt-100 {
				t.Fatalf("only %d writes acknowledged before the fault at %d", acked, failAt)
			}
			if err := w.Put([]byte("after"), val); err == nil {
				if err = w.Flush(); err == nil {
					t.Fatal("a store whose WAL failed took another write")
				}
			}
			if err := s.Close(); err == nil {
				t.Error("Close of a store whose WAL failed reported no error")
			}

			s, err = Open(dir, Options{})
			if err != nil {
				t.Fatalf("the store does not open after its WAL failed: %v", err)
			}
			defer s.Close()
			for i := 0; i < acked; i++ {
				if _, ok, err := s.Get(key(i)); !ok || err != nil {
					t.Fatalf("acknowledged write %d of %d lost after the %s failure (%v)", i, acked, op, err)
				}
			}
		})
	}
}

func TestIsWAL(t *testing.T) {
	for name, want := range map[string]bool{
		"/a/b/000123.log": true, `C:\x\000007.log`: true, "000001.log": true,
		"/a/b/LOG": false, "/a/OPTIONS-000003": false, "/a/x000123.log": false,
		"/a/000123.sst": false, "/a/MANIFEST-000001": false, "/a/.log": false,
	} {
		if got := isWAL(name); got != want {
			t.Errorf("isWAL(%q) = %v, want %v", name, got, want)
		}
	}
}
