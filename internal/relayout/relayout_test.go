package relayout_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/check"
	"github.com/shoebox-photos/shoebox/internal/cli"
	"github.com/shoebox-photos/shoebox/internal/config"
	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/importlog"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/relayout"
	"github.com/shoebox-photos/shoebox/internal/undo"
)

// The tests build a real library with the real sort, relayout it, and
// look at the files, the import history and the recorded template.

const (
	byDay   = "{year}/{year}-{month}-{day}/{name}{ext}"
	byMonth = "{year}/{month}/{name}{ext}"
)

func shoebox(t *testing.T, args ...string) {
	t.Helper()
	var out, errs bytes.Buffer
	if code := cli.Run(context.Background(), cli.Env{Stdout: &out, Stderr: &errs}, args); code != 0 {
		t.Fatalf("shoebox %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errs.String())
	}
}

func write(t *testing.T, name string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func jpeg(day int, name string) []byte {
	return fixture.JPEG(fixture.EXIF{When: time.Date(2024, 5, day, 12, 0, 0, 0, time.UTC), Comment: name + strings.Repeat("x", 3000)})
}

// library sorts into a new library by day: a photo with a sidecar, a
// RAW+JPEG pair, and two photos named IMG_2.JPG from two cards on two
// days of one month (one name in the by-month layout).
func library(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	card1, card2, lib := filepath.Join(dir, "card1"), filepath.Join(dir, "card2"), filepath.Join(dir, "lib")
	write(t, filepath.Join(card1, "IMG_1.JPG"), jpeg(1, "IMG_1"))
	write(t, filepath.Join(card1, "IMG_1.xmp"), []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"/>`))
	write(t, filepath.Join(card1, "IMG_2.JPG"), jpeg(2, "IMG_2 first"))
	write(t, filepath.Join(card1, "PAIR.JPG"), jpeg(3, "PAIR"))
	write(t, filepath.Join(card1, "PAIR.DNG"), append([]byte("II*\x00"), bytes.Repeat([]byte{7}, 4000)...))
	write(t, filepath.Join(card2, "IMG_2.JPG"), jpeg(4, "IMG_2 second"))
	shoebox(t, "sort", card1, lib)
	shoebox(t, "sort", card2, lib)
	return lib
}

func options(t *testing.T, lib, from, to string) relayout.Options {
	t.Helper()
	f, err := layout.Parse(from)
	if err != nil {
		t.Fatal(err)
	}
	tt, err := layout.Parse(to)
	if err != nil {
		t.Fatal(err)
	}
	return relayout.Options{Library: lib, From: f, To: tt}
}

// tree lists the library's files (outside .shoebox) with their bytes.
func tree(t *testing.T, lib string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(lib, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".shoebox" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(lib, p)
			out[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	return out
}

func names(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func recorded(t *testing.T, lib string) string {
	t.Helper()
	s, _, err := config.ReadFile(config.LibraryPath(lib))
	if err != nil || s.Template == nil {
		t.Fatalf("recorded template: %v", err)
	}
	return *s.Template
}

// historyPaths lists the library paths the import history records.
func historyPaths(t *testing.T, lib string) []string {
	t.Helper()
	l, err := importlog.OpenForReading(pipeline.StateDir(lib))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var out []string
	if err := l.EachPath(func(e importlog.Entry) error { out = append(out, e.Path); return nil }); err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func intact(t *testing.T, lib string) {
	t.Helper()
	st, err := check.Run(context.Background(), check.Options{Library: lib})
	if err != nil || st.Problems() != 0 || st.Library.Strays != 0 {
		t.Fatalf("check after relayout: %+v, %v", st.Library, err)
	}
}

var wantByMonth = []string{"2024/05/IMG_1.JPG", "2024/05/IMG_1.xmp", "2024/05/IMG_2-1.JPG", "2024/05/IMG_2.JPG", "2024/05/PAIR.DNG", "2024/05/PAIR.JPG"}

// Every file moves to the new layout with its group, the second
// IMG_2.JPG gets sort's number, the history follows the files (check
// finds the library intact, no stray) and the template is recorded.
func TestRelayoutMovesEveryFileWithItsGroup(t *testing.T) {
	lib := library(t)
	before := tree(t, lib)
	mine := filepath.Join(lib, "2024", "2024-05-03", "notes.txt") // a stray: stays, and keeps its folder
	write(t, mine, []byte("mine"))
	st, err := relayout.Run(context.Background(), options(t, lib, byDay, byMonth))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(mine); err != nil {
		t.Fatalf("the stray did not stay: %v", err)
	}
	for _, d := range []string{"2024-05-01", "2024-05-02", "2024-05-04"} {
		if _, err := os.Stat(filepath.Join(lib, "2024", d)); err == nil {
			t.Errorf("the emptied folder %s was left", d)
		}
	}
	if st.DirsRemoved != 3 {
		t.Errorf("%d emptied folders removed, want 3", st.DirsRemoved)
	}
	after := tree(t, lib)
	if got := names(after); strings.Join(got, " ") != strings.Join(wantByMonth, " ") {
		t.Fatalf("library after relayout: %v, want %v", got, wantByMonth)
	}
	if st.Moved != 6 || st.Files != 6 || st.Run == "" {
		t.Errorf("stats %+v", st)
	}
	if after["2024/05/IMG_2.JPG"] != before["2024/2024-05-02/IMG_2.JPG"] || after["2024/05/IMG_2-1.JPG"] != before["2024/2024-05-04/IMG_2.JPG"] {
		t.Error("the two IMG_2.JPG were not numbered in the order sort numbers them")
	}
	if got := historyPaths(t, lib); strings.Join(got, " ") != strings.Join(wantByMonth, " ") {
		t.Errorf("history after relayout: %v", got)
	}
	if got := recorded(t, lib); got != byMonth {
		t.Errorf("recorded template %q", got)
	}
	intact(t, lib)
}

// A dry run changes nothing (files, history, template, journal) and lists
// the moves the real run makes.
func TestDryRunPredictsAndChangesNothing(t *testing.T) {
	lib := library(t)
	before := tree(t, lib)
	journals, _ := os.ReadDir(filepath.Join(lib, ".shoebox", "journal"))
	opt := options(t, lib, byDay, byMonth)
	opt.DryRun = true
	var dry []relayout.Move
	opt.Moved = func(m relayout.Move) { dry = append(dry, m) }
	if _, err := relayout.Run(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	if got := tree(t, lib); len(got) != len(before) || names(got)[0] != names(before)[0] {
		t.Fatalf("a dry run changed the library: %v", names(got))
	}
	if after, _ := os.ReadDir(filepath.Join(lib, ".shoebox", "journal")); len(after) != len(journals) {
		t.Error("a dry run wrote a journal")
	}
	if recorded(t, lib) != byDay {
		t.Error("a dry run changed the recorded template")
	}
	opt.DryRun = false
	var real []relayout.Move
	opt.Moved = func(m relayout.Move) { real = append(real, m) }
	if _, err := relayout.Run(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	if len(dry) != len(real) {
		t.Fatalf("dry run %d moves, real run %d", len(dry), len(real))
	}
	for i := range dry {
		if dry[i] != real[i] {
			t.Errorf("move %d: dry run %+v, real run %+v", i, dry[i], real[i])
		}
	}
}

// undo moves every file back, the history with them, and records the old
// template again; the library is then as it was, and intact.
func TestUndoPutsTheOldLayoutBack(t *testing.T) {
	lib := library(t)
	before := tree(t, lib)
	hist := historyPaths(t, lib)
	if _, err := relayout.Run(context.Background(), options(t, lib, byDay, byMonth)); err != nil {
		t.Fatal(err)
	}
	if _, err := undo.Last(context.Background(), lib, undo.Options{}); err != nil {
		t.Fatal(err)
	}
	after := tree(t, lib)
	if strings.Join(names(after), " ") != strings.Join(names(before), " ") {
		t.Fatalf("after undo: %v, want %v", names(after), names(before))
	}
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s: other bytes after undo", k)
		}
	}
	if got := historyPaths(t, lib); strings.Join(got, " ") != strings.Join(hist, " ") {
		t.Errorf("history after undo: %v, want %v", got, hist)
	}
	if got := recorded(t, lib); got != byDay {
		t.Errorf("recorded template after undo %q", got)
	}
	if _, err := os.Stat(filepath.Join(lib, "2024", "05")); err == nil {
		t.Error("undo left the folder relayout made")
	}
	intact(t, lib)
}

// Refusals: not a library, the template it has, {counter}, a backup
// folder that is away or not this library's.
func TestRelayoutRefuses(t *testing.T) {
	lib := library(t)
	ctx := context.Background()
	if _, err := relayout.Run(ctx, options(t, lib, byDay, byDay)); !errors.Is(err, relayout.ErrSameTemplate) {
		t.Errorf("same template: %v", err)
	}
	if _, err := relayout.Run(ctx, options(t, t.TempDir(), byDay, byMonth)); !errors.Is(err, relayout.ErrNotLibrary) {
		t.Errorf("not a library: %v", err)
	}
	if _, err := relayout.Run(ctx, options(t, lib, byDay, "{year}/{counter}{ext}")); !errors.Is(err, relayout.ErrCounter) {
		t.Errorf("counter: %v", err)
	}
	// A recorded backup folder that is not there (its drive away), and one
	// that is no library's backup: relayout would leave its copies behind,
	// or move files that are not this library's.
	bak := filepath.Join(t.TempDir(), "Photos")
	if err := config.SaveLibrary(lib, config.Settings{Template: ptr(byDay), Backup: &bak}); err != nil {
		t.Fatal(err)
	}
	if _, err := relayout.Run(ctx, options(t, lib, byDay, byMonth)); !errors.Is(err, relayout.ErrBackupAway) || !errors.Is(err, pipeline.ErrConfig) {
		t.Errorf("backup away: %v", err)
	}
	if err := os.Mkdir(bak, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := relayout.Run(ctx, options(t, lib, byDay, byMonth)); !errors.Is(err, pipeline.ErrBackupOwned) {
		t.Errorf("a folder that is no library's backup: %v", err)
	}
	if got := tree(t, lib); len(got) != 6 || got["2024/2024-05-01/IMG_1.JPG"] == "" {
		t.Errorf("a refused relayout moved files: %v", names(got))
	}
}

func ptr(s string) *string { return &s }
