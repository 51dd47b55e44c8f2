package undo_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/transfer"
	"github.com/shoebox-photos/shoebox/internal/undo"
)

// runIDs lists the sort runs of a library, oldest first.
func runIDs(t *testing.T, dest string) []string {
	t.Helper()
	sums, err := journal.List(filepath.Join(dest, ".shoebox", "journal"))
	if err != nil {
		t.Fatal(err)
	}
	// Ids sort by the second only: order by the start time, as undo does.
	slices.SortStableFunc(sums, func(a, b journal.Summary) int { return a.Header.Started.Compare(b.Header.Started) })
	var ids []string
	for _, s := range sums {
		if len(s.Header.Args) > 0 && s.Header.Args[0] == "sort" {
			ids = append(ids, s.Header.RunID)
		}
	}
	if len(ids) == 0 {
		t.Fatal("no sort run recorded")
	}
	return ids
}

// sortWith is sortInto with a template and mode of the test's choosing.
func sortWith(t *testing.T, template string, mode transfer.Mode, deleteDups bool, src, dest string) {
	t.Helper()
	tmpl, err := layout.Parse(template)
	if err != nil {
		t.Fatal(err)
	}
	run, err := pipeline.Open(pipeline.Config{Sources: []string{src}, Dest: dest, Template: tmpl, Mode: mode,
		Workers: 2, Dedup: true, DeleteDuplicates: deleteDups, VideoTZ: time.UTC, UnknownDir: "unknown",
		Args: []string{"sort", template, src, dest}})
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(run.All(context.Background()), run.Close()); err != nil {
		t.Fatal(err)
	}
}

func exists(p string) bool { _, err := os.Lstat(p); return err == nil }

// An older run that no later run touched is undone by its id; the later
// run's files stay, and the next plain undo reverses that later run.
func TestNamedUndoOfAnIndependentOlderRun(t *testing.T) {
	root := t.TempDir()
	dest := filepath.Join(root, "lib")
	card1, card2 := filepath.Join(root, "card1"), filepath.Join(root, "card2")
	write(t, filepath.Join(card1, "IMG_1.JPG"), jpeg(2019, "one"))
	write(t, filepath.Join(card2, "IMG_2.JPG"), jpeg(2020, "two"))
	sortInto(t, transfer.Copy, card1, dest)
	sortInto(t, transfer.Copy, card2, dest)
	ids := runIDs(t, dest)
	older := filepath.Join(dest, "2019", "2019-05-06", "IMG_1.JPG")
	later := filepath.Join(dest, "2020", "2020-05-06", "IMG_2.JPG")

	st, err := undo.Named(context.Background(), dest, ids[0], undo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Runs) != 1 || st.Runs[0] != ids[0] || st.Reverted != 1 {
		t.Errorf("undo of the older run: %+v", st)
	}
	if exists(older) || !exists(later) {
		t.Errorf("after undo of the older run: its file there %v (want gone), the later one %v (want kept)", exists(older), exists(later))
	}
	if _, err := undo.Named(context.Background(), dest, ids[0], undo.Options{}); !errors.Is(err, undo.ErrAlreadyUndone) {
		t.Errorf("second undo of the same run: %v, want ErrAlreadyUndone", err)
	}
	st, err = undo.Last(context.Background(), dest, undo.Options{})
	if err != nil || len(st.Runs) != 1 || st.Runs[0] != ids[1] || st.Reverted != 1 {
		t.Fatalf("plain undo after it: %+v, %v; want the later run", st, err)
	}
	if left := photos(t, dest); len(left) != 0 {
		t.Errorf("library still holds %v", left)
	}
	if _, err := undo.Named(context.Background(), dest, "20200101T000000Z-0123456789abcdef", undo.Options{}); !errors.Is(err, undo.ErrUnknownRun) {
		t.Errorf("unknown id: %v, want ErrUnknownRun", err)
	}
}

