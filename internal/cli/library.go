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
	runs, err := journal.List(filepath.Join(pipeline.StateDir(args[0]), "journal"))
	if err != nil {
		return fmt.Errorf("log %s: %w", quote.Path(args[0]), err)
	}
	// Ids sort by the second only; two runs in one second (a resume right
	// after a kill) are listed in the order they started, as undo orders them.
	slices.SortStableFunc(runs, func(a, b journal.Summary) int { return a.Header.Started.Compare(b.Header.Started) })
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

func logLine(r journal.Summary) string {
	state := "complete"
	switch {
	case r.Err != nil:
		return fmt.Sprintf("%s  unreadable: %v", filepath.Base(r.Path), r.Err)
	case r.Torn || !r.Closed:
		state = "interrupted"
	}
	return fmt.Sprintf("%s  %s  %-11s done %d, failed %d, undone %d  shoebox %s",
		r.Header.RunID, r.Header.Started.Local().Format("2006-01-02 15:04"), state,
		r.Done, r.Failed, r.Undone, strings.Join(r.Header.Args, " "))
}

// logRun is one line of log --json: one journal (docs/json.md).
type logRun struct {
	Type     string   `json:"type"` // "run"
	RunID    string   `json:"run_id,omitempty"`
	Kind     string   `json:"kind,omitempty"` // sort, undo (Args[1] names the run it reverses), recover
	Started  string   `json:"started,omitempty"`
	State    string   `json:"state"` // complete, interrupted, unreadable
	Args     []string `json:"args,omitempty"`
	Done     int      `json:"done"`
	Failed   int      `json:"failed"`
	Undone   int      `json:"undone"`
	UndoneBy string   `json:"undone_by,omitempty"` // sort runs: the undo that reversed it
	Journal  string   `json:"journal"`
	Error    string   `json:"error,omitempty"`
}

func logJSON(w io.Writer, runs []journal.Summary) error {
	enc := json.NewEncoder(w)
	by := undo.UndoneBy(runs)
	for _, r := range runs {
		l := logRun{Type: "run", RunID: r.Header.RunID, State: "complete", Args: r.Header.Args,
			Done: r.Done, Failed: r.Failed, Undone: r.Undone, Journal: r.Path}
		switch {
		case r.Err != nil:
			l.State, l.Error = "unreadable", r.Err.Error()
		case r.Torn || !r.Closed:
			l.State = "interrupted"
		}
		if !r.Header.Started.IsZero() {
			l.Started = r.Header.Started.UTC().Format(time.RFC3339)
		}
		if len(r.Header.Args) > 0 {
			l.Kind = r.Header.Args[0]
		}
		if l.Kind == "sort" {
			l.UndoneBy = by[r.Header.RunID]
		}
		if err := enc.Encode(l); err != nil {
			return err
		}
	}
	return nil
}
