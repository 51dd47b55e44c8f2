package recovery_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/recovery"
	"github.com/shoebox-photos/shoebox/internal/undo"
)

func write(t *testing.T, p string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// killedJournal writes a journal as a killed run leaves it: intents with
// no outcome.
func killedJournal(t *testing.T, dest string, entries ...journal.Entry) {
	t.Helper()
	w, err := journal.Create(filepath.Join(dest, ".shoebox", "journal"), journal.Header{
		RunID: journal.NewRunID(time.Now()), Started: time.Now(), Dest: dest, Args: []string{"sort", "x", dest}})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := w.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Sync(); err != nil { // no Close: the run was killed
		t.Fatal(err)
	}
	// A killed run's handle is closed by the system; this one only when
	// the test is over, before TempDir's cleanup (Windows deletes no open
	// file).
	t.Cleanup(func() { w.Close() })
}

func TestInterruptedCleansTempsAndAdoptsLandedFiles(t *testing.T) {
	root := t.TempDir()
	dest := filepath.Join(root, "lib")
	src := filepath.Join(root, "a.jpg")
	write(t, src, []byte("photo a"))
	fi, _ := os.Lstat(src)
	landed := filepath.Join(dest, "2020", "a.jpg")
	write(t, landed, []byte("photo a"))
	os.Chtimes(landed, fi.ModTime(), fi.ModTime())
	tmp := filepath.Join(dest, "2020", ".b.jpg.shoebox-tmp-0123456789abcdef")
	write(t, tmp, []byte("half"))
	killedJournal(t, dest,
		journal.Entry{Seq: 1, State: journal.Intent, Action: journal.Copy, Src: src, Dst: landed,
			Tmp: filepath.Join(dest, "2020", ".a.jpg.shoebox-tmp-fedcba9876543210"), Size: fi.Size(), ModTime: fi.ModTime().UnixNano()},
		journal.Entry{Seq: 2, State: journal.Intent, Action: journal.Copy, Src: src, Dst: filepath.Join(dest, "2020", "b.jpg"),
			Tmp: tmp, Size: fi.Size(), ModTime: fi.ModTime().UnixNano()})
	st, err := recovery.Interrupted(context.Background(), dest, fsx.OS)
	if err != nil {
		t.Fatal(err)
	}
	if st.Journals != 1 || st.TempsRemoved != 1 || st.Adopted != 1 {
		t.Errorf("stats %+v, want 1 journal, 1 temp removed, 1 adopted", st)
	}
	if _, err := os.Lstat(tmp); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temp still there: %v", err)
	}
	again, err := recovery.Interrupted(context.Background(), dest, fsx.OS)
	if err != nil || again.Journals != 0 {
		t.Errorf("second recovery: %+v, %v; want nothing to do", again, err)
	}
	// The adopted copy is undone like any other.
	if st, err := undo.Last(context.Background(), dest, undo.Options{}); err != nil || st.Reverted != 1 {
		t.Errorf("undo of the adopted copy: %+v, %v", st, err)
	}
	if _, err := os.Lstat(landed); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("adopted copy not undone: %v", err)
	}
}

func TestInterruptedCompletesVerifiedMove(t *testing.T) {
	root := t.TempDir()
	dest := filepath.Join(root, "lib")
	src := filepath.Join(root, "card", "a.jpg")
	write(t, src, []byte("photo a"))
	fi, _ := os.Lstat(src)
	landed := filepath.Join(dest, "a.jpg")
	write(t, landed, []byte("photo a"))
	os.Chtimes(landed, fi.ModTime(), fi.ModTime())
	e := journal.Entry{Seq: 1, State: journal.Intent, Action: journal.Move, Src: src, Dst: landed,
		Tmp: filepath.Join(dest, ".a.jpg.shoebox-tmp-0123456789abcdef"), Size: fi.Size(), ModTime: fi.ModTime().UnixNano()}
	rs := e
	rs.Action = journal.RemoveSource
	killedJournal(t, dest, e, rs)
	st, err := recovery.Interrupted(context.Background(), dest, fsx.OS)
	if err != nil || st.MovesCompleted != 1 {
		t.Fatalf("recovery: %+v, %v", st, err)
	}
	if _, err := os.Lstat(src); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("source kept after a verified move: %v", err)
	}
	if st, err := undo.Last(context.Background(), dest, undo.Options{}); err != nil || st.Reverted != 1 {
		t.Fatalf("undo: %+v, %v", st, err)
	}
	if b, err := os.ReadFile(src); err != nil || string(b) != "photo a" {
		t.Errorf("source not moved back: %q, %v", b, err)
	}
}

// TestInterruptedAdoptsARemovedDuplicate: a run killed right after removing
// a duplicate, before journaling it Done, is completed by recovery so that
// undo still restores the duplicate; one killed before the removal owes
// nothing.
func TestInterruptedAdoptsARemovedDuplicate(t *testing.T) {
	root := t.TempDir()
	dest := filepath.Join(root, "lib")
	kept := filepath.Join(dest, "2020", "a.jpg")
	write(t, kept, []byte("photo a"))
	removed, stays := filepath.Join(root, "card", "a copy.jpg"), filepath.Join(root, "card", "a again.jpg")
	write(t, stays, []byte("photo a"))
	fi, _ := os.Lstat(stays)
	intent := func(seq uint64, dup string) journal.Entry {
		return journal.Entry{Seq: seq, State: journal.Intent, Action: journal.RemoveDuplicate, Src: dup, Dst: kept,
			Size: fi.Size(), ModTime: fi.ModTime().UnixNano()}
	}
	killedJournal(t, dest, intent(1, removed), intent(2, stays))
	st, err := recovery.Interrupted(context.Background(), dest, fsx.OS)
	if err != nil || st.Adopted != 1 {
		t.Fatalf("recovery: %+v, %v; want the removal adopted", st, err)
	}
	if b, err := os.ReadFile(stays); err != nil || string(b) != "photo a" {
		t.Errorf("a duplicate whose removal never happened was touched: %q, %v", b, err)
	}
	if st, err := undo.Last(context.Background(), dest, undo.Options{}); err != nil || st.Reverted != 1 {
		t.Fatalf("undo: %+v, %v", st, err)
	}
	if b, err := os.ReadFile(removed); err != nil || string(b) != "photo a" {
		t.Errorf("the removed duplicate was not restored: %q, %v", b, err)
	}
}
