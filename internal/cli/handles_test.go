package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// No command leaves a file open when it returns, whether it succeeded,
// failed or refused: a held handle is a leak everywhere and, on Windows,
// keeps the file from being removed or renamed while the process lives
// (a failed undo once held its journal). Counted through /proc/self/fd;
// under Wine the TempDir cleanup fails on a held file instead.
func TestNoCommandLeavesAFileOpen(t *testing.T) {
	if fsxtest.OpenFiles() < 0 {
		t.Logf("open files are not countable here: only the TempDir cleanup catches a held file")
	}
	root := t.TempDir()
	card, phone, lib := filepath.Join(root, "card"), filepath.Join(root, "phone"), filepath.Join(root, "lib")
	writeShots(t, card, "IMG", 3)
	writeShots(t, phone, "PXL", 2)
	if err := os.WriteFile(filepath.Join(card, "IMG_0.XMP"), []byte("<x:xmpmeta/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(root, "run.html")
	steps := []struct {
		args []string
		code int
	}{
		{[]string{"sort", "--dry-run", card, lib}, 0},
		{[]string{"sort", "--report", report, "--json", card, lib}, 0},
		{[]string{"sort", card, lib}, 0}, // a re-run: everything already there
		{[]string{"sort", "--mode", "move", "--verify", phone, lib}, 0},
		{[]string{"sort", filepath.Join(root, "missing"), lib}, ExitFatal},
		{[]string{"log", lib}, 0},
		{[]string{"log", "--json", lib}, 0},
		{[]string{"explain", filepath.Join(card, "IMG_1.JPG")}, 0},
		{[]string{"index", lib}, 0},
		{[]string{"undo", "--dry-run", lib}, 0},
		{[]string{"undo", lib}, 0},                   // the move
		{[]string{"undo", lib}, 0},                   // the copy
		{[]string{"undo", "--json", lib}, ExitFatal}, // nothing left to undo: refused
	}
	base := fsxtest.OpenFiles()
	for _, step := range steps {
		r := shoebox(step.args...)
		if r.code != step.code {
			t.Errorf("shoebox %s: exit %d, want %d\n%s", strings.Join(step.args, " "), r.code, step.code, r.stderr)
		}
		if now := fsxtest.OpenFiles(); now != base {
			t.Errorf("shoebox %s (exit %d) left %d files open (%d before, %d after)",
				strings.Join(step.args, " "), r.code, now-base, base, now)
		}
	}
}

func writeShots(t *testing.T, dir, prefix string, n int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		b := fixture.JPEG(fixture.EXIF{When: time.Date(2021, 3, 1+i, 9, 0, 0, 0, time.UTC), Comment: prefix + fmt.Sprint(i)})
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s_%d.JPG", prefix, i)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
