package undo_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/transfer"
	"github.com/shoebox-photos/shoebox/internal/undo"
)

// The kill tests re-execute this test binary as a child that runs one sort
// or one undo and dies with os.Exit(137), as if SIGKILLed, at a chosen
// moment; the parent then checks what the killed process left behind and
// what the next commands make of it.
const (
	envChild    = "SHOEBOX_UNDO_TEST_CHILD" // "sort" or "undo"
	envSrc      = "SHOEBOX_UNDO_TEST_SRC"
	envDest     = "SHOEBOX_UNDO_TEST_DEST"
	envMode     = "SHOEBOX_UNDO_TEST_MODE"
	envKillAt   = "SHOEBOX_UNDO_TEST_KILL_AT" // <crash point>:<n>, mkdir:<n> or event:<n>
	killedCode  = 137
	crashMkdir  = "mkdir" // right after the nth directory creation, before anything else
	crashEvents = "event" // at the nth line an undo reports
)

func TestMain(m *testing.M) {
	if kind := os.Getenv(envChild); kind != "" {
		os.Exit(runChild(kind))
	}
	os.Exit(m.Run())
}

// runChild is the child's whole life; returning means it was not killed.
func runChild(kind string) int {
	point, nth, err := parseKillAt(os.Getenv(envKillAt))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var seen atomic.Int64
	kill := func(p string) {
		if p == point && seen.Add(1) == nth {
			os.Exit(killedCode)
		}
	}
	dest := os.Getenv(envDest)
	switch kind {
	case "sort":
		mode, err := transfer.ParseMode(os.Getenv(envMode))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		faults := fsx.NewFaults(fsx.OS)
		faults.OnCrashPoint(kill)
		err = runSort(killingMkdir{faults, kill}, mode, os.Getenv(envSrc), dest)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	case "undo":
		_, err := undo.Last(context.Background(), dest, undo.Options{Events: func(string) { kill(crashEvents) }})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	case "undo-named": // the run id comes in envSrc
		_, err := undo.Named(context.Background(), dest, os.Getenv(envSrc), undo.Options{Events: func(string) { kill(crashEvents) }})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	default:
		fmt.Fprintf(os.Stderr, "unknown child %q\n", kind)
		return 2
	}
	return 0
}

func parseKillAt(spec string) (string, int64, error) {
	point, n, ok := strings.Cut(spec, ":")
	nth, err := strconv.ParseInt(n, 10, 64)
	if !ok || err != nil || nth < 1 {
		return "", 0, fmt.Errorf("%s=%q: want <point>:<n>", envKillAt, spec)
	}
	return point, nth, nil
}

// killingMkdir dies right after a directory is created, the moment
// between the mkdir and whatever records it.
type killingMkdir struct {
	fsx.FS
	kill func(string)
}

func (k killingMkdir) MkdirAll(path string, perm os.FileMode) error {
	err := k.FS.MkdirAll(path, perm)
	k.kill(crashMkdir)
	return err
}

// CrashPoint passes the protocol's crash points on to the wrapped Faults.
func (k killingMkdir) CrashPoint(point string) { fsx.CrashPoint(k.FS, point) }

// runSort is `shoebox sort --mode MODE SRC DEST` with one worker, so that
// the nth crash point is the same file every time.
func runSort(fsys fsx.FS, mode transfer.Mode, src, dest string) error {
	tmpl, err := layout.Parse("{year}/{year}-{month}-{day}/{name}{ext}")
	if err != nil {
		return err
	}
	run, err := pipeline.Open(pipeline.Config{Sources: []string{src}, Dest: dest, Template: tmpl, Mode: mode,
		Workers: 1, Dedup: true, VideoTZ: time.UTC, UnknownDir: "unknown", FS: fsys,
		Args: []string{"sort", "--mode", mode.String(), src, dest}})
	if err != nil {
		return err
	}
	return errors.Join(run.All(context.Background()), run.Close())
}

