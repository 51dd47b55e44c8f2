package store

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// walGuardFS keeps a failing write-ahead log from ending the process.
//
// Pebble treats WAL I/O errors as the end of the world. When a memtable
// fills, it closes the current WAL and creates the next one, and if either
// fails (a full disk, a drive gone) it panics after releasing its own
// mutex: the caller's deferred unlock turns that into "fatal error: sync:
// unlock of unlocked mutex", which no recover can catch. A failing WAL
// write or sync elsewhere panics too.
//
// So pebble never sees a WAL error. The guard records the first one (a
// failed create, write, sync or close of a WAL, or a failed sync of the
// folder that names it), tells pebble the operation worked, and from then
// on fails nothing but makes every later WAL write a no-op; the Store
// checks the record after each commit and reports that commit, and every
// later one, as failed with the recorded error. A commit is therefore never
// reported durable unless every WAL operation up to its sync succeeded.
// What a failed WAL holds is what a crash at that moment would leave,
// which pebble's replay already handles: every acknowledged commit was
// synced before the failure.
//
// pebble.Open returns I/O errors itself, so the guard is armed only once
// the store is open.
type walGuardFS struct {
	vfs.FS
	state *walState
}

// walState is shared by a store's guard and the store.
type walState struct {
	armed atomic.Bool
	once  sync.Once
	err   atomic.Pointer[error]
}

// fail records err, the first WAL failure, and reports it handled.
func (w *walState) fail(op, name string, err error) {
	w.once.Do(func() {
		e := fmt.Errorf("%s write-ahead log %s: %w", op, name, err)
		w.err.Store(&e)
	})
}

// failed is the first WAL failure, nil while there was none.
func (w *walState) failed() error {
	if w == nil {
		return nil
	}
	if p := w.err.Load(); p != nil {
		return *p
	}
	return nil
}

func (fs walGuardFS) Create(name string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.Create(name, category)
	return fs.guard("create", name, f, err)
}

func (fs walGuardFS) ReuseForWrite(oldname, newname string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.ReuseForWrite(oldname, newname, category)
	return fs.guard("create", newname, f, err)
}

// OpenDir guards the store folder's syncs: pebble syncs it to make a new
// WAL's name durable, and panics if that fails.
func (fs walGuardFS) OpenDir(name string) (vfs.File, error) {
	f, err := fs.FS.OpenDir(name)
	if err != nil {
		return nil, err
	}
	return guardedDir{File: f, name: name, state: fs.state}, nil
}

func (fs walGuardFS) Unwrap() vfs.FS { return fs.FS }

func (fs walGuardFS) guard(op, name string, f vfs.File, err error) (vfs.File, error) {
	if !fs.state.armed.Load() || !isWAL(name) {
		return f, err
	}
	if err != nil {
		fs.state.fail(op, name, err)
		return deadWAL{}, nil
	}
	return guardedWAL{File: f, name: name, state: fs.state}, nil
}

// isWAL reports whether name is one of pebble's write-ahead logs
// ("000123.log").
func isWAL(name string) bool {
	base := name[strings.LastIndexAny(name, `/\`)+1:]
	digits := strings.TrimSuffix(base, ".log")
	return digits != base && digits != "" && strings.Trim(digits, "0123456789") == ""
}

// guardedWAL is an open WAL whose errors go to the store, not to pebble.
// Once any WAL has failed, writes to it are dropped: the store takes no
// more commits, and a WAL must not grow past a failure it did not record.
type guardedWAL struct {
	vfs.File
	name  string
	state *walState
}

func (w guardedWAL) check(op string, err error) error {
	if err != nil {
		w.state.fail(op, w.name, err)
	}
	return nil
}

func (w guardedWAL) Write(p []byte) (int, error) {
	if w.state.failed() != nil {
		return len(p), nil
	}
	n, err := w.File.Write(p)
	if err != nil {
		return len(p), w.check("write", err)
	}
	return n, nil
}

func (w guardedWAL) WriteAt(p []byte, off int64) (int, error) {
	if w.state.failed() != nil {
		return len(p), nil
	}
	n, err := w.File.WriteAt(p, off)
	if err != nil {
		return len(p), w.check("write", err)
	}
	return n, nil
}

func (w guardedWAL) Sync() error     { return w.check("sync", w.File.Sync()) }
func (w guardedWAL) SyncData() error { return w.check("sync", w.File.SyncData()) }
func (w guardedWAL) Close() error    { return w.check("close", w.File.Close()) }

func (w guardedWAL) SyncTo(length int64) (bool, error) {
	full, err := w.File.SyncTo(length)
	return full, w.check("sync", err)
}

// guardedDir is the store folder: a failed sync of it is a WAL failure.
type guardedDir struct {
	vfs.File
	name  string
	state *walState
}

func (d guardedDir) Sync() error {
	err := d.File.Sync()
	if err == nil || !d.state.armed.Load() {
		return err
	}
	d.state.fail("sync the folder of", d.name, err)
	return nil
}

// deadWAL stands for a WAL that could not be created. Its failure is
// already recorded; what pebble writes to it goes nowhere.
type deadWAL struct{}

var _ vfs.File = deadWAL{}

func (deadWAL) Close() error                           { return nil }
func (deadWAL) Read([]byte) (int, error)               { return 0, os.ErrInvalid }
func (deadWAL) ReadAt([]byte, int64) (int, error)      { return 0, os.ErrInvalid }
func (deadWAL) Write(p []byte) (int, error)            { return len(p), nil }
func (deadWAL) WriteAt(p []byte, _ int64) (int, error) { return len(p), nil }
func (deadWAL) Preallocate(int64, int64) error         { return nil }
func (deadWAL) Stat() (vfs.FileInfo, error)            { return emptyInfo{}, nil }
func (deadWAL) Sync() error                            { return nil }
func (deadWAL) SyncTo(int64) (bool, error)             { return true, nil }
func (deadWAL) SyncData() error                        { return nil }
func (deadWAL) Prefetch(int64, int64) error            { return nil }
func (deadWAL) Fd() uintptr                            { return vfs.InvalidFd }

// emptyInfo is what pebble reads of a dead WAL: an empty file.
type emptyInfo struct{}

func (emptyInfo) Name() string           { return "" }
func (emptyInfo) Size() int64            { return 0 }
func (emptyInfo) Mode() os.FileMode      { return 0 }
func (emptyInfo) ModTime() time.Time     { return time.Time{} }
func (emptyInfo) IsDir() bool            { return false }
func (emptyInfo) Sys() any               { return nil }
func (emptyInfo) DeviceID() vfs.DeviceID { return vfs.DeviceID{} }
