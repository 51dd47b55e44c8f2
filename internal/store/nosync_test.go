package store

import (
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// A scratch store never syncs, however much it writes (tables flushed,
// manifest edits); a durable one does (the counter is seen to work).
func TestScratchStoreNeverSyncs(t *testing.T) {
	for _, c := range []struct {
		opt       Options
		wantSyncs bool
	}{{Options{Scratch: true}, false}, {Options{}, true}} {
		syncs := &atomic.Int64{}
		c.opt.base = countingFS{vfs.Default, syncs}
		s, err := Open(filepath.Join(t.TempDir(), "st"), c.opt)
		if err != nil {
			t.Fatal(err)
		}
		w := s.Writer(1000)
		val := make([]byte, 200)
		for i := range 40_000 { // 8 MB: several memtables flushed to tables
			if err := w.Put([]byte(fmt.Sprintf("k/%08d", i)), val); err != nil {
				t.Fatal(err)
			}
		}
		if err := firstError(w.Flush(), s.Close()); err != nil {
			t.Fatal(err)
		}
		if got := syncs.Load(); (got > 0) != c.wantSyncs {
			t.Errorf("scratch %v: %d syncs reached the disk", c.opt.Scratch, got)
		}
	}
}

// countingFS counts the syncs of the files it opens.
type countingFS struct {
	vfs.FS
	n *atomic.Int64
}

func (fs countingFS) Create(name string, c vfs.DiskWriteCategory) (vfs.File, error) {
	return fs.wrap(fs.FS.Create(name, c))
}

func (fs countingFS) Open(name string, opts ...vfs.OpenOption) (vfs.File, error) {
	return fs.wrap(fs.FS.Open(name, opts...))
}

func (fs countingFS) OpenReadWrite(name string, c vfs.DiskWriteCategory, opts ...vfs.OpenOption) (vfs.File, error) {
	return fs.wrap(fs.FS.OpenReadWrite(name, c, opts...))
}

func (fs countingFS) OpenDir(name string) (vfs.File, error) { return fs.wrap(fs.FS.OpenDir(name)) }

func (fs countingFS) ReuseForWrite(o, n string, c vfs.DiskWriteCategory) (vfs.File, error) {
	return fs.wrap(fs.FS.ReuseForWrite(o, n, c))
}

func (fs countingFS) wrap(f vfs.File, err error) (vfs.File, error) {
	if err != nil {
		return nil, err
	}
	return countingFile{f, fs.n}, nil
}

type countingFile struct {
	vfs.File
	n *atomic.Int64
}

func (f countingFile) Sync() error     { f.n.Add(1); return f.File.Sync() }
func (f countingFile) SyncData() error { f.n.Add(1); return f.File.SyncData() }
func (f countingFile) SyncTo(l int64) (bool, error) {
	f.n.Add(1)
	return f.File.SyncTo(l)
}
