package transfer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/journal"
)

// stageAll stages a copy of each source into lib and fails the test on
// any op that did not stage.
func stageAll(t *testing.T, e *Executor, srcs []string, lib string) []*Staged {
	t.Helper()
	var staged []*Staged
	for _, src := range srcs {
		s, res := e.Stage(context.Background(), op(t, Copy, src, filepath.Join(lib, "2019", filepath.Base(src))))
		if s == nil {
			t.Fatalf("%s not staged: %+v", src, res)
		}
		staged = append(staged, s)
	}
	return staged
}

func (f *fixture) files(n int) []string {
	var srcs []string
	for i := range n {
		srcs = append(srcs, f.file("p"+strconv.Itoa(i)+".jpg", "photo "+strconv.Itoa(i)))
	}
	return srcs
}

// In a batch every temp's fsync comes before the first rename: the
// protocol points, in order, are all writes, then all syncs, then all
// renames.
func TestBatchMakesEveryTempDurableBeforeAnyRename(t *testing.T) {
	f := newFixture(t)
	fsys := faults()
	var mu sync.Mutex
	var points []string
	fsys.OnCrashPoint(func(p string) {
		mu.Lock()
		defer mu.Unlock()
		points = append(points, p)
	})
	e := New(Options{FS: fsys})
	srcs := f.files(3)
	staged := stageAll(t, e, srcs, f.lib)
	if got := tempsIn(t, filepath.Join(f.lib, "2019")); len(got) != 3 {
		t.Fatalf("after staging, temps %q; want 3", got)
	}
	e.Sync(staged)
	for i, s := range staged {
		res := s.Publish()
		mustSucceed(t, res)
		if !res.Landed {
			t.Errorf("%s: not landed", res.Op.Dst)
		}
		assertContent(t, res.Op.Dst, "photo "+strconv.Itoa(i))
	}
	want := []string{fsx.AfterMkdir, fsx.AfterTempWrite, fsx.AfterTempWrite, fsx.AfterTempWrite,
		fsx.AfterSync, fsx.AfterSync, fsx.AfterSync,
		fsx.AfterRename, fsx.AfterRename, fsx.AfterRename}
	if !slices.Equal(points, want) {
		t.Errorf("protocol points %q, want %q", points, want)
	}
	assertNoTemps(t, f.lib)
}

// The rule that nothing is renamed into place before its data is durable,
// proved with the fsync failing: no rename happens, every file is reported
// failed, its temp is gone, its source is intact, and the journal records
// each as failed.
func TestBatchSyncFailureRenamesNothing(t *testing.T) {
	f := newFixture(t)
	fsys := faults().Add(fsx.Rule{Op: "sync", Path: tempMarker, Err: syscall.EIO})
	w := newJournal(t)
	e := New(Options{FS: fsys, Journal: w})
	srcs := f.files(3)
	staged := stageAll(t, e, srcs, f.lib)
	e.Sync(staged)
	for i, s := range staged {
		res := s.Publish()
		if res.Err == nil || res.Landed || !errors.Is(res.Err, syscall.EIO) {
			t.Errorf("%s: err %v, landed %v; want a failed EIO", res.Op.Dst, res.Err, res.Landed)
		}
		assertAbsent(t, res.Op.Dst)
		assertContent(t, srcs[i], "photo "+strconv.Itoa(i))
	}
	if renames := fsys.Calls("rename"); len(renames) != 0 {
		t.Errorf("renames after a failed sync: %q", renames)
	}
	assertNoTemps(t, f.lib)
	states := map[journal.State]int{}
	for _, entry := range readJournal(t, w) {
		if entry.Action == journal.Copy {
			states[entry.State]++
		}
	}
	if states[journal.Intent] != 3 || states[journal.Failed] != 3 || states[journal.Done] != 0 {
		t.Errorf("journal copy records %v, want 3 intents and 3 failures", states)
	}
}

// One temp whose fsync fails takes only its own file down.
func TestBatchSyncFailureFailsOnlyThatFile(t *testing.T) {
	f := newFixture(t)
	fsys := faults().Add(fsx.Rule{Op: "sync", Path: "p1.jpg", Err: syscall.EIO})
	e := New(Options{FS: fsys})
	staged := stageAll(t, e, f.files(3), f.lib)
	e.Sync(staged)
	for i, s := range staged {
		res := s.Publish()
		if i == 1 {
			if res.Err == nil || res.Landed {
				t.Errorf("p1: err %v, landed %v; want failed", res.Err, res.Landed)
			}
			assertAbsent(t, res.Op.Dst)
			continue
		}
		mustSucceed(t, res)
	}
	for _, r := range fsys.Calls("rename") {
		if strings.Contains(r, "p1.jpg") {
			t.Errorf("the temp whose fsync failed was renamed: %s", r)
		}
	}
	assertNoTemps(t, f.lib)
}

