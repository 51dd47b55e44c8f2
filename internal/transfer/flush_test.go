package transfer

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx"
)

// copyInto copies n files, each into its own destination folder.
func copyInto(t *testing.T, f *fixture, e *Executor, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		src := f.file(fmt.Sprintf("f%d.jpg", i), fmt.Sprintf("content %d", i))
		mustSucceed(t, e.Do(context.Background(), op(t, Copy, src, filepath.Join(f.lib, fmt.Sprint(i), "f.jpg"))))
	}
}

func TestFlushOfManyFoldersUsesOneSyncfs(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skipf("syncfs is Linux's; on %s a flush is one fsync per folder (TestFlushFallsBackToDirFsyncWhenSyncfsFails)", runtime.GOOS)
	}
	f := newFixture(t)
	faults := fsx.NewFaults(fsx.OS)
	e := New(Options{FS: faults})
	copyInto(t, f, e, 10)
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := len(faults.Calls("syncfs")); got != 1 {
		t.Errorf("syncfs calls = %d, want 1 for one filesystem", got)
	}
	if got := len(faults.Calls("syncdir")); got != 0 {
		t.Errorf("syncdir calls = %d, want none when syncfs worked", got)
	}
}

func TestFlushFallsBackToDirFsyncWhenSyncfsFails(t *testing.T) {
	f := newFixture(t)
	faults := fsx.NewFaults(fsx.OS).Add(fsx.Rule{Op: "syncfs", Err: syscall.ENOSYS})
	e := New(Options{FS: faults})
	copyInto(t, f, e, 6)
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	// Six new folders and their common parent.
	if got := len(faults.Calls("syncdir")); got < 6 {
		t.Errorf("syncdir calls = %d, want one per dirty folder", got)
	}
}

func TestFlushOfFewFoldersFsyncsEach(t *testing.T) {
	f := newFixture(t)
	faults := fsx.NewFaults(fsx.OS)
	e := New(Options{FS: faults})
	src := f.file("a.jpg", "a")
	mustSucceed(t, e.Do(context.Background(), op(t, Copy, src, filepath.Join(f.lib, "a.jpg"))))
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	if len(faults.Calls("syncfs")) != 0 || len(faults.Calls("syncdir")) == 0 {
		t.Errorf("one folder: want a dir fsync and no syncfs, got syncdir %v syncfs %v", faults.Calls("syncdir"), faults.Calls("syncfs"))
	}
}
