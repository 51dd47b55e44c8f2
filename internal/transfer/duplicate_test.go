package transfer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/journal"
)

// dupCase is a duplicate in the source tree and its kept copy in the
// library, byte for byte the same.
type dupCase struct {
	*fixture
	dup, kept string
}

func newDupCase(t *testing.T) *dupCase {
	f := newFixture(t)
	c := &dupCase{fixture: f, dup: f.file("b/IMG_1 copy.JPG", "the same photo")}
	c.kept = writeSource(t, filepath.Join(f.lib, "2019", "2019-07-14", "IMG_1.JPG"), "the same photo")
	return c
}

func (c *dupCase) remove(opt Options) Result {
	return New(opt).RemoveDuplicate(context.Background(), c.dup, c.kept, c.lib)
}

func TestRemoveDuplicateRemovesOnlyTheDuplicate(t *testing.T) {
	c := newDupCase(t)
	dupInfo, _ := os.Lstat(c.dup)
	keptInfo, _ := os.Lstat(c.kept)
	w := newJournal(t)
	fsys := faults()
	res := c.remove(Options{FS: fsys, Journal: w})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	assertAbsent(t, c.dup)
	assertContent(t, c.kept, "the same photo")
	if !slices.Equal(res.Actions, []string{"remove " + c.dup}) {
		t.Errorf("actions = %q", res.Actions)
	}
	// The kept copy's folders up to the library root were made durable
	// before the duplicate went.
	synced := fsys.Calls("syncdir")
	for _, d := range []string{filepath.Dir(c.kept), filepath.Join(c.lib, "2019"), c.lib} {
		if !slices.Contains(synced, d) {
			t.Errorf("%s was not fsynced before the removal (synced %q)", d, synced)
		}
	}
	entries := readJournal(t, w)
	if len(entries) != 2 || entries[0].State != journal.Intent || entries[1].State != journal.Done {
		t.Fatalf("journal = %+v, want Intent then Done", entries)
	}
	dev, ino := fsx.DevIno(keptInfo)
	want := journal.Entry{Seq: 1, State: journal.Done, Action: journal.RemoveDuplicate, Src: c.dup, Dst: c.kept,
		Size: dupInfo.Size(), ModTime: dupInfo.ModTime().UnixNano(), Dev: dev, Ino: ino}
	if entries[1] != want {
		t.Errorf("Done = %+v, want %+v", entries[1], want)
	}
}

func TestRemoveDuplicateDryRunChangesNothing(t *testing.T) {
	c := newDupCase(t)
	before := snapshot(t, filepath.Dir(c.src))
	res := c.remove(Options{DryRun: true})
	if res.Err != nil || !slices.Equal(res.Actions, []string{"remove " + c.dup}) {
		t.Fatalf("dry run: %v, actions %q", res.Err, res.Actions)
	}
	assertSnapshot(t, filepath.Dir(c.src), before)

	// The dry run checks what the real run checks.
	if err := os.WriteFile(c.dup, []byte("the other photo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if res := c.remove(Options{DryRun: true}); !errors.Is(res.Err, ErrLeftInPlace) || len(res.Actions) != 0 {
		t.Errorf("dry run of a differing file: %v, actions %q; want a refusal", res.Err, res.Actions)
	}
}

func assertSnapshot(t *testing.T, root string, want map[string]string) {
	t.Helper()
	got := snapshot(t, root)
	for p, d := range want {
		if got[p] != d {
			t.Errorf("%s changed: %q, was %q", p, got[p], d)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s appeared", p)
		}
	}
}

// TestRemoveDuplicateRefuses: every doubt keeps the duplicate, with a
// reason naming it, and leaves the kept copy alone.
func TestRemoveDuplicateRefuses(t *testing.T) {
	_, missing := os.Lstat(filepath.Join(t.TempDir(), "missing"))
	notFound := errors.Unwrap(missing).Error() // the system's words: "no such file or directory", "File not found."
	cases := map[string]struct {
		meddle func(t *testing.T, c *dupCase)
		want   string
	}{
		"same size, other bytes": {func(t *testing.T, c *dupCase) { rewrite(t, c.dup, "the SAME photo") }, "differs from"},
		"other size":             {func(t *testing.T, c *dupCase) { rewrite(t, c.dup, "edited photo, longer") }, "bytes"},
		"kept copy gone":         {func(t *testing.T, c *dupCase) { os.Remove(c.kept) }, notFound},
		"duplicate is a symlink": {func(t *testing.T, c *dupCase) { os.Remove(c.dup); fsxtest.Symlink(t, c.kept, c.dup) }, "not a regular file"},
		"kept copy is a folder": {func(t *testing.T, c *dupCase) {
			os.Remove(c.kept)
			os.Mkdir(c.kept, 0o755)
		}, "not a regular file"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := newDupCase(t)
			tc.meddle(t, c)
			dupBefore, _ := os.Lstat(c.dup)
			w := newJournal(t)
			res := c.remove(Options{Journal: w})
			assertErrContains(t, res.Err, c.dup, tc.want)
			if _, err := os.Lstat(c.dup); err != nil {
				t.Errorf("the duplicate is gone: %v", err)
			} else if now, _ := os.Lstat(c.dup); !sameVersion(versionAt(c.dup, dupBefore), versionAt(c.dup, now)) {
				t.Error("the duplicate was changed")
			}
			if n := len(readJournal(t, w)); n != 0 {
				t.Errorf("a refusal before any change journaled %d entries", n)
			}
		})
	}
}

