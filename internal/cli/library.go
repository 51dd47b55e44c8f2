package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/store"
	"github.com/shoebox-photos/shoebox/internal/undo"
)

func cmdIndex(ctx context.Context, env Env, args []string) error {
	fs := newFlags("index")
	workers := fs.Int("workers", 4, "")
	ops, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(ops) != 1 {
		return usagef("index needs one library folder: shoebox index DEST")
	}
	if *workers < 1 || *workers > 256 {
		return usagef("index: --workers: want 1 to 256, not %d", *workers)
	}
	if err := requireFolder("index", ops[0]); err != nil {
		return err
	}
	st, err := pipeline.Index(ctx, ops[0], *workers, func(ev pipeline.Event) {
		fmt.Fprintf(env.Stderr, "shoebox: %s\n", shown(ev.Reason))
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "%s: %d files, %d hashed, %d unchanged since last index, %d failed\n",
		shown(ops[0]), st.Files, st.Hashed, st.Reused, st.Failed)
	if st.Failed > 0 {
		return exitError{ExitIncomplete}
	}
	return nil
}

func cmdLog(env Env, args []string) error {
	fs := newFlags("log")
	jsonOut := fs.Bool("json", false, "")
	args, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return usagef("log needs one library folder: shoebox log DEST")
	}
	if err := requireFolder("log", args[0]); err != nil {
		return err
	}
	sums, err := journal.List(filepath.Join(pipeline.StateDir(args[0]), "journal"))
	if err != nil {
		return fmt.Errorf("log %s: %w", quote.Path(args[0]), err)
	}
	// In the order they started, classified as undo sees them. The lock
	// is probed only when a journal is open: a run may be going on.
	running := false
	if slices.ContainsFunc(sums, func(s journal.Summary) bool { return s.Err == nil && !s.Closed }) {
		running = store.Held(pipeline.StateDir(args[0]))
	}
	runs := undo.Runs(sums, running)
	if *jsonOut {
		return logJSON(env.Stdout, runs)
	}
	if len(runs) == 0 {
		fmt.Fprintf(env.Stdout, "%s: no runs recorded\n", shown(args[0]))
		return nil
	}
	for _, r := range runs {
		fmt.Fprintln(env.Stdout, shown(logLine(r)))
	}
	return nil
}

// checkDestination fails with a sentence when the library named on sort's
// command line is a file, or lies under one; a missing one is created.
func checkDestination(path string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !fileAbove(path):
		return nil
	case errors.Is(err, syscall.ENOTDIR) || errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("destination %s: a file stands where a folder on this path should be; give a folder for the library", quote.Path(path))
	case err != nil:
		return fmt.Errorf("destination %s: %w", quote.Path(path), fsx.Bare(err))
	case !st.IsDir():
		return fmt.Errorf("destination %s is a file, not a folder; give a folder for the library (it is created if missing)", quote.Path(path))
	}
	return nil
}

// requireFolder fails with a sentence when path is missing or not a folder.
func requireFolder(cmd, path string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !fileAbove(path):
		return fmt.Errorf("%s %s: no such folder", cmd, quote.Path(path))
	case errors.Is(err, syscall.ENOTDIR) || errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %s: a file stands where a folder on this path should be; give the library's folder", cmd, quote.Path(path))
	case err != nil:
		return fmt.Errorf("%s %s: %w", cmd, quote.Path(path), fsx.Bare(err))
	case !st.IsDir():
		return fmt.Errorf("%s %s: this is a file; give the library's folder", cmd, quote.Path(path))
	}
	return nil
}

// fileAbove reports whether the nearest existing folder above a missing
// path is a file: Linux says ENOTDIR for "photo.jpg/lib", Windows says
// only that the path is not found.
func fileAbove(path string) bool {
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		if st, err := os.Stat(dir); err == nil {
			return !st.IsDir()
		}
		if filepath.Dir(dir) == dir {
			return false
		}
	}
}

func logLine(r undo.Run) string {
	if r.Err != nil {
		return fmt.Sprintf("%s  unreadable: %v", filepath.Base(r.Path), r.Err)
	}
	line := fmt.Sprintf("%s  %s  %-16s %s  shoebox %s", r.Header.RunID, r.Header.Started.Local().Format("2006-01-02 15:04"),
		r.State, logCounts(r), strings.Join(r.Header.Args, " "))
	var links []string
	if r.Resumes != "" {
		links = append(links, "resumes "+r.Resumes)
	}
	if r.ResumedBy != "" {
		links = append(links, "resumed by "+r.ResumedBy)
	}
	switch r.State {
	case "undone":
		links = append(links, "undone by "+r.UndoneBy)
	case "partially undone":
		links = append(links, "undo "+r.UndoneBy+" stopped before its end; shoebox undo finishes it")
	}
	if len(links) > 0 {
		line += "  (" + strings.Join(links, "; ") + ")"
	}
	return line
}

