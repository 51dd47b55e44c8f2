package undo_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/transfer"
	"github.com/shoebox-photos/shoebox/internal/undo"
)

// contents maps every regular file under root to its bytes and mtime.
func contents(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, p := range photos(t, root) {
		b, err := os.ReadFile(p)
		fi, statErr := os.Lstat(p)
		if err != nil || statErr != nil {
			t.Fatal(errors.Join(err, statErr))
		}
		out[p] = fi.ModTime().String() + " " + string(b)
	}
	return out
}

// TestUndoRestoresRemovedDuplicates: a move with --delete-duplicates empties
// the sources; undo puts every file back, duplicates included, byte for byte
// and with their own mtimes, and leaves the library as it was before.
func TestUndoRestoresRemovedDuplicates(t *testing.T) {
	root := t.TempDir()
	src, dest := filepath.Join(root, "card"), filepath.Join(root, "lib")
	same := fixture.JPEG(fixture.EXIF{When: time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC), Comment: "same"})
	inLib := fixture.JPEG(fixture.EXIF{When: time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC), Comment: "in library"})
	for i, p := range []string{"DCIM/IMG_1.JPG", "backup/IMG_1 copy.JPG", "other/IMG_1.JPG"} {
		write(t, filepath.Join(src, p), same)
		old := time.Date(2022, 1, 1+i, 0, 0, 0, 0, time.UTC)
		os.Chtimes(filepath.Join(src, p), old, old)
	}
	write(t, filepath.Join(src, "old/IMG_9.JPG"), inLib)
	write(t, filepath.Join(dest, "2020/2020-01-02/IMG_9.JPG"), inLib)
	srcBefore, libBefore := contents(t, src), contents(t, dest)

	sortDeletingDuplicates(t, src, dest)
	if left := photos(t, src); len(left) != 0 {
		t.Fatalf("the move left %v in the source", left)
	}

	// Four reversals: the kept copy moved back and three duplicates restored.
	dry, err := undo.Last(context.Background(), dest, undo.Options{DryRun: true})
	if err != nil || dry.Reverted != 4 || len(photos(t, src)) != 0 {
		t.Fatalf("dry run: %+v, %v; source %v", dry, err, photos(t, src))
	}
	var lines []string
	st, err := undo.Last(context.Background(), dest, undo.Options{Events: func(s string) { lines = append(lines, s) }})
	if err != nil || st.Reverted != 4 || st.Kept != 0 || st.Failed != 0 {
		t.Fatalf("undo: %+v, %v", st, err)
	}
	assertContents(t, contents(t, src), srcBefore)
	assertContents(t, contents(t, dest), libBefore)
	if !strings.Contains(strings.Join(lines, "\n"), "restored duplicate "+filepath.Join(src, "old/IMG_9.JPG")) {
		t.Errorf("no per-file report of the restored duplicate in %q", lines)
	}
}

func sortDeletingDuplicates(t *testing.T, src, dest string) {
	t.Helper()
	tmpl, err := layout.Parse("{year}/{year}-{month}-{day}/{name}{ext}")
	if err != nil {
		t.Fatal(err)
	}
	run, err := pipeline.Open(pipeline.Config{Sources: []string{src}, Dest: dest, Template: tmpl, Mode: transfer.Move,
		Workers: 2, Dedup: true, DeleteDuplicates: true, VideoTZ: time.UTC, Args: []string{"sort", "--delete-duplicates", src, dest}})
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(run.All(context.Background()), run.Close()); err != nil {
		t.Fatal(err)
	}
	if n := run.Summary().DuplicatesRemoved; n != 3 {
		t.Fatalf("removed %d duplicates, want 3", n)
	}
}

func assertContents(t *testing.T, got, want map[string]string) {
	t.Helper()
	for p, w := range want {
		if g, ok := got[p]; !ok {
			t.Errorf("%s is missing", p)
		} else if g != w {
			t.Errorf("%s differs from before the run", p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s was not there before the run", p)
		}
	}
}
