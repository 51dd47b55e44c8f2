package store

import "github.com/cockroachdb/pebble/v2/vfs"

// noSyncFS is the filesystem of a Scratch store: every fsync pebble asks
// for (each flushed table, each manifest edit, each folder it changes) is
// skipped. A scratch store is never read after a crash (Open removes its
// folder first), so no write of it needs to be durable, and a run with
// nothing to do no longer pays a dozen fsyncs to create and fill the store
// it then removes (issue 26: a no-op re-run should write almost nothing).
type noSyncFS struct{ vfs.FS }

func (fs noSyncFS) Create(name string, category vfs.DiskWriteCategory) (vfs.File, error) {
	return noSync(fs.FS.Create(name, category))
}

func (fs noSyncFS) Open(name string, opts ...vfs.OpenOption) (vfs.File, error) {
	return noSync(fs.FS.Open(name, opts...))
}

func (fs noSyncFS) OpenReadWrite(name string, category vfs.DiskWriteCategory, opts ...vfs.OpenOption) (vfs.File, error) {
	return noSync(fs.FS.OpenReadWrite(name, category, opts...))
}

func (fs noSyncFS) OpenDir(name string) (vfs.File, error) { return noSync(fs.FS.OpenDir(name)) }

func (fs noSyncFS) ReuseForWrite(oldname, newname string, category vfs.DiskWriteCategory) (vfs.File, error) {
	return noSync(fs.FS.ReuseForWrite(oldname, newname, category))
}

func (fs noSyncFS) Unwrap() vfs.FS { return fs.FS }

func noSync(f vfs.File, err error) (vfs.File, error) {
	if err != nil {
		return nil, err
	}
	return noSyncFile{f}, nil
}

// noSyncFile is a file whose syncs do nothing.
type noSyncFile struct{ vfs.File }

func (noSyncFile) Sync() error                { return nil }
func (noSyncFile) SyncData() error            { return nil }
func (noSyncFile) SyncTo(int64) (bool, error) { return true, nil }
