package journal

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestClosedLooksOnlyAtTheTail(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, Header{Version: 1, RunID: "a", Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(Entry{Seq: 1, State: Done, Action: Copy, Src: "/s", Dst: "/d"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Sync(); err != nil {
		t.Fatal(err)
	}
	if closed, err := Closed(w.Path()); err != nil || closed {
		t.Errorf("open journal: Closed = %v, %v", closed, err)
	}
	if all, _ := AllClosed(dir); all {
		t.Error("AllClosed with an open journal")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if closed, err := Closed(w.Path()); err != nil || !closed {
		t.Errorf("closed journal: Closed = %v, %v", closed, err)
	}
	if all, err := AllClosed(dir); err != nil || !all {
		t.Errorf("AllClosed = %v, %v", all, err)
	}
	// A torn tail (a crash while closing) is not closed.
	data, _ := os.ReadFile(w.Path())
	torn := filepath.Join(dir, "b"+Ext)
	os.WriteFile(torn, data[:len(data)-1], 0o644)
	if closed, _ := Closed(torn); closed {
		t.Error("a journal cut inside its closed marker counts as closed")
	}
	if all, _ := AllClosed(filepath.Join(dir, "missing")); !all {
		t.Error("no journal folder: nothing to recover")
	}
}