// killChild runs a child and reports whether it was killed (false: it ran
// to the end, the kill point was never reached that often).
func killChild(t *testing.T, kind, killAt, src, dest string, mode transfer.Mode) bool {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), envChild+"="+kind, envKillAt+"="+killAt,
		envSrc+"="+src, envDest+"="+dest, envMode+"="+mode.String())
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return false
	case errors.As(err, &exit) && exit.ExitCode() == killedCode:
		return true
	}
	t.Fatalf("%s child (kill at %s): %v\n%s", kind, killAt, err, out)
	return false
}

// folders lists the directories under root, .shoebox and root excluded.
func folders(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".shoebox" {
			return filepath.SkipDir
		}
		if d.IsDir() && p != root {
			out = append(out, p)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return out
}

// entries lists every non-directory entry under root (.shoebox excluded),
// symlinks and temps included.
func entries(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".shoebox" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return out
}

// TestUndoAfterAKilledUndoReversesOnlyTheRunItNames: an undo of a big run
// is killed once it has spilled that run into its scratch store; one new
// file is sorted; the next undo must reverse that one file and nothing of
// the older run, whose files stay until an undo names it.
func TestUndoAfterAKilledUndoReversesOnlyTheRunItNames(t *testing.T) {
	root := t.TempDir()
	dest := filepath.Join(root, "lib")
	old := bigRun(t, root, dest)
	if !killChild(t, "undo", crashEvents+":1", "", dest, transfer.Copy) {
		t.Fatal("the undo child was not killed")
	}
	if _, err := os.Stat(filepath.Join(dest, ".shoebox", "undo-scratch")); err != nil {
		t.Fatalf("the killed undo left no scratch store to be confused by: %v", err)
	}
	card := filepath.Join(root, "card")
	write(t, filepath.Join(card, "IMG_NEW.JPG"), jpeg(2022, "the new one"))
	sortInto(t, transfer.Copy, card, dest)

	st, err := undo.Last(context.Background(), dest, undo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Runs) != 1 || st.Reverted != 1 || st.Already != 0 || st.Kept != 0 || st.Failed != 0 {
		t.Errorf("undo of the one-file run: %+v; want exactly that file reverted", st)
	}
	for _, p := range old {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("the older run's %s was reverted by an undo that did not name it: %v", p, err)
		}
	}
	// The interrupted undo of the big run finishes now, from its journal.
	st, err = undo.Last(context.Background(), dest, undo.Options{})
	if err != nil || st.Reverted != len(old) || st.Failed != 0 {
		t.Fatalf("undo of the big run: %+v, %v", st, err)
	}
	if left := entries(t, dest); len(left) != 0 {
		t.Errorf("library still holds %v", left)
	}
}

func jpeg(year int, comment string) []byte {
	return fixture.JPEG(fixture.EXIF{When: time.Date(year, 5, 6, 7, 8, 9, 0, time.UTC), Comment: comment})
}

// bigRun records a closed sort run into dest that copied three real files,
// among 12,000 entries of files long gone: enough for an undo's scratch
// store to outgrow its memory tables and reach the disk before the undo
// starts reverting. It returns the three library files.
func bigRun(t *testing.T, root, dest string) []string {
	t.Helper()
	started := time.Now().Add(-time.Hour)
	w, err := journal.Create(filepath.Join(dest, ".shoebox", "journal"), journal.Header{
		RunID: journal.NewRunID(started), Started: started, Dest: dest, Args: []string{"sort", "old-card", dest}})
	if err != nil {
		t.Fatal(err)
	}
	gone := func(n int) {
		pad := strings.Repeat("x", 200)
		for i := 0; i < n; i++ {
			name := fmt.Sprintf("%s-%d.JPG", pad, i)
			e := journal.Entry{Seq: w.NextSeq(), State: journal.Done, Action: journal.Copy,
				Src: filepath.Join(root, "gone", name), Dst: filepath.Join(dest, "1999", name), Size: 1, ModTime: 1}
			if err := w.Append(e); err != nil {
				t.Fatal(err)
			}
		}
	}
	gone(3)
	exec := transfer.New(transfer.Options{Journal: w})
	var landed []string
	for i := 0; i < 3; i++ {
		src := filepath.Join(root, "old-card", fmt.Sprintf("IMG_%d.JPG", i))
		write(t, src, jpeg(2019, src))
		fi, _ := os.Lstat(src)
		dst := filepath.Join(dest, "2019", filepath.Base(src))
		res := exec.Do(context.Background(), transfer.Op{Mode: transfer.Copy, Src: src, Dst: dst, Size: fi.Size(), ModTime: fi.ModTime()})
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		landed = append(landed, dst)
	}
	gone(12000)
	if err := errors.Join(exec.Flush(), w.Close()); err != nil {
		t.Fatal(err)
	}
	return landed
}

