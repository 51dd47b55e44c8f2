package transfer

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/journal"
)

// A copy with a backup lands twice from one pass: both files whole, with
// the source's mtime, each journaled as its own Copy (so undo removes the
// backup too).
func TestBackupCopyLandsBothJournaled(t *testing.T) {
	f := newFixture(t)
	bak := filepath.Join(filepath.Dir(f.lib), "bak")
	w := newJournal(t)
	e := New(Options{Journal: w, Library: f.lib, Backup: bak})
	o := op(t, Copy, f.file("a.jpg", strings.Repeat("photo", 300000)), filepath.Join(f.lib, "2019", "a.jpg"))
	o.Backup = filepath.Join(bak, "2019", "a.jpg")
	res := e.Do(context.Background(), o)
	mustSucceed(t, res)
	if res.Backup != o.Backup {
		t.Errorf("result names backup %q, want %q", res.Backup, o.Backup)
	}
	for _, p := range []string{o.Dst, o.Backup} {
		got, err := os.ReadFile(p)
		if err != nil || string(got) != strings.Repeat("photo", 300000) {
			t.Fatalf("%s: %v, %d bytes", p, err, len(got))
		}
		fi, _ := os.Stat(p)
		if !fi.ModTime().Equal(o.ModTime) {
			t.Errorf("%s has mtime %v, want the source's %v", p, fi.ModTime(), o.ModTime)
		}
	}
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	done := map[string]bool{}
	for _, en := range readJournal(t, w) {
		if en.State == journal.Done && en.Action == journal.Copy {
			done[en.Dst] = true
		}
	}
	if !done[o.Dst] || !done[o.Backup] {
		t.Errorf("journal Done copies %v, want both %q and %q", done, o.Dst, o.Backup)
	}
	assertNoTemps(t, filepath.Dir(f.lib))
}

// A different file at the backup's path fails the file, says it is the
// backup copy, and leaves nothing in the library; an identical one (a run
// killed between the two renames) is kept as the backup.
func TestBackupTakenFailsTheFileIdenticalIsKept(t *testing.T) {
	f := newFixture(t)
	bak := filepath.Join(filepath.Dir(f.lib), "bak")
	e := New(Options{Library: f.lib, Backup: bak})
	o := op(t, Copy, f.file("a.jpg", "aaa"), filepath.Join(f.lib, "a.jpg"))
	o.Backup = filepath.Join(bak, "a.jpg")
	writeSource(t, o.Backup, "zzz")
	res := e.Do(context.Background(), o)
	if res.Err == nil || !errors.Is(res.Err, ErrBackupTaken) || !strings.Contains(res.Err.Error(), "backup copy") {
		t.Fatalf("want the backup copy's refusal, got %v", res.Err)
	}
	if _, err := os.Lstat(o.Dst); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("library copy left behind after the backup failed: %v", err)
	}
	if got, _ := os.ReadFile(o.Backup); string(got) != "zzz" {
		t.Fatalf("the file in the backup folder was changed: %q", got)
	}
	writeSource(t, o.Backup, "aaa")
	res = e.Do(context.Background(), o)
	mustSucceed(t, res)
	if !res.BackupKept {
		t.Error("identical backup not reported as kept")
	}
	assertNoTemps(t, filepath.Dir(f.lib))
}

// A dry run predicts both copies and writes nothing.
func TestBackupDryRunPredicts(t *testing.T) {
	f := newFixture(t)
	bak := filepath.Join(filepath.Dir(f.lib), "bak")
	e := New(Options{Library: f.lib, Backup: bak, DryRun: true})
	o := op(t, Copy, f.file("a.jpg", "aaa"), filepath.Join(f.lib, "x", "a.jpg"))
	o.Backup = filepath.Join(bak, "x", "a.jpg")
	res := e.Do(context.Background(), o)
	mustSucceed(t, res)
	all := strings.Join(res.Actions, "\n")
	if !strings.Contains(all, "rename "+tempPrefix(o.Backup)+"<tmp> -> "+o.Backup) || !strings.Contains(all, "mkdir "+filepath.Join(bak, "x")) {
		t.Errorf("dry run does not predict the backup:\n%s", all)
	}
	if _, err := os.Lstat(bak); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("dry run created %s", bak)
	}
}