// An older run that a later run built on is refused, nothing changed,
// the later run named; once the later run is undone, the older one goes.
func TestNamedUndoRefusedWhileALaterRunDependsOnIt(t *testing.T) {
	const tmpl = "{year}/{year}-{month}-{day}/{name}{ext}"
	for _, tc := range []struct {
		name  string
		later func(t *testing.T, root, dest string)
	}{
		{"later file renamed -1 because of it", func(t *testing.T, root, dest string) {
			card := filepath.Join(root, "card2")
			write(t, filepath.Join(card, "IMG_1.JPG"), jpeg(2019, "another picture, same name"))
			sortWith(t, tmpl, transfer.Copy, false, card, dest)
		}},
		{"later move took its file from the library", func(t *testing.T, root, dest string) {
			sortWith(t, "moved/{name}{ext}", transfer.Move, false, filepath.Join(dest, "2019"), dest)
		}},
		{"later run removed a duplicate because its copy was kept", func(t *testing.T, root, dest string) {
			card := filepath.Join(root, "card2")
			write(t, filepath.Join(card, "copy-of-IMG_1.JPG"), jpeg(2019, "one"))
			sortWith(t, tmpl, transfer.Move, true, card, dest)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			dest := filepath.Join(root, "lib")
			card1 := filepath.Join(root, "card1")
			write(t, filepath.Join(card1, "IMG_1.JPG"), jpeg(2019, "one"))
			sortInto(t, transfer.Copy, card1, dest)
			tc.later(t, root, dest)
			ids := runIDs(t, dest)
			if len(ids) != 2 {
				t.Fatalf("want 2 runs, have %v", ids)
			}
			before := photos(t, dest)

			_, err := undo.Named(context.Background(), dest, ids[0], undo.Options{})
			if !errors.Is(err, undo.ErrLaterRunDepends) || !strings.Contains(err.Error(), ids[1]) {
				t.Fatalf("undo of the older run: %v; want it refused naming %s", err, ids[1])
			}
			if after := photos(t, dest); strings.Join(after, "\n") != strings.Join(before, "\n") {
				t.Errorf("a refused undo changed the library:\nbefore %v\nafter %v", before, after)
			}
			if _, err := undo.Named(context.Background(), dest, ids[1], undo.Options{}); err != nil {
				t.Fatalf("undo of the later run by its id: %v", err)
			}
			st, err := undo.Named(context.Background(), dest, ids[0], undo.Options{})
			if err != nil || st.Reverted != 1 || st.Kept != 0 {
				t.Fatalf("undo of the older run once the later one is undone: %+v, %v", st, err)
			}
			if left := photos(t, dest); len(left) != 0 {
				t.Errorf("library still holds %v", left)
			}
			if !exists(filepath.Join(card1, "IMG_1.JPG")) {
				t.Error("the source is gone")
			}
		})
	}
}

// An undo of a named older run, killed halfway, is finished by the same
// command; the later run is untouched by both, and undone after.
func TestKilledNamedUndoIsFinishedByTheSameCommand(t *testing.T) {
	root := t.TempDir()
	dest := filepath.Join(root, "lib")
	card1, card2 := filepath.Join(root, "card1"), filepath.Join(root, "card2")
	for i, name := range []string{"A", "B", "C", "D", "E"} {
		write(t, filepath.Join(card1, "IMG_"+name+".JPG"), jpeg(2010+i, name))
	}
	write(t, filepath.Join(card2, "IMG_LATER.JPG"), jpeg(2022, "later"))
	sortInto(t, transfer.Move, card1, dest)
	sortInto(t, transfer.Copy, card2, dest)
	ids := runIDs(t, dest)
	later := filepath.Join(dest, "2022", "2022-05-06", "IMG_LATER.JPG")

	// Events: the run line, then one per file; die after two files.
	if !killChild(t, "undo-named", crashEvents+":3", ids[0], dest, transfer.Copy) {
		t.Fatal("the undo child was not killed")
	}
	if back := photos(t, card1); len(back) == 0 || len(back) == 5 {
		t.Fatalf("the kill was not halfway: %d of 5 files back in the card", len(back))
	}
	st, err := undo.Named(context.Background(), dest, ids[0], undo.Options{})
	if err != nil || st.Failed != 0 || st.Kept != 0 || st.Reverted+st.Already != 5 {
		t.Fatalf("re-run of the killed undo: %+v, %v", st, err)
	}
	if back := photos(t, card1); len(back) != 5 {
		t.Errorf("%d of 5 moved files back in the card", len(back))
	}
	if !exists(later) {
		t.Fatal("the later run's file was touched")
	}
	if _, err := undo.Named(context.Background(), dest, ids[0], undo.Options{}); !errors.Is(err, undo.ErrAlreadyUndone) {
		t.Errorf("third undo of the run: %v, want ErrAlreadyUndone", err)
	}
	st, err = undo.Last(context.Background(), dest, undo.Options{})
	if err != nil || len(st.Runs) != 1 || st.Runs[0] != ids[1] {
		t.Fatalf("plain undo: %+v, %v; want the later run", st, err)
	}
	if left := entries(t, dest); len(left) != 0 {
		t.Errorf("library still holds %v", left)
	}
	if left := folders(t, dest); len(left) != 0 {
		t.Errorf("folders left: %v", left)
	}
}
