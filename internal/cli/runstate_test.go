package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/store"
)

// A run's life in the journal, as log shows it and undo acts on it:
// stopped by Ctrl-C, resumed by the same command, undone as one job.

// sortCancelledAtOp runs sort --json and stops it as a Ctrl-C would once
// the first file's outcome line is written (a batch of files has landed).
func sortCancelledAtOp(args ...string) result {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &cancelAtOp{cancel: cancel}
	var errOut bytes.Buffer
	code := Run(ctx, Env{Stdout: out, Stderr: &errOut, Stdin: strings.NewReader("")}, append([]string{"sort", "--json"}, args...))
	return result{code, out.String(), errOut.String()}
}

type cancelAtOp struct {
	bytes.Buffer
	cancel context.CancelFunc
}

func (w *cancelAtOp) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte(`"type":"op"`)) {
		w.cancel()
	}
	return w.Buffer.Write(p)
}

// summaryCount is a count of sort --json's summary line.
func summaryCount(t *testing.T, stdout, field string) int {
	t.Helper()
	sums := ofType(jsonLines(t, stdout), "summary")
	if len(sums) != 1 {
		t.Fatalf("%d summary lines:\n%s", len(sums), stdout)
	}
	n, _ := sums[0][field].(float64)
	return int(n)
}

// logRuns is log --json's runs by id, and their ids in order.
func logRuns(t *testing.T, lib string) (map[string]map[string]any, []string) {
	t.Helper()
	r := shoebox("log", "--json", lib)
	if r.code != 0 {
		t.Fatalf("log --json: %s", r)
	}
	runs := map[string]map[string]any{}
	var ids []string
	for _, run := range ofType(jsonLines(t, r.stdout), "run") {
		id, _ := run["run_id"].(string)
		runs[id] = run
		ids = append(ids, id)
	}
	return runs, ids
}

func fileCount(run map[string]any, field string) int {
	files, _ := run["files"].(map[string]any)
	n, _ := files[field].(float64)
	return int(n)
}