// Outside the backup folder, or through a reserved name, or with another
// mode: refused before anything is written.
func TestBackupRefusesWhatTheLibraryRefuses(t *testing.T) {
	f := newFixture(t)
	bak := filepath.Join(filepath.Dir(f.lib), "bak")
	e := New(Options{Library: f.lib, Backup: bak})
	for _, tc := range []struct {
		mode   Mode
		backup string
	}{
		{Copy, filepath.Join(filepath.Dir(f.lib), "elsewhere", "a.jpg")},
		{Copy, filepath.Join(bak, ".shoebox", "a.jpg")},
		{Hardlink, filepath.Join(bak, "a.jpg")},
		{Symlink, filepath.Join(bak, "a.jpg")},
	} {
		o := op(t, tc.mode, f.file("a.jpg", "aaa"), filepath.Join(f.lib, "a.jpg"))
		o.Backup = tc.backup
		if res := e.Do(context.Background(), o); res.Err == nil {
			t.Errorf("%s with backup %q was accepted", tc.mode, tc.backup)
		}
		if _, err := os.Lstat(o.Dst); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s with backup %q left %s", tc.mode, tc.backup, o.Dst)
		}
	}
}

// Each way one copy can fail fails the file whole, says which copy, and
// leaves neither copy nor temp behind: the backup temp cannot be written,
// is corrupted on the way (caught by the comparison with the library
// copy), or the library copy cannot be renamed after the backup landed
// (the backup is withdrawn).
func TestBackupEitherFailureFailsTheFileWhole(t *testing.T) {
	sep := string(filepath.Separator)
	for _, tc := range []struct {
		name   string
		rule   fsx.Rule
		backup bool // the error names the backup copy
	}{
		{"backup write fails", fsx.Rule{Op: "write", Path: sep + "bak" + sep, Err: syscall.EIO}, true},
		{"backup corrupted", fsx.Rule{Op: "write", Path: sep + "bak" + sep, Corrupt: true}, true},
		{"library rename fails", fsx.Rule{Op: "rename", Path: sep + "lib" + sep, Err: syscall.EIO}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			bak := filepath.Join(filepath.Dir(f.lib), "bak")
			w := newJournal(t)
			e := New(Options{FS: fsx.NewFaults(fsx.OS).Add(tc.rule), Journal: w, Library: f.lib, Backup: bak})
			o := op(t, Copy, f.file("a.jpg", strings.Repeat("x", 5000)), filepath.Join(f.lib, "a.jpg"))
			o.Backup = filepath.Join(bak, "a.jpg")
			res := e.Do(context.Background(), o)
			if res.Err == nil || res.Landed {
				t.Fatalf("want the file failed, got landed=%v err=%v", res.Landed, res.Err)
			}
			if got := strings.Contains(res.Err.Error(), "backup copy"); got != tc.backup {
				t.Errorf("error %q: naming the backup copy = %v, want %v", res.Err, got, tc.backup)
			}
			for _, p := range []string{o.Dst, o.Backup} {
				if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s left behind (%v)", p, err)
				}
			}
			assertNoTemps(t, filepath.Dir(f.lib))
			if err := e.Flush(); err != nil {
				t.Fatal(err)
			}
			for _, en := range readJournal(t, w) {
				if en.State == journal.Done && en.Action == journal.Copy {
					t.Errorf("journal records a copy done: %+v", en)
				}
			}
		})
	}
}

// A move with a backup lands both copies from one pass, then removes the
// source; the backup's Done is journaled before the source's removal is
// announced (whose sync makes it durable), so recovery never meets a
// removed source with an unrecorded backup.
func TestBackupMoveLandsBothThenRemovesSource(t *testing.T) {
	f := newFixture(t)
	bak := filepath.Join(filepath.Dir(f.lib), "bak")
	w := newJournal(t)
	e := New(Options{Journal: w, Library: f.lib, Backup: bak})
	content := strings.Repeat("photo", 300000)
	o := op(t, Move, f.file("a.jpg", content), filepath.Join(f.lib, "2019", "a.jpg"))
	o.Backup = filepath.Join(bak, "2019", "a.jpg")
	res := e.Do(context.Background(), o)
	mustSucceed(t, res)
	assertContent(t, o.Dst, content)
	assertContent(t, o.Backup, content)
	assertAbsent(t, o.Src)
	if res.Backup != o.Backup || res.Fallback != fallbackBackupMove {
		t.Errorf("result: backup %q fallback %q", res.Backup, res.Fallback)
	}
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, en := range readJournal(t, w) {
		switch {
		case en.Action == journal.Copy && en.State == journal.Done && en.Dst == o.Backup:
			order = append(order, "backup done")
		case en.Action == journal.RemoveSource && en.State == journal.Intent:
			order = append(order, "remove intent")
		case en.Action == journal.RemoveSource && en.State == journal.Done:
			order = append(order, "remove done")
		case en.Action == journal.Move && en.State == journal.Done && en.Dst == o.Dst:
			order = append(order, "move done")
		}
	}
	if got := strings.Join(order, ", "); got != "backup done, remove intent, remove done, move done" {
		t.Errorf("journal order: %s", got)
	}
	assertNoTemps(t, filepath.Dir(f.lib))
}

