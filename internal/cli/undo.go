package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/spf13/pflag"

	"github.com/shoebox-photos/shoebox/internal/undo"
)

const undoHelp = `Usage: shoebox undo [--dry-run] [--json] [DEST] [RUN-ID]

Reverses the last run into DEST (default: the current folder), or the run
RUN-ID as shoebox log lists it: moved files go back where they came from,
copies are removed if they are unchanged since and their source still
holds the same content, and the folders shoebox made are removed once
empty. A run that was killed and then finished by running the same command
again is undone as one job. Anything that cannot be proven to be
shoebox's own, unchanged work is left alone and reported.

An older run is undone only if no later run that is not undone touched
its files: moved one of them, removed a duplicate because of one, or got
a "-1" name because one was there. Otherwise nothing is done and the
later run is named: undo it first.

Flags:
  -n, --dry-run   print what would be reverted, change nothing
      --json      one JSON object per file and a summary object on stdout
                  (see docs/json.md)

Exit codes: 0 all reverted, 1 fatal error (also: a later run depends on
the named one), 2 bad command line, 3 some files were left in place
because they changed.
`

// runIDPattern is the form of a run id (journal.NewRunID).
var runIDPattern = regexp.MustCompile(`^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{16}$`)

func cmdUndo(ctx context.Context, env Env, args []string) error {
	fs := newFlags("undo")
	var dry, jsonOut bool
	fs.BoolVarP(&dry, "dry-run", "n", false, "")
	fs.BoolVar(&jsonOut, "json", false, "")
	operands, err := parseFlags(fs, args)
	if errors.Is(err, pflag.ErrHelp) {
		fmt.Fprint(env.Stdout, undoHelp)
		return nil
	}
	if err != nil {
		return err
	}
	dest, runID, err := undoOperands(operands)
	if err != nil {
		return err
	}
	if err := requireFolder("undo", dest); err != nil {
		return err
	}
	out := newUndoOutput(env, jsonOut)
	opt := undo.Options{DryRun: dry, Events: out.line, Report: out.event}
	var st undo.Stats
	if runID != "" {
		st, err = undo.Named(ctx, dest, runID, opt)
	} else {
		st, err = undo.Last(ctx, dest, opt)
	}
	printRecovery(env.Stderr, st.Recovery)
	out.summary(st, dest, err)
	if err != nil {
		return err
	}
	if st.Kept > 0 {
		return exitError{ExitIncomplete}
	}
	return nil
}

// undoOperands reads [DEST] [RUN-ID], in either order: an operand in the
// form of a run id names a run unless a folder of that name is there.
func undoOperands(ops []string) (dest, runID string, err error) {
	dest = "."
	var dests []string
	for _, op := range ops {
		if runIDPattern.MatchString(op) && runID == "" && !isDir(op) {
			runID = op
			continue
		}
		dests = append(dests, op)
	}
	switch {
	case len(dests) > 1:
		return "", "", usagef("undo takes one library folder and at most one run id: shoebox undo [DEST] [RUN-ID]")
	case len(dests) == 1:
		dest = dests[0]
	}
	return dest, runID, nil
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// undoOutput writes what undo does: lines for people on stdout, or with
// --json one object per event and a summary (people's lines then go
// nowhere: the objects carry the same).
type undoOutput struct {
	env Env
	enc *json.Encoder
}

func newUndoOutput(env Env, jsonOut bool) *undoOutput {
	o := &undoOutput{env: env}
	if jsonOut {
		o.enc = json.NewEncoder(env.Stdout)
	}
	return o
}

func (o *undoOutput) line(text string) {
	if o.enc == nil {
		fmt.Fprintln(o.env.Stdout, shown(text))
	}
}

func (o *undoOutput) event(ev undo.Event) {
	if o.enc == nil {
		return
	}
	_ = o.enc.Encode(struct {
		Type string `json:"type"`
		undo.Event
		PathBytes []byte `json:"path_bytes,omitempty"`
		ToBytes   []byte `json:"to_bytes,omitempty"`
	}{"op", ev, rawBytes(ev.Path), rawBytes(ev.To)})
}

// undoSummary is the last line of undo --json.
type undoSummary struct {
	Type        string   `json:"type"`
	Runs        []string `json:"runs"`
	Reverted    int      `json:"reverted"`
	Already     int      `json:"already"`
	Kept        int      `json:"kept"`
	Failed      int      `json:"failed"`
	DirsRemoved int      `json:"folders_removed"`
	DirsKept    int      `json:"folders_kept"`
	DryRun      bool     `json:"dry_run"`
	Error       string   `json:"error,omitempty"`
}

func (o *undoOutput) summary(st undo.Stats, dest string, err error) {
	if o.enc != nil {
		sum := undoSummary{Type: "summary", Runs: st.Runs, Reverted: st.Reverted, Already: st.Already, Kept: st.Kept,
			Failed: st.Failed, DirsRemoved: st.DirsRemoved, DirsKept: st.DirsKept, DryRun: st.DryRun}
		if sum.Runs == nil {
			sum.Runs = []string{}
		}
		if err != nil {
			sum.Error = err.Error()
		}
		_ = o.enc.Encode(sum)
		return
	}
	if len(st.Runs) > 0 {
		printUndoSummary(o.env.Stdout, st, dest)
	}
}
func printRecovery(w io.Writer, r undo.RecoveryStats) {
	for _, p := range r.Problems {
		fmt.Fprintf(w, "shoebox: %s\n", shown(fmt.Sprint(p)))
	}
	if r.TempsRemoved+r.Adopted+r.MovesCompleted > 0 {
		fmt.Fprintf(w, "shoebox: finished an interrupted run first: %d temp files removed, %d landed files recorded, %d moves completed\n",
			r.TempsRemoved, r.Adopted, r.MovesCompleted)
	}
}

func printUndoSummary(w io.Writer, st undo.Stats, dest string) {
	fmt.Fprintf(w, "\n%s: undid run %s\n", shown(dest), shown(strings.Join(st.Runs, ", ")))
	row := func(label string, n int) {
		if n > 0 {
			fmt.Fprintf(w, "  %-26s %8d\n", label, n)
		}
	}
	verb := "reverted"
	if st.DryRun {
		verb = "would revert"
	}
	row(verb, st.Reverted)
	row("already reverted earlier", st.Already)
	row("left in place (changed)", st.Kept)
	row("failed", st.Failed)
	row("empty folders removed", st.DirsRemoved)
	row("folders kept (not empty)", st.DirsKept)
	if st.DryRun {
		fmt.Fprintln(w, "dry run: nothing was changed")
	}
}
