package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/spf13/pflag"
	"io"
	"strings"

	"shoebox/internal/undo"
)

const undoHelp = `Usage: shoebox undo [--dry-run] [DEST]

Reverses the last run into DEST (default: the current folder): moved files
go back where they came from, copies are removed if they are unchanged since
and their source still holds the same content, and the folders shoebox made
are removed once empty. A run that was killed and then finished by running
the same command again is undone as one job. Anything that cannot be proven
to be shoebox's own, unchanged work is left alone and reported.

Flags:
  -n, --dry-run   print what would be reverted, change nothing

Exit codes: 0 all reverted, 1 fatal error, 2 bad command line, 3 some files
were left in place because they changed.
`

func cmdUndo(ctx context.Context, env Env, args []string) error {
	fs := newFlags("undo")
	var dry bool
	fs.BoolVarP(&dry, "dry-run", "n", false, "")
	operands, err := parseFlags(fs, args)
	if errors.Is(err, pflag.ErrHelp) {
		fmt.Fprint(env.Stdout, undoHelp)
		return nil
	}
	if err != nil {
		return err
	}
	if len(operands) > 1 {
		return usagef("undo takes at most one library folder: shoebox undo [DEST]")
	}
	dest := "."
	if len(operands) == 1 {
		dest = operands[0]
	}
	if err := requireFolder("undo", dest); err != nil {
		return err
	}
	st, err := undo.Last(ctx, dest, undo.Options{DryRun: dry, Events: func(line string) {
		fmt.Fprintln(env.Stdout, shown(line))
	}})
	printRecovery(env.Stderr, st.Recovery)
	if len(st.Runs) > 0 {
		printUndoSummary(env.Stdout, st, dest)
	}
	if err != nil {
		return err
	}
	if st.Kept > 0 {
		return exitError{ExitIncomplete}
	}
	return nil
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