// A move with a backup keeps its source whenever either copy fails: the
// backup temp unwritable or corrupted, the library copy unrenamable, the
// backup's folder not durable, the source's removal refused. Before either
// copy is whole, nothing of it is left; after both are, both stay
// (journaled done, so undo knows them) with the source.
func TestBackupMoveKeepsTheSourceUnlessBothCopiesLanded(t *testing.T) {
	sep := string(filepath.Separator)
	for _, tc := range []struct {
		name   string
		rule   fsx.Rule
		backup bool // the error names the backup copy
		landed bool // both copies stay
	}{
		{"backup write fails", fsx.Rule{Op: "write", Path: sep + "bak" + sep, Err: syscall.EIO}, true, false},
		{"backup corrupted", fsx.Rule{Op: "write", Path: sep + "bak" + sep, Corrupt: true}, true, false},
		{"library copy corrupted", fsx.Rule{Op: "write", Path: sep + "lib" + sep, Corrupt: true}, false, false},
		{"library rename fails", fsx.Rule{Op: "rename", Path: sep + "lib" + sep, Err: syscall.EIO}, false, false},
		{"backup folder sync fails", fsx.Rule{Op: "syncdir", Path: sep + "bak", Err: syscall.EIO}, true, true},
		{"source removal fails", fsx.Rule{Op: "remove", Path: sep + "src" + sep, Err: syscall.EACCES}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			bak := filepath.Join(filepath.Dir(f.lib), "bak")
			w := newJournal(t)
			e := New(Options{FS: fsx.NewFaults(fsx.OS).Add(tc.rule), Journal: w, Library: f.lib, Backup: bak})
			content := strings.Repeat("x", 5000)
			o := op(t, Move, f.file("a.jpg", content), filepath.Join(f.lib, "a.jpg"))
			o.Backup = filepath.Join(bak, "a.jpg")
			res := e.Do(context.Background(), o)
			if res.Err == nil {
				t.Fatal("want the move failed")
			}
			if got := strings.Contains(res.Err.Error(), "backup copy"); got != tc.backup {
				t.Errorf("error %q: naming the backup copy = %v, want %v", res.Err, got, tc.backup)
			}
			assertContent(t, o.Src, content)
			done := map[string]bool{}
			if err := e.Flush(); err != nil && !tc.landed {
				t.Fatal(err)
			}
			for _, en := range readJournal(t, w) {
				if en.State == journal.Done && (en.Action == journal.Copy || en.Action == journal.Move) {
					done[en.Dst] = true
				}
			}
			for _, p := range []string{o.Dst, o.Backup} {
				if tc.landed {
					assertContent(t, p, content)
					if !done[p] {
						t.Errorf("%s stays but is not journaled done: undo could not remove it", p)
					}
				} else {
					assertAbsent(t, p)
					if done[p] {
						t.Errorf("%s journaled done but not there", p)
					}
				}
			}
			assertNoTemps(t, filepath.Dir(f.lib))
		})
	}
}

