package relayout_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/relayout"
	"github.com/shoebox-photos/shoebox/internal/undo"
)

const (
	envKillAt  = "SHOEBOX_RELAYOUT_KILL_AT"
	envKillLib = "SHOEBOX_RELAYOUT_KILL_LIB"
	envKillBak = "SHOEBOX_RELAYOUT_KILL_BACKUP"
)

// TestRelayoutKillChild is the child: it relayouts and dies (exit 137, as
// a kill -9 leaves it) at the Nth crash point of the executor's protocol.
func TestRelayoutKillChild(t *testing.T) {
	at, _ := strconv.Atoi(os.Getenv(envKillAt))
	if at == 0 {
		t.Skip("only runs as the child of TestRelayoutKilledAnywhereIsFinishedByRunningItAgain")
	}
	fsys := fsx.NewFaults(fsx.OS)
	n := 0
	fsys.OnCrashPoint(func(string) {
		if n++; n == at {
			os.Exit(137)
		}
	})
	opt := options(t, os.Getenv(envKillLib), byDay, byMonth)
	opt.FS, opt.Backup = fsys, os.Getenv(envKillBak)
	if _, err := relayout.Run(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	os.Exit(0) // survived every crash point: the parent stops there
}

// A relayout killed at any step leaves every file in its old place or its
// new one (never lost, never both); running it again finishes it: the
// library is then the new layout, the history names every file where it
// is, check finds it intact, the new template is recorded; and undo puts
// the old layout back (the killed run and its finishing one together).
func TestRelayoutKilledAnywhereIsFinishedByRunningItAgain(t *testing.T) {
	if fsxtest.UnderWine() {
		t.Skip("kills child processes: under Wine a killed child is sometimes never reported ended (docs/platforms.md); it runs on Linux")
	}
	for at := 1; at < 200; at++ {
		lib := library(t)
		before := tree(t, lib)
		if !killedAt(t, at, 6, lib, "") {
			return // every crash point was tried
		}
		t.Run(fmt.Sprint("killed at ", at), func(t *testing.T) {
			oldOrNew(t, lib, before)
			if _, err := relayout.Run(context.Background(), options(t, lib, byDay, byMonth)); err != nil {
				t.Fatalf("the run after the kill: %v", err)
			}
			if got := names(tree(t, lib)); strings.Join(got, " ") != strings.Join(wantByMonth, " ") {
				t.Fatalf("after the re-run: %v, want %v", got, wantByMonth)
			}
			if got := historyPaths(t, lib); strings.Join(got, " ") != strings.Join(wantByMonth, " ") {
				t.Errorf("history after the re-run: %v", got)
			}
			if recorded(t, lib) != byMonth {
				t.Error("template not recorded after the re-run")
			}
			intact(t, lib)
			if _, err := undo.Last(context.Background(), lib, undo.Options{}); err != nil {
				t.Fatalf("undo: %v", err)
			}
			if got := names(tree(t, lib)); strings.Join(got, " ") != strings.Join(names(before), " ") {
				t.Errorf("after undo: %v, want %v", got, names(before))
			}
			if recorded(t, lib) != byDay {
				t.Error("undo did not record the old template again")
			}
		})
	}
	t.Fatal("the child never survived: more crash points than expected")
}

// killedAt runs TestRelayoutKillChild, relayouting lib (with the backup
// folder bak, "" for none), to die at its at-th crash point, and reports
// whether it did; false means it survived every point from at on, which
// fails the test when fewer than least points came before.
func killedAt(t *testing.T, at, least int, lib, bak string) bool {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestRelayoutKillChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), envKillAt+"="+strconv.Itoa(at), envKillLib+"="+lib, envKillBak+"="+bak)
	out, err := cmd.CombinedOutput()
	switch {
	case err == nil && at < least:
		t.Fatalf("the child survived from crash point %d on: too few points\n%s", at, out)
	case err == nil:
		return false
	case cmd.ProcessState.ExitCode() != 137:
		t.Fatalf("kill at %d: child failed: %v\n%s", at, err, out)
	}
	return true
}

