package transfer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/journal"
)

// landed performs o with a journal and returns its Done entries (mkdirs
// included), as an undo would read them.
func landed(t *testing.T, opt Options, o Op) []journal.Entry {
	t.Helper()
	w := newJournal(t)
	opt.Journal = w
	e := New(opt)
	mustSucceed(t, e.Do(context.Background(), o))
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	var done []journal.Entry
	for _, ent := range readJournal(t, w) {
		if ent.State == journal.Done && ent.Action != journal.RemoveSource {
			done = append(done, ent)
		}
	}
	return done
}

// reverseAll reverses entries newest first, as undo does.
func reverseAll(t *testing.T, opt Options, entries []journal.Entry) []Reversal {
	t.Helper()
	u := New(opt).Reverser()
	var out []Reversal
	for i := len(entries) - 1; i >= 0; i-- {
		out = append(out, u.Reverse(context.Background(), entries[i]))
	}
	return out
}

func mustRevert(t *testing.T, rs []Reversal) {
	t.Helper()
	for _, r := range rs {
		if r.Err != nil {
			t.Fatalf("reverse %s %s: %v", r.Entry.Action, r.Entry.Dst, r.Err)
		}
	}
}

func TestReverseCopyRemovesFileAndFolders(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "photo")
	done := landed(t, Options{}, op(t, Copy, src, filepath.Join(f.lib, "2019", "07", "a.jpg")))
	before := snapshot(t, f.lib)
	dry := reverseAll(t, Options{DryRun: true}, done)
	mustRevert(t, dry)
	if after := snapshot(t, f.lib); len(after) != len(before) {
		t.Fatalf("dry run changed the library: %v -> %v", before, after)
	}
	mustRevert(t, reverseAll(t, Options{}, done))
	if entries, _ := os.ReadDir(f.lib); len(entries) != 0 {
		t.Errorf("library still holds %v", entries)
	}
	assertContent(t, src, "photo")
	// Idempotent: a second undo finds nothing left to do.
	for _, r := range reverseAll(t, Options{}, done) {
		if r.Err != nil || !r.Already {
			t.Errorf("second reversal of %s: %+v, want Already", r.Entry.Dst, r)
		}
	}
}

func TestReverseCopyLeavesChangedFile(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "photo")
	dst := filepath.Join(f.lib, "a.jpg")
	done := landed(t, Options{}, op(t, Copy, src, dst))
	if err := os.WriteFile(dst, []byte("edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := New(Options{}).Reverser().Reverse(context.Background(), done[len(done)-1])
	if !errors.Is(r.Err, ErrLeftInPlace) {
		t.Fatalf("reverse of an edited copy: %v, want ErrLeftInPlace", r.Err)
	}
	assertErrContains(t, r.Err, dst, "changed since shoebox copied it: left in place")
	assertContent(t, dst, "edited")
}

func TestReverseCopyKeepsOnlyCopy(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "photo")
	dst := filepath.Join(f.lib, "a.jpg")
	done := landed(t, Options{}, op(t, Copy, src, dst))
	if err := os.Remove(src); err != nil {
		t.Fatal(err)
	}
	r := New(Options{}).Reverser().Reverse(context.Background(), done[len(done)-1])
	if !errors.Is(r.Err, ErrLeftInPlace) {
		t.Fatalf("reverse with the source gone: %v, want ErrLeftInPlace", r.Err)
	}
	assertContent(t, dst, "photo")
}

func TestReverseMoveSameDevice(t *testing.T) {
	f := newFixture(t)
	src := f.file("card/DCIM/a.jpg", "photo")
	dst := filepath.Join(f.lib, "2019", "a.jpg")
	done := landed(t, Options{}, op(t, Move, src, dst))
	if err := os.RemoveAll(filepath.Join(f.src, "card")); err != nil { // the card's folders are gone too
		t.Fatal(err)
	}
	mustRevert(t, reverseAll(t, Options{}, done))
	assertContent(t, src, "photo")
	assertAbsent(t, dst)
	assertAbsent(t, filepath.Join(f.lib, "2019"))
}

func TestReverseMoveNeverOverwrites(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "photo")
	dst := filepath.Join(f.lib, "a.jpg")
	done := landed(t, Options{}, op(t, Move, src, dst))
	writeSource(t, src, "a new photo with the old name")
	r := New(Options{}).Reverser().Reverse(context.Background(), done[len(done)-1])
	if !errors.Is(r.Err, ErrLeftInPlace) {
		t.Fatalf("reverse onto a new file: %v, want ErrLeftInPlace", r.Err)
	}
	assertContent(t, src, "a new photo with the old name")
	assertContent(t, dst, "photo")
}

