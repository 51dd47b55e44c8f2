package pipeline

import (
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/importlog"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/transfer"
	"github.com/shoebox-photos/shoebox/internal/undo"
)

// A sort of the library's own folder with --mode move (files taken to
// another layout by hand) is not a new import: the history's landings
// follow the files, so check finds every file where it is, a re-run from
// the card still knows them, and undo takes them back with the files. A
// kill after the moves are durable and before the history follows leaves
// the landings at the old places: the next run moves them on from the
// killed run's journal.
const (
	envWithinKill       = "SHOEBOX_WITHIN_KILL_LIB"
	envWithinKillBackup = "SHOEBOX_WITHIN_KILL_BACKUP"
)

func TestWithinLibraryMoveKillChild(t *testing.T) {
	lib := os.Getenv(envWithinKill)
	if lib == "" {
		t.Skip("only runs as the child of TestHistoryFollowsFilesMovedWithinTheLibrary")
	}
	fsys := dieAt(func(p string) bool { return p == crashBeforeImports })
	withBackup := func(c *Config) { c.Backup = os.Getenv(envWithinKillBackup) }
	sortTree(t, []string{filepath.Join(lib, "2019")}, lib, moveToMonths(fsys), withBackup)
	t.Fatal("child survived the kill point")
}

func moveToMonths(fsys fsx.FS) opts {
	return func(c *Config) {
		tmpl, err := layout.Parse("{year}/{month}/{name}{ext}")
		if err != nil {
			panic(err)
		}
		c.Template, c.Mode, c.FS = tmpl, transfer.Move, fsys
	}
}

func TestHistoryFollowsFilesMovedWithinTheLibrary(t *testing.T) {
	for _, killed := range []bool{false, true} {
		name := "whole"
		if killed {
			name = "killed-before-the-history"
		}
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			const n = 12
			src, _ := cardOf(t, root, n, 10)
			lib := filepath.Join(root, "lib")
			if sum, _ := sortTree(t, []string{src}, lib); sum.Transferred != n {
				t.Fatalf("first import: %+v", sum)
			}
			if killed {
				runDyingChild(t, "TestWithinLibraryMoveKillChild", envWithinKill+"="+lib)
				// The next run (any sort into the library) finishes the job.
				sortTree(t, []string{src}, lib)
			} else {
				sortTree(t, []string{filepath.Join(lib, "2019")}, lib, moveToMonths(fsx.OS))
			}
			landingsAreWhereTheFilesAre(t, lib, n)
			if sum, _ := sortTree(t, []string{src}, lib); sum.ImportedBefore != 0 || sum.Transferred != 0 || sum.Identical+sum.Recalled == 0 {
				t.Errorf("re-run from the card: %+v; want every file already in the library", sum)
			}
			if _, err := undo.Last(t.Context(), lib, undo.Options{}); err != nil && !killed {
				t.Fatal(err)
			}
			if !killed { // the move undone: every landing is back with its file
				landingsAreWhereTheFilesAre(t, lib, n)
			}
		})
	}
}

