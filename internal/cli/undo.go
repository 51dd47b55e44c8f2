package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/shoebox-photos/shoebox/internal/recovery"
	"github.com/shoebox-photos/shoebox/internal/undo"
)

const undoHelp = `Usage: shoebox undo [--dry-run] [--json] [-q] [DEST] [RUN-ID]

Reverses the last run into DEST (default: the current folder), or the run
RUN-ID as shoebox log lists it (the beginning of the id is enough when
only one run's id begins so): moved files go back where they came from,
copies are removed if they are unchanged since and their source still
holds the same content, and the folders shoebox made are removed once
empty. A run that was stopped (Ctrl-C, a kill, a full disk) and then
finished by running the same command again is undone with it as one job,
and both are named. Anything that cannot be proven to be shoebox's own,
unchanged work is left alone and reported. A backup copy (sort's backup
folder) whose drive is not connected is reported as not reached, and the
undo stays unfinished: run it again once the drive is back.

An older run is undone only if no later run that is not undone touched
its files: moved one of them, removed a duplicate because of one, or got
a "-1" name because one was there. Otherwise nothing is done and the
later run is named: undo it first.

Flags:
  -n, --dry-run   print what would be reverted, change nothing
      --json      one JSON object per file and a summary object on stdout
                  (see docs/json.md)
  -q, --quiet     print nothing but problems (files left in place or not
                  reverted, errors)

Exit codes: 0 all reverted, 1 fatal error (also: no run has that id; a
later run depends on the named one; some files could not be reverted or
backup copies reached: run undo again), 2 bad command line, 3 some files
were left in place because they changed.
`

// runIDShape is the form of a run id (journal.NewRunID), one class per
// character: an operand is taken for a run id, or the beginning of one,
// when it has at least runIDMin characters, each of its class.
const (
	runIDShape = "DDDDDDDDTDDDDDDZ-hhhhhhhhhhhhhhhh"
	runIDMin   = 4
)

// looksLikeRunID reports whether op is a run id or the beginning of one.
func looksLikeRunID(op string) bool {
	if len(op) < runIDMin || len(op) > len(runIDShape) {
		return false
	}
	for i := 0; i < len(op); i++ {
		c, want := op[i], runIDShape[i]
		ok := false
		switch want {
		case 'D':
			ok = c >= '0' && c <= '9'
		case 'h':
			ok = c >= '0' && c <= '9' || c >= 'a' && c <= 'f'
		default:
			ok = c == want
		}
		if !ok {
			return false
		}
	}
	return true
}

