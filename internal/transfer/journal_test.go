package transfer

import (
	"context"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/journal"
)

func newJournal(t *testing.T) *journal.Writer {
	t.Helper()
	w, err := journal.Create(t.TempDir(), journal.Header{RunID: journal.NewRunID(time.Now()), Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() }) // before TempDir's removal: Windows deletes no open file
	return w
}

// readJournal closes w and returns its entries in order.
func readJournal(t *testing.T, w *journal.Writer) []journal.Entry {
	t.Helper()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var entries []journal.Entry
	if _, err := journal.Read(w.Path(), func(e journal.Entry) error {
		entries = append(entries, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return entries
}

type step struct {
	state  journal.State
	action journal.Action
}

func assertSteps(t *testing.T, entries []journal.Entry, want []step) {
	t.Helper()
	if len(entries) != len(want) {
		t.Fatalf("journal has %d entries %+v, want %d", len(entries), entries, len(want))
	}
	for i, e := range entries {
		if e.State != want[i].state || e.Action != want[i].action {
			t.Errorf("entry %d is %s %s, want %s %s", i, e.State, e.Action, want[i].state, want[i].action)
		}
	}
}

func TestJournalCopyAndFailure(t *testing.T) {
	f := newFixture(t)
	w := newJournal(t)
	e := New(Options{Journal: w})
	a := op(t, Copy, f.file("a.jpg", "a"), filepath.Join(f.lib, "2019", "a.jpg"))
	res := e.Do(context.Background(), a)
	mustSucceed(t, res)
	b := op(t, Copy, f.file("b.jpg", "b"), a.Dst) // destination taken
	if e.Do(context.Background(), b).Err == nil {
		t.Fatal("second copy onto the same destination succeeded")
	}
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	entries := readJournal(t, w)
	assertSteps(t, entries, []step{
		{journal.Intent, journal.Copy}, {journal.Intent, journal.Mkdir}, {journal.Done, journal.Mkdir}, {journal.Done, journal.Copy},
		{journal.Intent, journal.Copy}, {journal.Failed, journal.Copy},
	})
	intent, done, failed := entries[0], entries[3], entries[5]
	if intent.Seq != 1 || done.Seq != 1 || intent.Tmp == "" || filepath.Dir(intent.Tmp) != filepath.Dir(a.Dst) {
		t.Errorf("intent %+v, done %+v: want seq 1 and the temp path beside the destination", intent, done)
	}
	if entries[1].Seq != 2 || entries[2].Seq != 2 || entries[1].Dst != filepath.Dir(a.Dst) {
		t.Errorf("mkdir %+v then %+v: want its own seq 2 and the folder", entries[1], entries[2])
	}
	if done.Dev != res.Dev || done.Ino != res.Ino || done.ModTime != a.ModTime.UnixNano() || done.Size != a.Size {
		t.Errorf("done %+v does not describe the created file %+v", done, res)
	}
	if failed.Seq != 3 || failed.Err == "" {
		t.Errorf("failed entry %+v: want seq 3 with an error", failed)
	}
}

// TestJournalNumbersEveryFileItself: a photo and its sidecar (one scanned
// group, moved by concurrent workers) each get their own journal number,
// so that recovery can never take one's outcome for the other's.
func TestJournalNumbersEveryFileItself(t *testing.T) {
	f := newFixture(t)
	w := newJournal(t)
	e := New(Options{Journal: w})
	var wg sync.WaitGroup
	for _, name := range []string{"IMG_1.JPG", "IMG_1.xmp", "IMG_2.JPG", "IMG_2.CR2"} {
		o := op(t, Move, f.file(name, name), filepath.Join(f.lib, "2019", name))
		wg.Add(1)
		go func() { defer wg.Done(); mustSucceed(t, e.Do(context.Background(), o)) }()
	}
	wg.Wait()
	owner := map[uint64]string{}
	for _, en := range readJournal(t, w) {
		if prev, ok := owner[en.Seq]; ok && prev != en.Dst {
			t.Errorf("seq %d names both %s and %s", en.Seq, prev, en.Dst)
		}
		owner[en.Seq] = en.Dst
	}
	if len(owner) != 5 { // four files and one folder
		t.Errorf("journal numbers %v, want 5 distinct", owner)
	}
}

func TestJournalCrossDeviceMove(t *testing.T) {
	f := newFixture(t)
	w := newJournal(t)
	src := f.file("a.jpg", "a")
	fsys := fsx.NewFaults(fsx.OS).Add(fsx.Rule{Op: "rename", Path: src, Err: syscall.EXDEV})
	mustSucceed(t, New(Options{FS: fsys, Journal: w}).Do(context.Background(), op(t, Move, src, filepath.Join(f.lib, "a.jpg"))))
	assertSteps(t, readJournal(t, w), []step{
		{journal.Intent, journal.Move},
		{journal.Intent, journal.RemoveSource}, {journal.Done, journal.RemoveSource},
		{journal.Done, journal.Move},
	})
}

func TestJournalUntouchedByDryRun(t *testing.T) {
	f := newFixture(t)
	w := newJournal(t)
	e := New(Options{DryRun: true, Journal: w})
	mustSucceed(t, e.Do(context.Background(), op(t, Copy, f.file("a.jpg", "a"), filepath.Join(f.lib, "x", "a.jpg"))))
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	if entries := readJournal(t, w); len(entries) != 0 {
		t.Errorf("dry run journaled %+v", entries)
	}
}