func libraryPhotos(t *testing.T, lib string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(lib, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".shoebox" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".jpg") {
			n++
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return n
}

// log counts files as the summary did (not journal records: a file and
// its folder are several), shows a run stopped by Ctrl-C as interrupted
// and the run that resumed it as such; one undo reverses both, and log
// then calls both undone.
func TestLogAndUndoOfAnInterruptedRun(t *testing.T) {
	fsxtest.SkipSlowUnderWine(t, "log and undo of 600 files over three runs")
	root := t.TempDir()
	cardDir, lib := filepath.Join(root, "card"), filepath.Join(root, "lib")
	const n = 600 // more than one batch of landed files (flushEvery)
	writeShots(t, cardDir, "IMG", n)

	first := sortCancelledAtOp("--workers", "1", cardDir, lib)
	if first.code != ExitInterrupted {
		t.Fatalf("the first sort was to be stopped by Ctrl-C: %s", first)
	}
	firstDone := summaryCount(t, first.stdout, "transferred")
	if firstDone == 0 || firstDone == n {
		t.Fatalf("the stopped sort transferred %d of %d files: not a test of a resume", firstDone, n)
	}
	runs, ids := logRuns(t, lib)
	if len(ids) != 1 || runs[ids[0]]["state"] != "interrupted" {
		t.Fatalf("log after Ctrl-C: %v, want one interrupted run", runs)
	}
	if got := fileCount(runs[ids[0]], "transferred"); got != firstDone {
		t.Errorf("log says %d files transferred, the summary said %d", got, firstDone)
	}
	human := shoebox("log", lib)
	if !strings.Contains(human.stdout, "interrupted") || !strings.Contains(human.stdout, strconv.Itoa(firstDone)+" transferred") {
		t.Errorf("log does not show the interrupted run with its %d files:\n%s", firstDone, human.stdout)
	}

	// The same command, watched with -v and without --workers: the same
	// work (journal.SameWork), so the same job.
	second := shoebox("sort", "--json", "-v", cardDir, lib)
	if second.code != 0 {
		t.Fatalf("the resume: %s", second)
	}
	secondDone := summaryCount(t, second.stdout, "transferred")
	if firstDone+secondDone != n {
		t.Errorf("the two runs transferred %d and %d files, want %d in all", firstDone, secondDone, n)
	}
	runs, ids = logRuns(t, lib)
	if len(ids) != 2 {
		t.Fatalf("log: %d runs, want 2", len(ids))
	}
	a, b := runs[ids[0]], runs[ids[1]]
	if a["state"] != "interrupted" || a["resumed_by"] != ids[1] || b["state"] != "complete" || b["resumes"] != ids[0] {
		t.Errorf("log does not link the interrupted run to its resume:\n%v\n%v", a, b)
	}
	if fileCount(b, "transferred") != secondDone {
		t.Errorf("log says %d files for the resume, its summary said %d", fileCount(b, "transferred"), secondDone)
	}
	human = shoebox("log", lib)
	if !strings.Contains(human.stdout, "resumed by "+ids[1]) {
		t.Errorf("log does not say which run resumed the interrupted one:\n%s", human.stdout)
	}

	undone := shoebox("undo", lib)
	if undone.code != 0 {
		t.Fatalf("undo: %s", undone)
	}
	if !strings.Contains(undone.stdout, ids[0]) || !strings.Contains(undone.stdout, ids[1]) {
		t.Errorf("undo does not name both runs it reverses:\n%s", undone.stdout)
	}
	if left := libraryPhotos(t, lib); left != 0 {
		t.Errorf("one undo left %d of the interrupted run's photos in the library", left)
	}
	runs, _ = logRuns(t, lib)
	for _, id := range ids {
		if runs[id]["state"] != "undone" || runs[id]["undone_by"] == nil {
			t.Errorf("log after the undo: run %s is %v, want undone", id, runs[id]["state"])
		}
	}
	if again := shoebox("undo", lib); again.code != ExitFatal || !strings.Contains(again.stderr, "nothing to undo") {
		t.Errorf("a second undo: %s", again)
	}
}

// A complete run's file count is its summary's, not its journal's record
// count (each file's folder is a record too).
func TestLogCountsFiles(t *testing.T) {
	root := t.TempDir()
	cardDir, lib := filepath.Join(root, "card"), filepath.Join(root, "lib")
	writeShots(t, cardDir, "IMG", 5) // five days: five folders
	if r := shoebox("sort", cardDir, lib); r.code != 0 {
		t.Fatal(r)
	}
	runs, ids := logRuns(t, lib)
	if len(ids) != 1 || runs[ids[0]]["state"] != "complete" || fileCount(runs[ids[0]], "transferred") != 5 {
		t.Errorf("log --json: %v, want one complete run of 5 files", runs)
	}
	if r := shoebox("log", lib); !strings.Contains(r.stdout, "complete") || !strings.Contains(r.stdout, " 5 transferred") {
		t.Errorf("log: %s", r)
	}
	if r := shoebox("undo", lib); r.code != 0 {
		t.Fatal(r)
	}
	r := shoebox("log", lib)
	if lines := strings.Split(strings.TrimSpace(r.stdout), "\n"); len(lines) != 2 || !strings.Contains(lines[0], "undone") ||
		!strings.Contains(lines[1], "5 reverted") {
		t.Errorf("log after undo: the run is not shown undone, or the undo's files not counted:\n%s", r.stdout)
	}
}

// A run stopped by Ctrl-C and followed by another command (here one that
// leaves some files out: not the same work) is not one job with it: undo reverses the resume and says that the
// stopped run before it is not undone and how to undo it.
func TestUndoSaysHowToUndoAStoppedRunResumedOtherwise(t *testing.T) {
	fsxtest.SkipSlowUnderWine(t, "undo's advice after three runs of 600 files")
	root := t.TempDir()
	cardDir, lib := filepath.Join(root, "card"), filepath.Join(root, "lib")
	writeShots(t, cardDir, "IMG", 600)
	first := sortCancelledAtOp("--workers", "1", cardDir, lib)
	if first.code != ExitInterrupted {
		t.Fatalf("the first sort was to be stopped by Ctrl-C: %s", first)
	}
	if r := shoebox("sort", "--kind", "photo", cardDir, lib); r.code != 0 {
		t.Fatalf("the resume: %s", r)
	}
	_, ids := logRuns(t, lib)
	r := shoebox("undo", lib)
	if r.code != 0 || !strings.Contains(r.stdout, "the run before, "+ids[0]) || !strings.Contains(r.stdout, "run shoebox undo again") {
		t.Errorf("undo of the resume does not say how to undo the stopped run before it: %s", r)
	}
	if r := shoebox("undo", lib); r.code != 0 || !strings.Contains(r.stdout, "undid run "+ids[0]) {
		t.Errorf("the second undo: %s", r)
	}
	if left := libraryPhotos(t, lib); left != 0 {
		t.Errorf("%d photos left after both undos", left)
	}
}

// A run going on now (its journal open, the library's lock held) is
// running in log; the same journal with the lock free is a killed run,
// interrupted.
func TestLogShowsARunGoingOn(t *testing.T) {
	lib := t.TempDir()
	state := filepath.Join(lib, ".shoebox")
	w, err := journal.Create(filepath.Join(state, "journal"), journal.Header{
		RunID: journal.NewRunID(time.Now()), Started: time.Now(), Dest: lib, Args: []string{"sort", "card", lib},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.CloseUnfinished(); err != nil { // as a run still going, or killed
		t.Fatal(err)
	}
	unlock, err := store.Lock(state)
	if err != nil {
		t.Fatal(err)
	}
	runs, ids := logRuns(t, lib)
	if len(ids) != 1 || runs[ids[0]]["state"] != "running" {
		t.Errorf("log while the lock is held: %v, want running", runs)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	runs, ids = logRuns(t, lib)
	if runs[ids[0]]["state"] != "interrupted" || runs[ids[0]]["ended"] != "killed" {
		t.Errorf("log with the lock free: %v, want interrupted (killed)", runs)
	}
}