// oldOrNew checks that every file of before is, whole, at its old place or
// at one of the new layout's, exactly once, and that nothing else is there.
func oldOrNew(t *testing.T, lib string, before map[string]string) {
	t.Helper()
	now := tree(t, lib)
	seen := map[string]int{}
	for p, b := range now {
		if strings.Contains(p, layout.TempMarker) {
			t.Errorf("temp file left: %s", p)
			continue
		}
		seen[b]++
	}
	for p, b := range before {
		if seen[b] != 1 {
			t.Errorf("%s is there %d times after the kill", p, seen[b])
		}
	}
	if len(now) != len(before) {
		t.Errorf("%d files after the kill, %d before: %v", len(now), len(before), names(now))
	}
}

// The same with a backup folder: a kill at any step, in the library's
// moves or the backup's, leaves every file and every backup copy in its
// old place or its new one; the relayout run again moves what is left of
// both (the backup copies the killed run had not moved too), and undo
// puts both layouts back.
func TestRelayoutWithABackupKilledAnywhereIsFinishedByRunningItAgain(t *testing.T) {
	if fsxtest.UnderWine() {
		t.Skip("kills child processes: under Wine a killed child is sometimes never reported ended (docs/platforms.md); it runs on Linux")
	}
	for at := 1; at < 300; at++ {
		lib, bak := libraryWithBackup(t)
		before := tree(t, lib)
		if !killedAt(t, at, 12, lib, bak) {
			return // every crash point was tried
		}
		t.Run(fmt.Sprint("killed at ", at), func(t *testing.T) {
			oldOrNew(t, lib, before)
			oldOrNew(t, bak, before)
			opt := options(t, lib, byDay, byMonth)
			opt.Backup = bak
			if _, err := relayout.Run(context.Background(), opt); err != nil {
				t.Fatalf("the run after the kill: %v", err)
			}
			for what, dir := range map[string]string{"library": lib, "backup": bak} {
				if got := names(tree(t, dir)); strings.Join(got, " ") != strings.Join(wantBackupByMonth, " ") {
					t.Errorf("%s after the re-run: %v, want %v", what, got, wantBackupByMonth)
				}
			}
			intact(t, lib)
			if _, err := undo.Last(context.Background(), lib, undo.Options{}); err != nil {
				t.Fatalf("undo: %v", err)
			}
			for what, dir := range map[string]string{"library": lib, "backup": bak} {
				if got := names(tree(t, dir)); strings.Join(got, " ") != strings.Join(names(before), " ") {
					t.Errorf("%s after undo: %v, want %v", what, got, names(before))
				}
			}
		})
	}
	t.Fatal("the child never survived: more crash points than expected")
}

// Killed at any step and followed by a sort with the backup (not the
// relayout again): the sort finishes the backup's side of what the killed
// relayout did, so the backup mirrors the library, half moved as it is;
// the relayout run again then finishes both.
func TestRelayoutKilledThenASortWithTheBackupMovesItsCopies(t *testing.T) {
	if fsxtest.UnderWine() {
		t.Skip("kills child processes: under Wine a killed child is sometimes never reported ended (docs/platforms.md); it runs on Linux")
	}
	for at := 1; at < 300; at++ {
		lib, bak := libraryWithBackup(t)
		if !killedAt(t, at, 12, lib, bak) {
			return // every crash point was tried
		}
		t.Run(fmt.Sprint("killed at ", at), func(t *testing.T) {
			card := t.TempDir()
			shoebox(t, "sort", "-q", "--backup", bak, card, lib)
			if got, want := tree(t, bak), tree(t, lib); !maps.Equal(got, want) {
				t.Errorf("after the sort, the backup does not mirror the library:\nlibrary %v\nbackup  %v", names(want), names(got))
			}
			opt := options(t, lib, byDay, byMonth)
			opt.Backup = bak
			if _, err := relayout.Run(context.Background(), opt); err != nil {
				t.Fatalf("the relayout after the sort: %v", err)
			}
			if got, want := tree(t, bak), tree(t, lib); !maps.Equal(got, want) || len(got) != len(wantBackupByMonth) {
				t.Errorf("after the relayout, the backup does not mirror the library:\nlibrary %v\nbackup  %v", names(want), names(got))
			}
		})
	}
	t.Fatal("the child never survived: more crash points than expected")
}