// crossDeviceCard makes a source folder on another filesystem than the
// test's temp dir (tmpfs /dev/shm), so that a move copies, verifies and
// then removes its source; it skips when there is none.
func crossDeviceCard(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the other filesystem to move from is Linux's tmpfs /dev/shm (under Wine it is the Z: drive, whose volume Wine cannot read)")
	}
	shm, err := os.MkdirTemp("/dev/shm", "shoebox-undo-test-")
	if err != nil {
		t.Skipf("no /dev/shm to move from: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(shm) })
	a, errA := os.Stat(shm)
	b, errB := os.Stat(t.TempDir())
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if da, _ := fsx.DevIno(a); func() bool { db, _ := fsx.DevIno(b); return da == db }() {
		t.Skip("/dev/shm and the temp dir are one filesystem here: no cross-device move to test")
	}
	return filepath.Join(shm, "card")
}

// TestKilledCrossDeviceMoveOfASidecarIsFinished: a photo and its .xmp are
// moved across devices and the run is killed once the sidecar's verified
// copy has landed, before its source is removed. The photo's finished move
// must not hide the sidecar's unfinished one: the re-run finishes it (the
// source goes), and undo puts both back and leaves the library empty.
func TestKilledCrossDeviceMoveOfASidecarIsFinished(t *testing.T) {
	card := crossDeviceCard(t)
	dest := filepath.Join(t.TempDir(), "lib")
	write(t, filepath.Join(card, "IMG_0001.JPG"), jpeg(2020, "photo"))
	write(t, filepath.Join(card, "IMG_0001.xmp"), []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"/>`))
	before := contents(t, card)

	// The photo's rename into place is the first, the sidecar's the second.
	if !killChild(t, "sort", fsx.AfterRename+":2", card, dest, transfer.Move) {
		t.Fatal("the sort child was not killed")
	}
	if err := runSort(fsx.OS, transfer.Move, card, dest); err != nil {
		t.Fatalf("re-run: %v", err)
	}
	if left := entries(t, card); len(left) != 0 {
		t.Errorf("the re-run of the move left %v in the source", left)
	}
	if got := len(photos(t, dest)); got != 2 {
		t.Errorf("library holds %v, want the photo and its sidecar", photos(t, dest))
	}
	if _, err := undo.Last(context.Background(), dest, undo.Options{}); err != nil {
		t.Fatal(err)
	}
	assertContents(t, contents(t, card), before)
	if left := entries(t, dest); len(left) != 0 {
		t.Errorf("after undo the library still holds %v", left)
	}
	if left := folders(t, dest); len(left) != 0 {
		t.Errorf("after undo the library still has the folders %v", left)
	}
}

// TestKilledRightAfterMkdirLeavesNoFolderAfterUndo: a sort killed right
// after it created a date folder, before anything else happened. Undo, at
// once or after a re-run finished the job, removes the folders the run
// created (they are empty by then) and nothing else.
func TestKilledRightAfterMkdirLeavesNoFolderAfterUndo(t *testing.T) {
	for _, rerun := range []bool{false, true} {
		t.Run(fmt.Sprintf("rerun=%v", rerun), func(t *testing.T) {
			root := t.TempDir()
			card, dest := filepath.Join(root, "card"), filepath.Join(root, "lib")
			write(t, filepath.Join(card, "IMG_1.JPG"), jpeg(2020, "one"))
			write(t, filepath.Join(card, "IMG_2.JPG"), jpeg(2021, "two"))
			mine := filepath.Join(dest, "mine") // the user's own empty folder
			if err := os.MkdirAll(mine, 0o755); err != nil {
				t.Fatal(err)
			}
			if !killChild(t, "sort", crashMkdir+":1", card, dest, transfer.Copy) {
				t.Fatal("the sort child was not killed")
			}
			if len(folders(t, dest)) < 2 {
				t.Fatalf("the kill left no new folder: %v", folders(t, dest))
			}
			if rerun {
				if err := runSort(fsx.OS, transfer.Copy, card, dest); err != nil {
					t.Fatalf("re-run: %v", err)
				}
			}
			st, err := undo.Last(context.Background(), dest, undo.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !rerun && (st.Recovery.DirsAdopted != 2 || st.Recovery.Adopted != 0) {
				t.Errorf("recovery %+v: want the year and day folders recorded, and no file", st.Recovery)
			}
			if got := folders(t, dest); len(got) != 1 || got[0] != mine {
				t.Errorf("after undo the library has the folders %v, want only the user's %s", got, mine)
			}
			if left := entries(t, dest); len(left) != 0 {
				t.Errorf("after undo the library still holds %v", left)
			}
		})
	}
}

// TestKillAtEveryPointThenRerunAndUndo kills a sort at every occurrence of
// every crash point, in every mode, on a card with a sidecar and a
// RAW+JPEG pair, then checks what the issue asks after each kill: every
// library file complete and identical to a source, no source lost, the
// re-run completes, and undo — itself killed once on the way — restores
// the starting state with no folder left behind. It kills at the first
// occurrence of each point; SHOEBOX_KILL_EVERY=1 tries every occurrence.
func TestKillAtEveryPointThenRerunAndUndo(t *testing.T) {
	modes := []struct {
		name  string
		mode  transfer.Mode
		cross bool
	}{
		{"copy", transfer.Copy, false}, {"move", transfer.Move, false}, {"move-across-devices", transfer.Move, true},
		{"hardlink", transfer.Hardlink, false}, {"symlink", transfer.Symlink, false},
	}
	points := []string{fsx.AfterMkdir, fsx.AfterTempWrite, fsx.AfterSync, fsx.AfterRename, fsx.AfterRemoveSource}
	for _, m := range modes {
		for _, point := range points {
			t.Run(m.name+"/"+point, func(t *testing.T) {
				if m.mode == transfer.Symlink {
					fsxtest.NeedSymlinks(t)
				}
				for nth := 1; ; nth++ {
					k := newKillCase(t, m.mode, m.cross)
					if !killChild(t, "sort", fmt.Sprintf("%s:%d", point, nth), k.card, k.dest, m.mode) {
						if nth == 1 && reaches(m.mode, m.cross, point) {
							t.Fatalf("the sort never reached %s", point)
						}
						return
					}
					k.check(fmt.Sprintf("%s #%d", point, nth))
					if os.Getenv("SHOEBOX_KILL_EVERY") == "" {
						return
					}
				}
			})
		}
	}
}

// reaches says whether a sort in mode passes through point at all.
func reaches(mode transfer.Mode, cross bool, point string) bool {
	switch point {
	case fsx.AfterMkdir:
		return true
	case fsx.AfterTempWrite, fsx.AfterSync:
		return mode == transfer.Copy || (mode == transfer.Move && cross)
	case fsx.AfterRename:
		return mode == transfer.Copy || mode == transfer.Move
	case fsx.AfterRemoveSource:
		return mode == transfer.Move && cross
	}
	return false
}

// killCase is one card, one library and what the card held at the start.
type killCase struct {
	t          *testing.T
	mode       transfer.Mode
	card, dest string
	before     map[string]string // the card's files: content and mtime
	files      map[string]string // the card's files: content
	bytes      map[string]bool   // every content on the card
}

func newKillCase(t *testing.T, mode transfer.Mode, cross bool) *killCase {
	t.Helper()
	k := &killCase{t: t, mode: mode, card: filepath.Join(t.TempDir(), "card"), dest: filepath.Join(t.TempDir(), "lib")}
	if cross {
		k.card = crossDeviceCard(t)
	}
	shot := time.Date(2020, 5, 6, 7, 8, 9, 0, time.UTC)
	files := map[string][]byte{
		"DCIM/IMG_0001.JPG": jpeg(2020, "photo with a sidecar"),
		"DCIM/IMG_0001.xmp": []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"/>`),
		"DCIM/IMG_0002.CR2": fixture.JPEG(fixture.EXIF{When: shot, Comment: "raw half"}),
		"DCIM/IMG_0002.JPG": fixture.JPEG(fixture.EXIF{When: shot, Comment: "jpeg half"}),
		"DCIM/IMG_0003.JPG": jpeg(2021, "alone, another day"),
	}
	k.bytes, k.files = map[string]bool{}, map[string]string{}
	for rel, b := range files {
		write(t, filepath.Join(k.card, rel), b)
		k.bytes[string(b)] = true
		k.files[filepath.Join(k.card, rel)] = string(b)
	}
	k.before = contents(t, k.card)
	return k
}

// check runs the whole sequence after a killed sort.
func (k *killCase) check(when string) {
	t := k.t
	t.Helper()
	k.libraryHoldsOnlyWholeCopies(when + ", after the kill")
	k.noSourceLost(when)
	if err := runSort(fsx.OS, k.mode, k.card, k.dest); err != nil {
		t.Fatalf("%s: the re-run failed: %v", when, err)
	}
	k.libraryHoldsOnlyWholeCopies(when + ", after the re-run")
	k.everyFileSorted(when)
	killChild(t, "undo", crashEvents+":2", "", k.dest, k.mode) // may finish: fine
	if _, err := undo.Last(context.Background(), k.dest, undo.Options{}); err != nil && !errors.Is(err, undo.ErrNothingToUndo) {
		t.Fatalf("%s: undo after a killed undo: %v", when, err)
	}
	if _, err := undo.Last(context.Background(), k.dest, undo.Options{}); !errors.Is(err, undo.ErrNothingToUndo) {
		t.Errorf("%s: a further undo found more to do: %v", when, err)
	}
	assertContents(t, contents(t, k.card), k.before)
	if left := entries(t, k.dest); len(left) != 0 {
		t.Errorf("%s: after undo the library still holds %v", when, left)
	}
	if left := folders(t, k.dest); len(left) != 0 {
		t.Errorf("%s: after undo the library still has the folders %v", when, left)
	}
}

// libraryHoldsOnlyWholeCopies: every file in the library is a complete copy
// of a card file (or a link to one); a temp file may remain only right
// after a kill.
func (k *killCase) libraryHoldsOnlyWholeCopies(when string) {
	t := k.t
	t.Helper()
	for _, p := range entries(t, k.dest) {
		if strings.Contains(filepath.Base(p), ".shoebox-tmp-") {
			if strings.HasSuffix(when, "re-run") {
				t.Errorf("%s: temp %s left", when, p)
			}
			continue
		}
		b, err := os.ReadFile(p) // through a symlink: the card file it names
		if err != nil || !k.bytes[string(b)] {
			t.Errorf("%s: %s is not a whole copy of a card file (%d bytes, %v)", when, p, len(b), err)
		}
	}
}

// noSourceLost: every card file is still on the card or whole in the
// library.
func (k *killCase) noSourceLost(when string) {
	t := k.t
	t.Helper()
	inLib := map[string]bool{}
	for _, p := range photos(t, k.dest) {
		if b, err := os.ReadFile(p); err == nil {
			inLib[string(b)] = true
		}
	}
	for p, b := range k.files {
		if _, err := os.Lstat(p); err != nil && !inLib[b] {
			t.Errorf("%s: %s is neither on the card nor in the library", when, p)
		}
	}
}

// everyFileSorted: after the re-run each card file is in the library once
// (a sidecar whose photo had landed before the kill included), and a move
// emptied the card.
func (k *killCase) everyFileSorted(when string) {
	t := k.t
	t.Helper()
	seen := map[string]int{}
	for _, p := range entries(t, k.dest) {
		if b, err := os.ReadFile(p); err == nil {
			seen[string(b)]++
		}
	}
	for p, b := range k.files {
		// A re-run in symlink mode may still link a file a second time
		// (issue 11 item 9, another change): there, only "at least once".
		if n := seen[b]; n == 0 || (n > 1 && k.mode != transfer.Symlink) {
			t.Errorf("%s: after the re-run %s is in the library %d times", when, p, n)
		}
	}
	if left := entries(t, k.card); k.mode == transfer.Move && len(left) != 0 {
		t.Errorf("%s: after the re-run the move left %v on the card", when, left)
	}
}