// Publish without a successful Sync is refused: the executor itself keeps
// the rule, whatever its caller does.
func TestPublishBeforeSyncRenamesNothing(t *testing.T) {
	f := newFixture(t)
	fsys := faults()
	e := New(Options{FS: fsys})
	src := f.file("a.jpg", "jpeg")
	staged := stageAll(t, e, []string{src}, f.lib)
	res := staged[0].Publish()
	if !errors.Is(res.Err, errNotDurable) || res.Landed {
		t.Fatalf("Publish before Sync: err %v, landed %v; want errNotDurable", res.Err, res.Landed)
	}
	if renames := fsys.Calls("rename"); len(renames) != 0 {
		t.Errorf("renames: %q", renames)
	}
	if again := staged[0].Publish(); again.Err != res.Err {
		t.Errorf("second Publish: %v, want the first result", again.Err)
	}
	assertAbsent(t, res.Op.Dst)
	assertNoTemps(t, f.lib)
	assertContent(t, src, "jpeg")
}

func TestDiscardRemovesTheTemp(t *testing.T) {
	f := newFixture(t)
	e := New(Options{})
	staged := stageAll(t, e, f.files(2), f.lib)
	e.Sync(staged)
	cause := errors.New("its sidecar failed")
	res := staged[0].Discard(cause)
	if !errors.Is(res.Err, cause) || res.Landed {
		t.Errorf("Discard: err %v, landed %v", res.Err, res.Landed)
	}
	assertAbsent(t, res.Op.Dst)
	mustSucceed(t, staged[1].Publish())
	assertNoTemps(t, f.lib)
}

// Other modes and dry runs are not staged: Stage finishes them.
func TestStageFinishesWhatItCannotBatch(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "jpeg")
	s, res := New(Options{DryRun: true}).Stage(context.Background(), op(t, Copy, src, filepath.Join(f.lib, "a.jpg")))
	if s != nil || res.Err != nil || len(res.Actions) != 2 {
		t.Errorf("dry copy: staged %v, result %+v", s != nil, res)
	}
	s, res = New(Options{}).Stage(context.Background(), op(t, Hardlink, src, filepath.Join(f.lib, "b.jpg")))
	if s != nil || !res.Landed {
		t.Errorf("hardlink: staged %v, result %+v", s != nil, res)
	}
}

// A batch killed after some of its fsyncs, before any rename: nothing is
// at a destination, every source is whole, and every temp left is one the
// journal names (an Intent's Tmp), so recovery removes them all.
func TestBatchKilledBeforeRenamesLeavesOnlyJournaledTemps(t *testing.T) {
	for _, point := range []string{fsx.AfterTempWrite + ":3", fsx.AfterSync + ":2"} {
		t.Run(point, func(t *testing.T) {
			f := newFixture(t)
			srcs := f.files(3)
			jdir := t.TempDir()
			runBatchCrashChild(t, point, jdir, f)
			for i, src := range srcs {
				assertContent(t, src, "photo "+strconv.Itoa(i))
				assertAbsent(t, filepath.Join(f.lib, "2019", filepath.Base(src)))
			}
			named := map[string]bool{}
			journals, _ := filepath.Glob(filepath.Join(jdir, "*"+journal.Ext))
			for _, j := range journals {
				journal.Read(j, func(e journal.Entry) error {
					if e.State == journal.Intent && e.Tmp != "" {
						named[e.Tmp] = true
					}
					return nil
				})
			}
			temps := tempsIn(t, filepath.Join(f.lib, "2019"))
			if len(temps) != 3 {
				t.Errorf("temps left %q, want the batch's 3", temps)
			}
			for _, tmp := range temps {
				if !named[tmp] {
					t.Errorf("temp %s is named by no journal Intent", tmp)
					continue
				}
				if ok, err := New(Options{}).RemoveTemp(tmp); !ok || err != nil {
					t.Errorf("RemoveTemp(%s) = %v, %v", tmp, ok, err)
				}
			}
			assertNoTemps(t, f.lib)
		})
	}
}

const envBatchCrash = "SHOEBOX_TRANSFER_BATCH_CRASH"

// TestBatchCrashChild stages the fixture's sources with a journal and dies
// at the nth crash point named by envBatchCrash ("point:n").
func TestBatchCrashChild(t *testing.T) {
	spec := os.Getenv(envBatchCrash)
	if spec == "" {
		t.Skip("only runs as the child of TestBatchKilledBeforeRenamesLeavesOnlyJournaledTemps")
	}
	src, lib, jdir := os.Getenv(envCrashSrc), os.Getenv(envCrashDst), os.Getenv(envCrashMode)
	fsys := fsx.NewFaults(fsx.OS)
	if err := fsxtest.ExitAtCrashPoint(fsys, spec); err != nil {
		t.Fatal(err)
	}
	w, err := journal.Create(jdir, journal.Header{RunID: journal.NewRunID(time.Now()), Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	e := New(Options{FS: fsys, Journal: w})
	var srcs []string
	for i := range 3 {
		srcs = append(srcs, filepath.Join(src, "p"+strconv.Itoa(i)+".jpg"))
	}
	staged := stageAll(t, e, srcs, lib)
	e.Sync(staged)
	for _, s := range staged {
		s.Publish()
	}
	t.Fatalf("child survived crash point %s", spec)
}

func runBatchCrashChild(t *testing.T, spec, jdir string, f *fixture) {
	t.Helper()
	fsxtest.RunCrashChild(t, "TestBatchCrashChild", envBatchCrash+"="+spec,
		envCrashSrc+"="+f.src, envCrashDst+"="+f.lib, envCrashMode+"="+jdir)
}
