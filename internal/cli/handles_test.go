package cli

import (
	"bytes"
	"context"
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
	many := filepath.Join(root, "many")
	writeShots(t, many, "DSC", 40)
	if err := os.WriteFile(filepath.Join(card, "IMG_0.XMP"), []byte("<x:xmpmeta/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(root, "run.html")
	damaged := filepath.Join(root, "damaged")
	if err := os.MkdirAll(filepath.Join(damaged, ".shoebox"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(damaged, ".shoebox", "config.toml"), []byte("mode = [unclosed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
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
		{[]string{"sort", card, report}, ExitFatal},  // DEST is a file
		{[]string{"sort", card, damaged}, ExitUsage}, // its config cannot be read
		{[]string{"interrupted", "sort", "--json", "--workers", "1", many, lib}, ExitInterrupted},
	}
	base := fsxtest.OpenFiles()
	for _, step := range steps {
		var r result
		if step.args[0] == "interrupted" {
			step.args = step.args[1:]
			r = shoeboxCancelled(step.args...)
		} else {
			r = shoebox(step.args...)
		}
		if step.args[0] == "sort" && step.code == ExitInterrupted && r.code == 0 {
			// Batched copies can land every file before the first line is
			// written: then there was nothing left to stop.
			t.Logf("the interrupted sort had finished before it was stopped")
		} else if r.code != step.code {
			t.Errorf("shoebox %s: exit %d, want %d\n%s", strings.Join(step.args, " "), r.code, step.code, r.stderr)
		}
		if now := fsxtest.OpenFiles(); now != base {
			t.Errorf("shoebox %s (exit %d) left %d files open (%d before, %d after)",
				strings.Join(step.args, " "), r.code, now-base, base, now)
		}
	}
}

// shoeboxCancelled runs shoebox (with --json) and stops it as a Ctrl-C
// would, at the first line it writes on stdout: the first file's outcome.
func shoeboxCancelled(args ...string) result {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &cancelAtFirstWrite{cancel: cancel}
	var errOut bytes.Buffer
	code := Run(ctx, Env{Stdout: out, Stderr: &errOut, Stdin: strings.NewReader("")}, args)
	return result{code, out.String(), errOut.String()}
}

type cancelAtFirstWrite struct {
	bytes.Buffer
	cancel context.CancelFunc
}

func (w *cancelAtFirstWrite) Write(p []byte) (int, error) {
	w.cancel()
	return w.Buffer.Write(p)
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
