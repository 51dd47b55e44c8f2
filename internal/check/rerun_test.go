package check_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/check"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/recovery"
	"github.com/shoebox-photos/shoebox/internal/store"
	"github.com/shoebox-photos/shoebox/internal/undo"
)

// corruptThenRerun is a backed-up library whose IMG_2.JPG was corrupted
// (size and mtime kept) and sorted again from the same card: the re-run
// lands the card's photo anew beside it as IMG_2-1.JPG, so the history's
// newest record of that source names the new file.
func corruptThenRerun(t *testing.T) (lib, bak, corrupt string) {
	t.Helper()
	lib, bak = backedUp(t)
	corrupt = find(t, lib, "IMG_2.JPG")
	flipByte(t, corrupt)
	shoebox(t, "sort", "--backup", bak, filepath.Join(filepath.Dir(lib), "src"), lib)
	find(t, lib, "IMG_2-1.JPG")
	return lib, bak, corrupt
}

func strays(ps []check.Problem) []check.Problem {
	var s []check.Problem
	for _, p := range ps {
		if p.Kind == check.Stray {
			s = append(s, p)
		}
	}
	return s
}

// A file the first run landed stays known after a re-run lands its source
// again elsewhere: its corruption is found, not hidden as a stray.
func TestARerunDoesNotHideWhatTheFirstRunLanded(t *testing.T) {
	lib, bak, _ := corruptThenRerun(t)
	st, ps := run(t, check.Options{Library: lib, Backup: bak, ReadData: true})
	if !has(ps, check.Corrupt, "IMG_2.JPG", check.InLibrary) || st.Problems() != 1 {
		t.Errorf("want IMG_2.JPG corrupt, the one problem; got %d: %+v", st.Problems(), ps)
	}
	if s := strays(ps); len(s) != 0 {
		t.Errorf("files shoebox landed called strays: %+v", s)
	}
	// Without a backup too, and without reading: known, as it stats.
	if _, ps := run(t, check.Options{Library: lib}); len(strays(ps)) != 0 || len(ps) != 0 {
		t.Errorf("a stat-only check: %+v", ps)
	}
}

// --repair restores the corrupt file from its intact backup copy, and
// leaves nothing a problem or a stray.
func TestRepairAfterARerunRestoresTheFirstLanding(t *testing.T) {
	lib, bak, corrupt := corruptThenRerun(t)
	st, ps, rs := repair(t, check.Options{Library: lib, Backup: bak, ReadData: true})
	if !repaired(rs, "IMG_2.JPG", check.InLibrary) || st.Problems() != 0 || len(strays(ps)) != 0 {
		t.Fatalf("repair: %d problems, %+v, %+v", st.Problems(), ps, rs)
	}
	if !slices.Equal(read(t, corrupt), read(t, filepath.Join(bak, must(filepath.Rel(lib, corrupt))))) {
		t.Error("the library copy is not the backup's")
	}
	if st, ps := run(t, check.Options{Library: lib, Backup: bak, ReadData: true}); st.Problems() != 0 || len(ps) != 0 {
		t.Errorf("after repair: %+v", ps)
	}
}

// Undoing the re-run leaves the first run's file known (and corrupt).
// The first run cannot be undone past the re-run, whose IMG_2-1.JPG is
// named after its file; once both are undone, nothing is known.
func TestUndoOfEitherRunKeepsTheOtherKnown(t *testing.T) {
	lib, bak, corrupt := corruptThenRerun(t)
	first := firstRun(t, lib)
	_, err := undo.Named(context.Background(), lib, first, undo.Options{})
	if !errors.Is(err, undo.ErrLaterRunDepends) {
		t.Fatalf("undo of the first run past the re-run: %v", err)
	}
	if _, ps := run(t, check.Options{Library: lib, Backup: bak, ReadData: true}); !has(ps, check.Corrupt, "IMG_2.JPG", check.InLibrary) || len(strays(ps)) != 0 {
		t.Errorf("after a refused undo: %+v", ps)
	}
	if _, err := undo.Last(context.Background(), lib, undo.Options{}); err != nil {
		t.Fatal(err)
	}
	_, ps := run(t, check.Options{Library: lib, Backup: bak, ReadData: true})
	if !has(ps, check.Corrupt, "IMG_2.JPG", check.InLibrary) || len(strays(ps)) != 0 {
		t.Errorf("after undo of the re-run: %+v", ps)
	}
	if _, err := undo.Named(context.Background(), lib, first, undo.Options{}); err != nil {
		t.Fatal(err)
	}
	_, ps = run(t, check.Options{Library: lib, Backup: bak, ReadData: true})
	for _, p := range ps {
		if p.Kind != check.Stray {
			t.Errorf("after undo of both runs, a problem: %+v", p)
		}
	}
	if _, err := os.Stat(corrupt); err == nil && !has(ps, check.Stray, "IMG_2.JPG", check.InLibrary) {
		t.Errorf("a file left by an undone run is not called a stray: %+v", ps)
	}
}

// firstRun is the id of the oldest run into lib (ids started in the same
// second do not sort by time).
func firstRun(t *testing.T, lib string) string {
	t.Helper()
	runs, err := journal.List(recovery.JournalDir(lib))
	if err != nil || len(runs) == 0 {
		t.Fatalf("runs: %+v, %v", runs, err)
	}
	first := slices.MinFunc(runs, func(a, b journal.Summary) int { return a.Header.Started.Compare(b.Header.Started) })
	return first.Header.RunID
}

func must(s string, err error) string {
	if err != nil {
		panic(err)
	}
	return s
}

// A library whose history an older shoebox wrote (path records without
// their entry) is brought up to date by the re-run, source by source: the
// corrupt first copy stays known there too.
func TestARerunKeepsALandingAnOlderHistoryRecorded(t *testing.T) {
	lib, bak := backedUp(t)
	emptyPathRecords(t, lib)
	flipByte(t, find(t, lib, "IMG_2.JPG"))
	shoebox(t, "sort", "--backup", bak, filepath.Join(filepath.Dir(lib), "src"), lib)
	find(t, lib, "IMG_2-1.JPG")
	_, ps := run(t, check.Options{Library: lib, Backup: bak, ReadData: true})
	if !has(ps, check.Corrupt, "IMG_2.JPG", check.InLibrary) || len(strays(ps)) != 0 {
		t.Errorf("after a re-run over an older history: %+v", ps)
	}
}

// emptyPathRecords makes lib's import history as a shoebox that kept no
// entry in its path records (p/) wrote it.
func emptyPathRecords(t *testing.T, lib string) {
	t.Helper()
	st, err := store.Open(filepath.Join(lib, ".shoebox", "imports"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	w := st.Writer(0)
	err = st.Scan([]byte("p/"), func(k, _ []byte) error { return w.Put(k, nil) })
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		t.Fatal(err)
	}
}
