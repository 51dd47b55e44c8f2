package undo_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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

// sorted sorts n generated JPEGs from a fresh source tree into a fresh
// library and returns both folders.
func sorted(t *testing.T, n int, mode transfer.Mode) (src, dest string) {
	t.Helper()
	root := t.TempDir()
	src, dest = filepath.Join(root, "src"), filepath.Join(root, "lib")
	for i := 0; i < n; i++ {
		when := time.Date(2020, 1, 1+i, 12, 0, 0, 0, time.UTC)
		write(t, filepath.Join(src, "DCIM", "IMG_"+string(rune('a'+i))+".JPG"), fixture.JPEG(fixture.EXIF{When: when, Comment: when.String()}))
	}
	sortInto(t, mode, src, dest)
	return src, dest
}

func sortInto(t *testing.T, mode transfer.Mode, src, dest string) {
	t.Helper()
	tmpl, err := layout.Parse("{year}/{year}-{month}-{day}/{name}{ext}")
	if err != nil {
		t.Fatal(err)
	}
	run, err := pipeline.Open(pipeline.Config{Sources: []string{src}, Dest: dest, Template: tmpl, Mode: mode,
		Workers: 2, Dedup: true, VideoTZ: time.UTC, Args: []string{"sort", src, dest}})
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(run.All(context.Background()), run.Close()); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, p string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// photos lists the regular files under root, .shoebox excluded.
func photos(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == ".shoebox" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func TestUndoCopyRunThenNothingLeft(t *testing.T) {
	src, dest := sorted(t, 5, transfer.Copy)
	if len(photos(t, dest)) != 5 {
		t.Fatalf("library holds %v", photos(t, dest))
	}
	dry, err := undo.Last(context.Background(), dest, undo.Options{DryRun: true})
	if err != nil || dry.Reverted != 5 || len(photos(t, dest)) != 5 {
		t.Fatalf("dry run: %+v, %v; library %v", dry, err, photos(t, dest))
	}
	var lines []string
	st, err := undo.Last(context.Background(), dest, undo.Options{Events: func(s string) { lines = append(lines, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if st.Reverted != 5 || st.Kept != 0 || st.DirsRemoved == 0 {
		t.Errorf("stats %+v", st)
	}
	if left := photos(t, dest); len(left) != 0 {
		t.Errorf("library still holds %v", left)
	}
	if len(photos(t, src)) != 5 {
		t.Errorf("sources touched: %v", photos(t, src))
	}
	if !strings.Contains(strings.Join(lines, "\n"), "removed "+dest) {
		t.Errorf("no per-file report in %q", lines)
	}
	if _, err := undo.Last(context.Background(), dest, undo.Options{}); !errors.Is(err, undo.ErrNothingToUndo) {
		t.Errorf("second undo: %v, want ErrNothingToUndo", err)
	}
}

func TestUndoMoveRunPutsSourcesBack(t *testing.T) {
	src, dest := sorted(t, 4, transfer.Move)
	if len(photos(t, src)) != 0 {
		t.Fatalf("move left %v", photos(t, src))
	}
	st, err := undo.Last(context.Background(), dest, undo.Options{})
	if err != nil || st.Reverted != 4 {
		t.Fatalf("undo: %+v, %v", st, err)
	}
	if len(photos(t, src)) != 4 || len(photos(t, dest)) != 0 {
		t.Errorf("after undo: src %v, library %v", photos(t, src), photos(t, dest))
	}
}

func TestUndoLeavesChangedFile(t *testing.T) {
	_, dest := sorted(t, 3, transfer.Copy)
	edited := photos(t, dest)[0]
	write(t, edited, []byte("edited in place"))
	var lines []string
	st, err := undo.Last(context.Background(), dest, undo.Options{Events: func(s string) { lines = append(lines, s) }})
	if err != nil || st.Kept != 1 || st.Reverted != 2 {
		t.Fatalf("undo: %+v, %v", st, err)
	}
	if got := photos(t, dest); len(got) != 1 || got[0] != edited {
		t.Errorf("library holds %v, want only %s", got, edited)
	}
	if !strings.Contains(strings.Join(lines, "\n"), "changed since shoebox copied it: left in place") {
		t.Errorf("no reason given in %q", lines)
	}
}

// A failure halfway leaves the undo journal open; the next undo finishes
// the same run and counts what was already reverted.
func TestUndoResumesAfterFailure(t *testing.T) {
	_, dest := sorted(t, 4, transfer.Copy)
	victim := photos(t, dest)[0]
	faulty := fsx.NewFaults(fsx.OS).Add(fsx.Rule{Op: "remove", Path: victim, Err: syscall.EIO})
	before := fsxtest.OpenFiles()
	st, err := undo.Last(context.Background(), dest, undo.Options{FS: faulty})
	if err == nil || st.Failed != 1 || st.Reverted != 3 {
		t.Fatalf("faulty undo: %+v, %v; want 1 failed", st, err)
	}
	// The unfinished undo journal is released (on Windows a held handle
	// kept it from being removed while the process lived).
	if after := fsxtest.OpenFiles(); after != before {
		t.Errorf("the failed undo left %d files open (%d before, %d after)", after-before, before, after)
	}
	st, err = undo.Last(context.Background(), dest, undo.Options{})
	if err != nil || st.Reverted != 1 || st.Already != 3 {
		t.Fatalf("resumed undo: %+v, %v; want 1 reverted, 3 already", st, err)
	}
	if left := photos(t, dest); len(left) != 0 {
		t.Errorf("library still holds %v", left)
	}
}

func TestUndoRefusesWithoutJournal(t *testing.T) {
	_, err := undo.Last(context.Background(), t.TempDir(), undo.Options{})
	if !errors.Is(err, undo.ErrNoJournal) {
		t.Errorf("err = %v, want ErrNoJournal", err)
	}
}

func TestUndoRefusesDamagedJournal(t *testing.T) {
	_, dest := sorted(t, 2, transfer.Copy)
	dir := filepath.Join(dest, ".shoebox", "journal")
	names, _ := filepath.Glob(filepath.Join(dir, "*.journal"))
	data, err := os.ReadFile(names[0])
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff // mid-file damage, not a torn tail
	write(t, names[0], data)
	_, err = undo.Last(context.Background(), dest, undo.Options{})
	if err == nil || !strings.Contains(err.Error(), names[0]) || !strings.Contains(err.Error(), "at byte") {
		t.Errorf("err = %v, want the journal path and byte offset", err)
	}
	if len(photos(t, dest)) != 2 {
		t.Errorf("a refused undo changed the library")
	}
}

func TestUndoRefusesNewerFormat(t *testing.T) {
	_, dest := sorted(t, 1, transfer.Copy)
	names, _ := filepath.Glob(filepath.Join(dest, ".shoebox", "journal", "*.journal"))
	data, _ := os.ReadFile(names[0])
	data[len("SHOEBOX-JOURNAL")+1] = journal.FormatVersion + 1
	write(t, names[0], data)
	if _, err := undo.Last(context.Background(), dest, undo.Options{}); !errors.Is(err, journal.ErrVersion) {
		t.Errorf("err = %v, want ErrVersion", err)
	}
}