func rewrite(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRemoveDuplicateNeverRemovesTheKeptCopyThroughAnotherPath: a source
// folder that is a symlink into the library shows the library's own files
// as "duplicates"; removing one would delete the only copy.
func TestRemoveDuplicateNeverRemovesTheKeptCopyThroughAnotherPath(t *testing.T) {
	c := newDupCase(t)
	link := filepath.Join(c.src, "lib-link")
	fsxtest.Symlink(t, filepath.Dir(c.kept), link) // or skip where links cannot be made
	res := New(Options{}).RemoveDuplicate(context.Background(), filepath.Join(link, "IMG_1.JPG"), c.kept, c.lib)
	if !errors.Is(res.Err, ErrLeftInPlace) {
		t.Fatalf("err = %v, want a refusal", res.Err)
	}
	assertContent(t, c.kept, "the same photo")

	// Even with a second hard link elsewhere, one entry is one entry.
	if err := os.Link(c.kept, filepath.Join(c.lib, "other-link.JPG")); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	res = New(Options{}).RemoveDuplicate(context.Background(), filepath.Join(link, "IMG_1.JPG"), c.kept, c.lib)
	if !errors.Is(res.Err, ErrLeftInPlace) {
		t.Fatalf("err = %v, want a refusal", res.Err)
	}
	assertContent(t, c.kept, "the same photo")
}

// TestRemoveDuplicateHardLinkIsRemoved: a second name of the kept file is a
// separate entry; removing it leaves the library file whole.
func TestRemoveDuplicateHardLinkIsRemoved(t *testing.T) {
	c := newDupCase(t)
	os.Remove(c.dup)
	if err := os.Link(c.kept, c.dup); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	if res := c.remove(Options{}); res.Err != nil {
		t.Fatal(res.Err)
	}
	assertAbsent(t, c.dup)
	assertContent(t, c.kept, "the same photo")
}

func TestRemoveDuplicateFailureIsJournaled(t *testing.T) {
	c := newDupCase(t)
	w := newJournal(t)
	fsys := faults().Add(fsx.Rule{Op: "remove", Path: "IMG_1 copy", Err: syscall.EACCES})
	res := c.remove(Options{FS: fsys, Journal: w})
	assertErrContains(t, res.Err, c.dup, "permission denied")
	assertContent(t, c.dup, "the same photo")
	entries := readJournal(t, w)
	if len(entries) != 2 || entries[1].State != journal.Failed || entries[1].Err == "" {
		t.Errorf("journal = %+v, want Intent then Failed with the reason", entries)
	}
}

// removedDup removes c's duplicate with a journal and returns the Done
// entry, as an undo reads it.
func removedDup(t *testing.T, c *dupCase) journal.Entry {
	t.Helper()
	w := newJournal(t)
	if res := c.remove(Options{Journal: w}); res.Err != nil {
		t.Fatal(res.Err)
	}
	entries := readJournal(t, w)
	return entries[len(entries)-1]
}

func TestReverseRemoveDuplicateRestoresIt(t *testing.T) {
	c := newDupCase(t)
	dupInfo, _ := os.Lstat(c.dup)
	done := removedDup(t, c)

	before := snapshot(t, filepath.Dir(c.src))
	dry := reverseAll(t, Options{DryRun: true}, []journal.Entry{done})
	mustRevert(t, dry)
	if len(dry[0].Actions) != 2 {
		t.Errorf("dry run predicted %q, want the copy back", dry[0].Actions)
	}
	assertSnapshot(t, filepath.Dir(c.src), before)

	mustRevert(t, reverseAll(t, Options{}, []journal.Entry{done}))
	assertContent(t, c.dup, "the same photo")
	assertContent(t, c.kept, "the same photo")
	if now, err := os.Lstat(c.dup); err != nil || !now.ModTime().Equal(dupInfo.ModTime()) {
		t.Errorf("restored mtime %v, want the duplicate's own %v (%v)", now.ModTime(), dupInfo.ModTime(), err)
	}
	assertNoTemps(t, c.src)

	again := reverseAll(t, Options{}, []journal.Entry{done})
	if again[0].Err != nil || !again[0].Already {
		t.Errorf("second undo: %+v, want already done", again[0])
	}
}

func TestReverseRemoveDuplicateRefusesAChangedKeptCopy(t *testing.T) {
	for name, meddle := range map[string]func(c *dupCase){
		"gone": func(c *dupCase) { os.Remove(c.kept) },
		"replaced": func(c *dupCase) {
			// Written beside it and renamed over, so the inode is new for sure.
			os.WriteFile(c.kept+".new", []byte("the same photo"), 0o644)
			os.Rename(c.kept+".new", c.kept)
		},
		"resized": func(c *dupCase) { os.WriteFile(c.kept, []byte("edited in the library"), 0o644) },
	} {
		t.Run(name, func(t *testing.T) {
			c := newDupCase(t)
			done := removedDup(t, c)
			meddle(c)
			rs := reverseAll(t, Options{}, []journal.Entry{done})
			if !errors.Is(rs[0].Err, ErrLeftInPlace) {
				t.Fatalf("err = %v, want a refusal", rs[0].Err)
			}
			assertErrContains(t, rs[0].Err, c.dup, c.kept)
			assertAbsent(t, c.dup)
		})
	}
}

// TestReverseRemoveDuplicateVerifiesTheCopy: the undo executor has no
// --verify, yet the restored duplicate is verified: corruption on the way
// lands nothing.
func TestReverseRemoveDuplicateVerifiesTheCopy(t *testing.T) {
	c := newDupCase(t)
	done := removedDup(t, c)
	fsys := faults().Add(fsx.Rule{Op: "write", Path: "IMG_1 copy", Corrupt: true})
	rs := reverseAll(t, Options{FS: fsys}, []journal.Entry{done})
	if !errors.Is(rs[0].Err, ErrVerify) {
		t.Fatalf("err = %v, want a verification failure", rs[0].Err)
	}
	assertAbsent(t, c.dup)
	assertNoTemps(t, c.src)
	mustRevert(t, reverseAll(t, Options{}, []journal.Entry{done}))
	assertContent(t, c.dup, "the same photo")
}

// The removal's crash test: a child removes a duplicate with a journal and
// dies right after the removal, before its Done record. The Intent must
// already be in the journal (so recovery can adopt the removal) and the
// kept copy whole.
const envDupCrash = "SHOEBOX_TRANSFER_DUP_CRASH" // dup, kept, lib and journal dir, one a line

func TestDupCrashChild(t *testing.T) {
	spec := os.Getenv(envDupCrash)
	if spec == "" {
		t.Skip("only runs as the child of TestRemoveDuplicateCrashKeepsTheIntent")
	}
	var p [4]string
	copy(p[:], strings.Split(spec, "\n"))
	w, err := journal.Create(p[3], journal.Header{RunID: journal.NewRunID(time.Now()), Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	fsys := faults()
	if err := fsxtest.ExitAtCrashPoint(fsys, fsx.AfterRemoveSource+":1"); err != nil {
		t.Fatal(err)
	}
	res := New(Options{FS: fsys, Journal: w}).RemoveDuplicate(context.Background(), p[0], p[1], p[2])
	t.Fatalf("child survived the removal: %+v", res)
}

func TestRemoveDuplicateCrashKeepsTheIntent(t *testing.T) {
	c := newDupCase(t)
	jdir := t.TempDir()
	fsxtest.RunCrashChild(t, "TestDupCrashChild", envDupCrash+"="+strings.Join([]string{c.dup, c.kept, c.lib, jdir}, "\n"))
	assertAbsent(t, c.dup)
	assertContent(t, c.kept, "the same photo")
	sums, err := journal.List(jdir)
	if err != nil || len(sums) != 1 {
		t.Fatalf("journals %v, %v", sums, err)
	}
	var entries []journal.Entry
	if _, err := journal.Read(sums[0].Path, func(e journal.Entry) error { entries = append(entries, e); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].State != journal.Intent || entries[0].Action != journal.RemoveDuplicate || entries[0].Src != c.dup {
		t.Errorf("journal after the crash = %+v, want the removal's Intent alone", entries)
	}
}

// lstatHook runs hook before the nth Lstat of path: a writer that gets in
// between two looks at a file.
type lstatHook struct {
	fsx.FS
	path string
	nth  int
	seen int
	hook func()
}

func (h *lstatHook) Lstat(p string) (os.FileInfo, error) {
	if p == h.path {
		if h.seen++; h.seen == h.nth {
			h.hook()
		}
	}
	return h.FS.Lstat(p)
}

// A duplicate rewritten after it was compared, its size and mtime put
// back, is left in place: it is no longer a copy of the kept file, and
// only its change time (NTFS's ChangeTime on Windows) says so.
func TestRemoveDuplicateKeepsOneRewrittenWithMtimeRestored(t *testing.T) {
	c := newDupCase(t)
	fsys := &lstatHook{FS: fsx.OS, path: c.dup, nth: 2, hook: func() { rewriteKeepingMtime(t, c.dup, "THE SAME PHOTO") }}
	res := c.remove(Options{FS: fsys, Journal: newJournal(t)})
	if !errors.Is(res.Err, ErrLeftInPlace) {
		t.Fatalf("err = %v, want ErrLeftInPlace", res.Err)
	}
	assertContent(t, c.dup, "THE SAME PHOTO")
	assertContent(t, c.kept, "the same photo")
	if fsys.seen < 2 {
		t.Fatalf("the duplicate was looked at %d times; the rewrite never happened", fsys.seen)
	}
}