func cmdUndo(ctx context.Context, env Env, args []string) error {
	fs := newFlags("undo")
	var dry, jsonOut, quiet bool
	fs.BoolVarP(&dry, "dry-run", "n", false, "")
	fs.BoolVar(&jsonOut, "json", false, "")
	fs.BoolVarP(&quiet, "quiet", "q", false, "")
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
	out := newUndoOutput(env, jsonOut, quiet)
	opt := undo.Options{DryRun: dry, Events: out.line, Report: out.event}
	var st undo.Stats
	if runID != "" {
		st, err = undo.Named(ctx, dest, runID, opt)
	} else {
		st, err = undo.Last(ctx, dest, opt)
	}
	printRecovery(env.Stderr, st.Recovery, quiet)
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
// form of a run id, or of its beginning, names a run unless a folder of
// that name is there.
func undoOperands(ops []string) (dest, runID string, err error) {
	dest = "."
	var dests []string
	for _, op := range ops {
		if looksLikeRunID(op) && runID == "" && !isDir(op) {
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
	env   Env
	enc   *json.Encoder
	quiet bool // -q: only the problems, on stderr
}

func newUndoOutput(env Env, jsonOut, quiet bool) *undoOutput {
	o := &undoOutput{env: env, quiet: quiet}
	if jsonOut {
		o.enc = json.NewEncoder(env.Stdout)
	}
	return o
}

// line is for people; with -q the lines of what went well are not.
func (o *undoOutput) line(text string) {
	if o.enc == nil && !o.quiet {
		fmt.Fprintln(o.env.Stdout, shown(text))
	}
}

// problemOutcomes are the events -q still shows: what was not reverted.
var problemOutcomes = map[string]bool{"kept": true, "failed": true, "unreachable": true, "warning": true}

func (o *undoOutput) event(ev undo.Event) {
	if o.enc == nil {
		if o.quiet && problemOutcomes[ev.Outcome] && ev.Text != "" {
			fmt.Fprintf(o.env.Stderr, "shoebox: %s\n", shown(ev.Text))
		}
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
	Unreachable int      `json:"unreachable"`
	DirsRemoved int      `json:"folders_removed"`
	DirsKept    int      `json:"folders_kept"`
	DryRun      bool     `json:"dry_run"`
	Error       string   `json:"error,omitempty"`
}

func (o *undoOutput) summary(st undo.Stats, dest string, err error) {
	if o.enc != nil {
		sum := undoSummary{Type: "summary", Runs: st.Runs, Reverted: st.Reverted, Already: st.Already, Kept: st.Kept,
			Failed: st.Failed, Unreachable: st.Unreachable, DirsRemoved: st.DirsRemoved, DirsKept: st.DirsKept, DryRun: st.DryRun}
		if sum.Runs == nil {
			sum.Runs = []string{}
		}
		if err != nil {
			sum.Error = err.Error()
		}
		_ = o.enc.Encode(sum)
		return
	}
	if len(st.Runs) > 0 && !o.quiet {
		printUndoSummary(o.env.Stdout, st, dest, err != nil)
	}
}
func printRecovery(w io.Writer, r recovery.Stats, quiet bool) {
	for _, p := range r.Problems {
		fmt.Fprintf(w, "shoebox: %s\n", shown(fmt.Sprint(p)))
	}
	if r.TempsRemoved+r.Adopted+r.MovesCompleted > 0 && !quiet {
		fmt.Fprintf(w, "shoebox: finished an interrupted run first: %d temp files removed, %d landed files recorded, %d moves completed\n",
			r.TempsRemoved, r.Adopted, r.MovesCompleted)
	}
}

// printUndoSummary prints what an undo did. One that stopped before its
// end (stopped says so: a drive that failed or went away, a file it could
// not revert) never says it undid the run: the error that follows says
// why, and that undo again finishes it.
func printUndoSummary(w io.Writer, st undo.Stats, dest string, stopped bool) {
	verb := map[bool]string{false: "undid", true: "would undo"}[st.DryRun]
	if stopped && !st.DryRun {
		verb = "did not finish undoing"
	}
	switch len(st.Runs) {
	case 1:
		fmt.Fprintf(w, "\n%s: %s run %s\n", shown(dest), verb, shown(st.Runs[0]))
	default:
		// Newest first: each run after the first stopped before its end
		// and the one before it in the list finished its work.
		fmt.Fprintf(w, "\n%s: %s %d runs as one job: run %s, which finished the work of the stopped run %s\n",
			shown(dest), verb, len(st.Runs), shown(st.Runs[0]), shown(strings.Join(st.Runs[1:], ", then of ")))
	}
	row := func(label string, n int) {
		if n > 0 {
			fmt.Fprintf(w, "  %-26s %8d\n", label, n)
		}
	}
	verb = "reverted"
	if st.DryRun {
		verb = "would revert"
	}
	row(verb, st.Reverted)
	row("already reverted earlier", st.Already)
	row("left in place (changed)", st.Kept)
	row("failed", st.Failed)
	row("backup copies not reached", st.Unreachable)
	row("empty folders removed", st.DirsRemoved)
	row("folders kept (not empty)", st.DirsKept)
	if st.Unfinished != "" {
		fmt.Fprintf(w, "the run before, %s (shoebox %s), also stopped before its end and is not undone: run shoebox undo again to undo it\n",
			shown(st.Unfinished), shown(strings.Join(st.UnfinishedArgs, " ")))
	}
	if st.DryRun {
		fmt.Fprintln(w, "dry run: nothing was changed")
	}
}