// landingsAreWhereTheFilesAre fails the test unless the history names
// exactly the library's n files, each where it is.
func landingsAreWhereTheFilesAre(t *testing.T, lib string, n int) {
	t.Helper()
	l, err := importlog.OpenForReading(StateDir(lib))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	named := map[string]bool{}
	err = l.EachPath(func(e importlog.Entry) error {
		named[e.Path] = true
		if _, err := os.Lstat(e.LibraryPath(lib)); err != nil {
			t.Errorf("the history names %s (from %s), which is not there: %v", e.Path, e.Src, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	files := snapshot(t, lib)
	for p := range files {
		if !named[p] {
			t.Errorf("%s is in the library but the history does not name it (check would call it a stray)", p)
		}
	}
	if len(files) != n {
		t.Errorf("library holds %d files, want %d", len(files), n)
	}
}

// With a backup, the second copies follow the files moved within the
// library: each is written at the file's new place and the one at its old
// place goes (the backup mirrors the library, not two layouts of it), and
// undo puts back both. Killed after the moves and before the history and
// the backup follow, the next sort with the backup finishes both, as a
// recovery of the killed run: its undo puts the old layout back in both.
func TestBackupFollowsFilesMovedWithinTheLibrary(t *testing.T) {
	for _, killed := range []bool{false, true} {
		name := "whole"
		if killed {
			name = "killed-before-the-history"
		}
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			const n = 12
			src, _ := cardOf(t, root, n, 10)
			lib, bak := filepath.Join(root, "lib"), filepath.Join(root, "bak")
			if err := os.Mkdir(bak, 0o755); err != nil {
				t.Fatal(err)
			}
			withBackup := func(c *Config) { c.Backup = bak }
			if sum, _ := sortTree(t, []string{src}, lib, withBackup); sum.Transferred != n || sum.BackupCopies != n {
				t.Fatalf("first import: %+v", sum)
			}
			before := snapshot(t, lib)
			if killed {
				runDyingChild(t, "TestWithinLibraryMoveKillChild", envWithinKill+"="+lib, envWithinKillBackup+"="+bak)
				if got := snapshot(t, bak); len(got) == n {
					t.Fatal("the kill left no old backup copy to finish with: the test tests nothing")
				}
				sortTree(t, []string{src}, lib, withBackup) // any sort with the backup finishes the job
			} else {
				sum, _ := sortTree(t, []string{filepath.Join(lib, "2019")}, lib, moveToMonths(fsx.OS), withBackup)
				if sum.OldBackupsRemoved != 4 {
					t.Errorf("the summary counts %d old backup copies removed, want 4", sum.OldBackupsRemoved)
				}
			}
			moved := snapshot(t, lib)
			if len(moved) != n || maps.Equal(moved, before) {
				t.Fatalf("the move within the library did not happen: %v", moved)
			}
			if got := snapshot(t, bak); !maps.Equal(got, moved) {
				t.Errorf("the backup does not mirror the library after the move:\nlibrary %v\nbackup  %v", keys(moved), keys(got))
			}
			// The sort that finished a killed run imported nothing: undo
			// passes over it to the move.
			if _, err := undo.Last(t.Context(), lib, undo.Options{}); err != nil {
				t.Fatal(err)
			}
			if got := snapshot(t, lib); !maps.Equal(got, before) {
				t.Errorf("undo did not put the library back: %v", keys(got))
			}
			if got := snapshot(t, bak); !maps.Equal(got, before) {
				t.Errorf("undo did not put the backup back:\nwant %v\ngot  %v", keys(before), keys(got))
			}
		})
	}
}

// Undo never leaves the backup holding fewer files than the library:
// after a move within the library (with its own, second backup folder)
// and its undo, the library's copies are new files (a move with a backup
// copies), so an undo of the first import leaves them in place as changed
// since; their copies in the first backup, untouched, stay too.
func TestUndoKeepsTheBackupCopyOfALibraryCopyItLeaves(t *testing.T) {
	root := t.TempDir()
	const n = 12
	src, _ := cardOf(t, root, n, 10)
	lib, bak, bak2 := filepath.Join(root, "lib"), filepath.Join(root, "bak"), filepath.Join(root, "bak2")
	for _, d := range []string{bak, bak2} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sortTree(t, []string{src}, lib, func(c *Config) { c.Backup = bak })
	sortTree(t, []string{filepath.Join(lib, "2019")}, lib, moveToMonths(fsx.OS), func(c *Config) { c.Backup = bak2 })
	for range 2 { // the move, then the first import
		if _, err := undo.Last(t.Context(), lib, undo.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	inLib, inBak := snapshot(t, lib), snapshot(t, bak)
	if len(inLib) == 0 {
		t.Fatal("the undo of the import removed every library copy: the test tests nothing")
	}
	for p, b := range inLib {
		if inBak[p] != b {
			t.Errorf("%s stays in the library, but its backup copy was removed", p)
		}
	}
}