// logCounts is a run's files as its summary counted them.
func logCounts(r undo.Run) string {
	f := r.Files
	parts := []string{}
	add := func(n int64, label string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, label))
		}
	}
	switch r.Kind {
	case "undo":
		parts = append(parts, fmt.Sprintf("%d reverted", f.Reverted))
		add(f.Failed, "not reverted")
	case "recover":
		parts = append(parts, fmt.Sprintf("%d recorded", f.Transferred))
	case "check":
		parts = append(parts, fmt.Sprintf("%d repaired", f.Transferred))
		add(f.Failed, "not repaired")
	case "relayout":
		parts = append(parts, fmt.Sprintf("%d moved", f.Transferred))
		add(f.Failed, "not moved")
		add(f.NotAttempted, "not attempted")
	default:
		parts = append(parts, fmt.Sprintf("%d transferred", f.Transferred))
		add(f.Failed, "failed")
		add(f.NotAttempted, "not attempted")
		add(f.DuplicatesRemoved, "duplicates removed")
		add(f.BackupCopies, "backup copies")
	}
	return strings.Join(parts, ", ")
}

// logRun is one line of log --json: one journal (docs/json.md).
type logRun struct {
	Type      string   `json:"type"` // "run"
	RunID     string   `json:"run_id,omitempty"`
	Kind      string   `json:"kind,omitempty"` // sort, check (check --repair), relayout, undo (Args[1] names the run it reverses), recover
	Started   string   `json:"started,omitempty"`
	State     string   `json:"state"`           // see undo.Run
	Ended     string   `json:"ended,omitempty"` // sort: complete, interrupted, stopped, killed
	Args      []string `json:"args,omitempty"`
	ArgsBytes [][]byte `json:"args_bytes,omitempty"` // every word's exact bytes, when one is not valid UTF-8 (see jsonEvent)
	Files     logFiles `json:"files"`
	Done      int      `json:"done"`
	Failed    int      `json:"failed"`
	Undone    int      `json:"undone"`
	ResumedBy string   `json:"resumed_by,omitempty"`
	Resumes   string   `json:"resumes,omitempty"`
	UndoneBy  string   `json:"undone_by,omitempty"` // sort runs: the undo that reversed it (partially undone: that is reversing it)
	Journal   string   `json:"journal"`
	Error     string   `json:"error,omitempty"`
}

// logFiles is a run's file counts: its summary's, or for a run killed
// before it could record them, counted from its journal ("from":"journal").
type logFiles struct {
	Planned           int64  `json:"planned,omitempty"`
	Transferred       int64  `json:"transferred"`
	Failed            int64  `json:"failed"`
	NotAttempted      int64  `json:"not_attempted"`
	DuplicatesRemoved int64  `json:"duplicates_removed"`
	BackupCopies      int64  `json:"backup_copies"`
	Reverted          int64  `json:"reverted"`
	From              string `json:"from"` // summary, journal
}

func logJSON(w io.Writer, runs []undo.Run) error {
	enc := json.NewEncoder(w)
	for _, r := range runs {
		f := r.Files
		l := logRun{Type: "run", RunID: r.Header.RunID, Kind: r.Kind, State: r.State, Ended: r.Ended, Args: r.Header.Args, ArgsBytes: rawArgs(r.Header.Args),
			Files: logFiles{Planned: f.Planned, Transferred: f.Transferred, Failed: f.Failed, NotAttempted: f.NotAttempted,
				DuplicatesRemoved: f.DuplicatesRemoved, BackupCopies: f.BackupCopies, Reverted: f.Reverted, From: "summary"},
			Done: r.Done, Failed: r.Summary.Failed, Undone: r.Undone,
			ResumedBy: r.ResumedBy, Resumes: r.Resumes, UndoneBy: r.UndoneBy, Journal: r.Path}
		if f.FromJournal {
			l.Files.From = "journal"
		}
		if r.Err != nil {
			l.Error = r.Err.Error()
		}
		if !r.Header.Started.IsZero() {
			l.Started = r.Header.Started.UTC().Format(time.RFC3339)
		}
		if err := enc.Encode(l); err != nil {
			return err
		}
	}
	return nil
}