// Reflink with a backup: the library copy shares the source's extents
// where the filesystem can (else is copied, said as a fallback), the
// backup is a real copy from one read of the source.
func TestBackupReflinkLandsBoth(t *testing.T) {
	f := newFixture(t)
	bak := filepath.Join(filepath.Dir(f.lib), "bak")
	e := New(Options{Library: f.lib, Backup: bak})
	content := strings.Repeat("raw", 100000)
	o := op(t, Reflink, f.file("a.cr2", content), filepath.Join(f.lib, "a.cr2"))
	o.Backup = filepath.Join(bak, "a.cr2")
	res := e.Do(context.Background(), o)
	mustSucceed(t, res)
	assertContent(t, o.Dst, content)
	assertContent(t, o.Backup, content)
	assertContent(t, o.Src, content)
	if res.Backup != o.Backup {
		t.Errorf("result names backup %q", res.Backup)
	}
	// A clone that fails outright fails the file whole.
	e = New(Options{FS: fsx.NewFaults(fsx.OS).Add(fsx.Rule{Op: "clone", Err: syscall.EIO}), Library: f.lib, Backup: bak})
	o2 := op(t, Reflink, f.file("b.cr2", content), filepath.Join(f.lib, "b.cr2"))
	o2.Backup = filepath.Join(bak, "b.cr2")
	if res := e.Do(context.Background(), o2); res.Err == nil {
		t.Fatal("a failing clone was not reported")
	}
	assertAbsent(t, o2.Dst)
	assertAbsent(t, o2.Backup)
	assertNoTemps(t, filepath.Dir(f.lib))
}

// An identical file already in the backup folder is kept as the backup
// only if it is a copy there: not the source itself, reached through a
// link to the card's folder put inside the backup folder, or through a
// hard link (or bind mount) of the source. Kept so, a move would remove
// the source, leaving its only copy in the library while reporting a
// backup. The file fails instead, and its source stays.
func TestBackupKeptOnlyWhenItIsAnotherFile(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(t *testing.T, src, bak string)
		want error
	}{
		{"folder linked to the source's", func(t *testing.T, src, bak string) {
			if err := os.MkdirAll(filepath.Join(bak, "2019"), 0o755); err != nil {
				t.Fatal(err)
			}
			fsxtest.Symlink(t, filepath.Dir(src), filepath.Join(bak, "2019", "07"))
		}, ErrLinkInLibrary},
		{"hard link of the source", func(t *testing.T, src, bak string) {
			if err := os.MkdirAll(filepath.Join(bak, "2019", "07"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(src, filepath.Join(bak, "2019", "07", "a.jpg")); err != nil {
				t.Skipf("hard links: %v", err)
			}
		}, ErrBackupTaken},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, mode := range []Mode{Move, Copy} {
				f := newFixture(t)
				bak := filepath.Join(filepath.Dir(f.lib), "bak")
				content := strings.Repeat("photo", 1000)
				o := op(t, mode, f.file("a.jpg", content), filepath.Join(f.lib, "2019", "07", "a.jpg"))
				o.Backup = filepath.Join(bak, "2019", "07", "a.jpg")
				tc.make(t, o.Src, bak)
				res := New(Options{Library: f.lib, Backup: bak}).Do(context.Background(), o)
				if res.Err == nil || !errors.Is(res.Err, tc.want) || res.BackupKept {
					t.Fatalf("%s: the source itself taken for its backup: err %v, kept %v", mode, res.Err, res.BackupKept)
				}
				assertContent(t, o.Src, content)
				assertAbsent(t, o.Dst)
			}
		})
	}
}

// A move whose backup copy is kept (an identical file already at its
// path: a killed run's, or one put there by hand) removes the source only
// once that file is durable too: its data fsynced like a copy's temp, not
// only its folder. A file copied there a moment ago may still be in the
// page cache; a power cut after the removal would lose it.
func TestBackupMoveKeptBackupIsMadeDurableFirst(t *testing.T) {
	f := newFixture(t)
	bak := filepath.Join(filepath.Dir(f.lib), "bak")
	content := strings.Repeat("x", 5000)
	o := op(t, Move, f.file("a.jpg", content), filepath.Join(f.lib, "a.jpg"))
	o.Backup = filepath.Join(bak, "a.jpg")
	writeSource(t, o.Backup, content)
	rule := fsx.Rule{Op: "sync", Path: o.Backup, Err: syscall.EIO}
	res := New(Options{FS: fsx.NewFaults(fsx.OS).Add(rule), Library: f.lib, Backup: bak}).Do(context.Background(), o)
	if res.Err == nil || !strings.Contains(res.Err.Error(), "backup copy") {
		t.Fatalf("want the move failed on the kept backup's fsync, got %v", res.Err)
	}
	assertContent(t, o.Src, content)
	assertContent(t, o.Backup, content)
}
