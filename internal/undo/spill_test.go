package undo

import (
	"path/filepath"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/journal"
)

func TestSpilledEntriesComeBackNewestFirstAndWhole(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "journal")
	w, err := journal.Create(dir, journal.Header{Version: 1, RunID: "r1", Dest: "/lib", Args: []string{"sort"}})
	if err != nil {
		t.Fatal(err)
	}
	var want []journal.Entry
	for i := uint64(1); i <= 3000; i++ {
		e := journal.Entry{Seq: i, State: journal.Done, Action: journal.Copy, Src: "/src/a", Dst: "/lib/a",
			Size: int64(i), ModTime: int64(i) * 1e9, Dev: 7, Ino: i}
		if err := w.Append(e); err != nil {
			t.Fatal(err)
		}
		want = append(want, e)
		// Intents and failures are not reversible: they must be left out.
		if err := w.Append(journal.Entry{Seq: i, State: journal.Intent, Action: journal.Copy}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	h, err := loadHistory(dir)
	if err != nil || len(h.Runs) != 1 {
		t.Fatalf("history: %v, %d runs", err, len(h.Runs))
	}
	sp, err := spillReversible(h, h.Runs[0], nil, t.TempDir(), filepath.Join(t.TempDir(), "scratch"))
	if err != nil {
		t.Fatal(err)
	}
	i := len(want) - 1
	err = sp.each(func(e journal.Entry) error {
		if i < 0 || e != want[i] {
			t.Fatalf("entry %d back as %+v", i, e)
		}
		i--
		return nil
	})
	if err := sp.discard(err); err != nil {
		t.Fatal(err)
	}
	if i != -1 || sp.n != uint64(len(want)) {
		t.Errorf("%d entries left unread, n=%d", i+1, sp.n)
	}
}