func TestReverseMoveAcrossDevices(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "photo")
	dst := filepath.Join(f.lib, "a.jpg")
	exdev := faults().Add(firstRenameCrossesDevices)
	done := landed(t, Options{FS: exdev}, op(t, Move, src, dst))
	assertAbsent(t, src)
	back := faults().Add(firstRenameCrossesDevices)
	rs := reverseAll(t, Options{FS: back, Journal: newJournal(t)}, done)
	mustRevert(t, rs)
	assertContent(t, src, "photo")
	assertAbsent(t, dst)
	assertNoTemps(t, f.src)
	fi, err := os.Lstat(src)
	if err != nil || fi.ModTime().UnixNano() != done[len(done)-1].ModTime {
		t.Errorf("moved back with mtime %v, %v; want the original", fi.ModTime(), err)
	}
}

func TestReverseDirOnlyWhenEmpty(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "photo")
	done := landed(t, Options{}, op(t, Copy, src, filepath.Join(f.lib, "2019", "a.jpg")))
	mine := filepath.Join(f.lib, "2019", "notes.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	rs := reverseAll(t, Options{}, done)
	if rs[0].Err != nil {
		t.Fatalf("file reversal: %v", rs[0].Err)
	}
	if !errors.Is(rs[1].Err, ErrLeftInPlace) {
		t.Errorf("folder reversal: %v, want ErrLeftInPlace", rs[1].Err)
	}
	assertContent(t, mine, "mine")
}

func TestReverseJournalsUndone(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "photo")
	done := landed(t, Options{}, op(t, Copy, src, filepath.Join(f.lib, "a.jpg")))
	w := newJournal(t)
	mustRevert(t, reverseAll(t, Options{Journal: w}, done))
	entries := readJournal(t, w)
	assertSteps(t, entries, []step{{journal.Intent, journal.Copy}, {journal.Undone, journal.Copy}})
	if entries[1].Seq != done[len(done)-1].Seq || entries[1].Tmp != "" {
		t.Errorf("undone entry %+v: want the original seq and no temp", entries[1])
	}
}

func TestCompleteMoveRemovesSourceOnlyWhenIdentical(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "photo")
	dst := writeSource(t, filepath.Join(f.lib, "a.jpg"), "photo")
	fi, _ := os.Lstat(src)
	intent := journal.Entry{Seq: 1, State: journal.Intent, Action: journal.Move, Src: src, Dst: dst,
		Size: fi.Size(), ModTime: fi.ModTime().UnixNano()}
	w := newJournal(t)
	res := New(Options{Journal: w}).CompleteMove(context.Background(), intent, f.lib)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	assertAbsent(t, src)
	assertContent(t, dst, "photo")
	assertSteps(t, readJournal(t, w), []step{
		{journal.Intent, journal.RemoveSource}, {journal.Done, journal.RemoveSource}, {journal.Done, journal.Move},
	})

	other := f.file("b.jpg", "photo")
	copyOf := writeSource(t, filepath.Join(f.lib, "b.jpg"), "PHOTO")
	intent.Src, intent.Dst = other, copyOf
	res = New(Options{}).CompleteMove(context.Background(), intent, f.lib)
	if !errors.Is(res.Err, ErrLeftInPlace) {
		t.Errorf("different copy: %v, want ErrLeftInPlace", res.Err)
	}
	assertContent(t, other, "photo")
}

func TestRemoveTempRefusesOtherNames(t *testing.T) {
	f := newFixture(t)
	photo := f.file("a.jpg", "photo")
	if _, err := New(Options{}).RemoveTemp(photo); !errors.Is(err, ErrLeftInPlace) {
		t.Errorf("RemoveTemp of a photo: %v, want ErrLeftInPlace", err)
	}
	assertContent(t, photo, "photo")
	tmp := writeSource(t, tempPrefix(filepath.Join(f.lib, "a.jpg"))+"0123456789abcdef", "partial")
	if ok, err := New(Options{}).RemoveTemp(tmp); !ok || err != nil {
		t.Errorf("RemoveTemp = %v, %v", ok, err)
	}
	assertAbsent(t, tmp)
}

// firstRenameCrossesDevices fails the move's own rename as a rename across
// filesystems would, and lets the temp file's rename through.
var firstRenameCrossesDevices = fsx.Rule{Op: "rename", Times: 1, Err: syscall.EXDEV}
