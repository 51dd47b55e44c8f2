package transfer

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"shoebox/internal/fsx"
	"shoebox/internal/journal"
)

func newJournal(t *testing.T) *journal.Writer {
	t.Helper()
	w, err := journal.Create(t.TempDir(), journal.Header{RunID: journal.NewRunID(time.Now()), Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
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
	a.Seq = 1
	res := e.Do(context.Background(), a)
	mustSucceed(t, res)
	b := op(t, Copy, f.file("b.jpg", "b"), a.Dst) // destination taken
	b.Seq = 2
	if e.Do(context.Background(), b).Err == nil {
		t.Fatal("second copy onto the same destination succeeded")
	}
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	entries := readJournal(t, w)
	assertSteps(t, entries, []step{
		{journal.Intent, journal.Copy}, {journal.Done, journal.Mkdir}, {journal.Done, journal.Copy},
		{journal.Intent, journal.Copy}, {journal.Failed, journal.Copy},
	})
	intent, done, failed := entries[0], entries[2], entries[4]
	if intent.Seq != 1 || intent.Tmp == "" || filepath.Dir(intent.Tmp) != filepath.Dir(a.Dst) {
		t.Errorf("intent %+v: want seq 1 and the temp path beside the destination", intent)
	}
	if done.Dev != res.Dev || done.Ino != res.Ino || done.ModTime != a.ModTime.UnixNano() || done.Size != a.Size {
		t.Errorf("done %+v does not describe the created file %+v", done, res)
	}
	if failed.Seq != 2 || failed.Err == "" {
		t.Errorf("failed entry %+v: want seq 2 with an error", failed)
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
