package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// undo RUN-ID takes a unique prefix of the id (git's and docker's habit);
// an id that names no run is an error of its own, exit 1, that says where
// the ids are listed; an ambiguous prefix says which runs it matches.
func TestUndoRunIDPrefix(t *testing.T) {
	root := t.TempDir()
	lib := filepath.Join(root, "lib")
	writeShots(t, filepath.Join(root, "card1"), "A", 1)
	writeShots(t, filepath.Join(root, "card2"), "B", 1)
	for _, c := range []string{"card1", "card2"} {
		if r := shoebox("sort", "-q", filepath.Join(root, c), lib); r.code != 0 {
			t.Fatal(r)
		}
	}
	_, ids := logRuns(t, lib)
	if len(ids) != 2 {
		t.Fatalf("%d runs logged, want 2", len(ids))
	}

	// Both ids begin with the same date: that prefix is ambiguous.
	r := shoebox("undo", lib, ids[0][:8])
	if r.code != ExitFatal || !strings.Contains(r.stderr, ids[0]) || !strings.Contains(r.stderr, ids[1]) {
		t.Errorf("an ambiguous prefix: want exit 1 naming both runs: %s", r)
	}
	if libraryPhotos(t, lib) != 2 {
		t.Fatalf("an ambiguous prefix changed the library")
	}

	// The first run's own part of the id is unique: it is undone.
	unique := ids[0][:len("20060102T150405Z-")+4]
	r = shoebox("undo", lib, unique)
	if r.code != 0 || !strings.Contains(r.stdout, ids[0]) {
		t.Fatalf("undo by the unique prefix %s: %s", unique, r)
	}
	if _, err := os.Stat(filepath.Join(lib, "2021", "2021-03-01", "A_0.JPG")); !os.IsNotExist(err) {
		t.Errorf("the first run's photo is still there: %v", err)
	}
	if libraryPhotos(t, lib) != 1 {
		t.Errorf("undo by prefix reversed the wrong run")
	}

	// An id that names no run: exit 1 (not a usage error), and where to look.
	for _, id := range []string{"20200101T0000", "20200101T000000Z-0123456789abcdef"} {
		r = shoebox("undo", lib, id)
		want := "no run " + id + " in " + `"` + lib + `"` + `; shoebox log "` + lib + `" lists them`
		if r.code != ExitFatal || !strings.Contains(r.stderr, want) {
			t.Errorf("undo of an unknown run %s: want exit 1 and %q: %s", id, want, r)
		}
	}
}

// The dry run says what it would undo, never that it undid; -q prints
// nothing but problems, as on sort.
func TestUndoDryRunWordsAndQuiet(t *testing.T) {
	root := t.TempDir()
	lib := filepath.Join(root, "lib")
	writeShots(t, filepath.Join(root, "card"), "IMG", 2)
	if r := shoebox("sort", "-q", filepath.Join(root, "card"), lib); r.code != 0 {
		t.Fatal(r)
	}
	r := shoebox("undo", "--dry-run", lib)
	if r.code != 0 || !strings.Contains(r.stdout, "would undo run") || strings.Contains(r.stdout, "undid") {
		t.Errorf("undo --dry-run: want 'would undo run', never 'undid': %s", r)
	}
	r = shoebox("undo", "-q", lib)
	if r.code != 0 || r.stdout != "" || r.stderr != "" {
		t.Errorf("undo -q: want exit 0 and silence: %s", r)
	}
	if libraryPhotos(t, lib) != 0 {
		t.Errorf("undo -q did not undo")
	}
	r = shoebox("undo", "--quiet", lib)
	if r.code != ExitFatal || r.stdout != "" || !strings.Contains(r.stderr, "nothing to undo") {
		t.Errorf("undo --quiet with nothing to undo: want exit 1 and the error on stderr: %s", r)
	}
}

// undo of a --backup run whose backup folder cannot be reached (here it
// was renamed away, as a drive unplugged leaves its mount point empty)
// names the copies it could not reach, exits non-zero and leaves the run
// to be finished: once the folder is back, undo again removes them.
func TestUndoBackupUnreachable(t *testing.T) {
	root := t.TempDir()
	cardDir, lib, bak := filepath.Join(root, "card"), filepath.Join(root, "lib"), filepath.Join(root, "bak")
	writeShots(t, cardDir, "IMG", 3)
	if err := os.Mkdir(bak, 0o755); err != nil {
		t.Fatal(err)
	}
	if r := shoebox("sort", "-q", "--backup", bak, cardDir, lib); r.code != 0 {
		t.Fatal(r)
	}
	if n := libraryPhotos(t, bak); n != 3 {
		t.Fatalf("%d backup copies, want 3", n)
	}
	undoWithBackupAway(t, lib, bak, func() { mustRename(t, bak, bak+".away") }, func() { mustRename(t, bak+".away", bak) })
}

// undoWithBackupAway checks undo with the backup made unreachable by away
// and reachable again by back.
func undoWithBackupAway(t *testing.T, lib, bak string, away, back func()) {
	t.Helper()
	away()
	r := shoebox("undo", lib)
	if r.code == 0 {
		t.Errorf("undo with the backup away exited 0: %s", r)
	}
	out := r.stdout + r.stderr
	if strings.Contains(out, "already reverted") {
		t.Errorf("undo calls copies it could not reach already reverted: %s", r)
	}
	if !strings.Contains(out, "could not reach") || !strings.Contains(out, filepath.Join(bak, "2021", "2021-03-01", "IMG_0.JPG")) {
		t.Errorf("undo does not name the backup copies it could not reach: %s", r)
	}
	runs, ids := logRuns(t, lib)
	if runs[ids[0]]["state"] != "partially undone" {
		t.Errorf("log: the run is %v, want partially undone", runs[ids[0]]["state"])
	}
	back()
	r = shoebox("undo", lib)
	if r.code != 0 || strings.Contains(r.stderr, "nothing to undo") {
		t.Fatalf("undo once the backup is back: %s", r)
	}
	if n := libraryPhotos(t, bak); n != 0 {
		t.Errorf("%d backup copies are left after the second undo", n)
	}
	if n := libraryPhotos(t, lib); n != 0 {
		t.Errorf("%d library copies are left after the second undo", n)
	}
	runs, _ = logRuns(t, lib)
	if runs[ids[0]]["state"] != "undone" {
		t.Errorf("log: the run is %v, want undone", runs[ids[0]]["state"])
	}
}

func mustRename(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}
