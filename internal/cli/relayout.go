package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/shoebox-photos/shoebox/internal/config"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/relayout"
)

const relayoutHelp = `Usage: shoebox relayout [flags] -t TEMPLATE DEST

Moves every file of the library DEST to where TEMPLATE puts it, and then
records TEMPLATE as the library's layout (DEST/.shoebox/config.toml), so
that later sorts file into the new layout. Each file keeps the capture date
its import recorded; sidecars, RAW+JPEG pairs and Live Photo halves move
with their photo under its new name, grouped as sort groups them; a name
two files want is resolved as sort resolves it (the second gets a number).
Files the import history does not know, undated files and sidecars with no
photo stay where they are, and are listed. Folders the moves left empty
are removed (one that still holds anything stays).

The moves are one run: shoebox log lists it and shoebox undo RUN moves the
files back and records the old template again. A relayout killed halfway
leaves every file in its old place or its new one; running the same
relayout again finishes it. The recorded template changes only once every
file has moved. relayout takes the library lock, as sort does, and drops
the library index (the next sort rebuilds it).

The backup copies move with the files: with --backup DIR, or the backup
folder the library records, each file's copy in the backup folder moves
to the file's new path there, in the same run (undo moves them back). The
backup folder must be this library's (a sort with --backup made it) and
connected; a file whose copy is not there, or whose new place in the
backup is taken, is listed and its copy left. If the backup drive goes
away, relayout stops; running it again once the drive is back moves the
copies left behind and the rest.

Not yet: a template with {counter} is refused.

Flags:
  -t, --template TEMPLATE   the new layout (as sort -t)
      --backup DIR          the backup folder whose copies move too
                            (default: the one the library records)
  -n, --dry-run             list what would move; change nothing

Exit codes: 0 done, 1 fatal error (or some files could not be moved: run
it again, or the backup drive went away), 2 bad command line (not a
library, no -t, a bad template, the layout the library has already, a
backup folder that is not there or not this library's), 130 interrupted.
`

func cmdRelayout(ctx context.Context, env Env, args []string) error {
	fs := newFlags("relayout")
	tmpl := fs.StringP("template", "t", "", "")
	dry := fs.BoolP("dry-run", "n", false, "")
	backup := fs.String("backup", "", "")
	ops, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(ops) != 1 {
		return usagef("relayout needs one library folder: shoebox relayout -t TEMPLATE DEST")
	}
	if *tmpl == "" {
		return usagef("relayout needs the new layout: shoebox relayout -t TEMPLATE DEST")
	}
	to, err := layout.Parse(*tmpl)
	if err != nil {
		return usagef("relayout: -t: %v", err)
	}
	if err := requireFolder("relayout", ops[0]); err != nil {
		return err
	}
	from, err := recordedTemplate(ops[0])
	if err != nil {
		return err
	}
	opt := relayout.Options{Library: ops[0], From: from, To: to, DryRun: *dry, Backup: *backup,
		Moved:      func(m relayout.Move) { relayoutMoved(env, *dry, m) },
		Left:       func(l relayout.Left) { fmt.Fprintf(env.Stdout, "left       %s: %s\n", shown(l.Path), shown(l.Reason)) },
		BackupLeft: func(l relayout.Left) { fmt.Fprintf(env.Stdout, "backup     %s: %s\n", shown(l.Path), shown(l.Reason)) }}
	st, err := relayout.Run(ctx, opt)
	switch {
	case errors.Is(err, relayout.ErrNotLibrary), errors.Is(err, relayout.ErrSameTemplate),
		errors.Is(err, relayout.ErrCounter), errors.Is(err, pipeline.ErrConfig):
		return usagef("%v", err)
	case err != nil:
		if st.Moved > 0 {
			relayoutSummary(env, ops[0], *dry, st)
		}
		return err
	}
	relayoutSummary(env, ops[0], *dry, st)
	return nil
}

// relayoutSummary is relayout's last line (and, with a backup, its
// backup's), also printed when a run that moved files stopped.
func relayoutSummary(env Env, lib string, dry bool, st relayout.Stats) {
	verb := "moved"
	if dry {
		verb = "would move"
	}
	fmt.Fprintf(env.Stdout, "%s: %d files, %d %s, %d in place, %d left where they are", shown(lib), st.Files, st.Moved, verb, st.InPlace, st.Left)
	if st.DirsRemoved > 0 {
		fmt.Fprintf(env.Stdout, ", %d emptied folders removed", st.DirsRemoved)
	}
	if st.Run != "" {
		fmt.Fprintf(env.Stdout, " (run %s: shoebox undo %s reverses it)", st.Run, st.Run)
	}
	fmt.Fprintln(env.Stdout)
	if st.Backup != "" {
		fmt.Fprintf(env.Stdout, "backup %s: %d copies %s", shown(st.Backup), st.BackupMoved, verb)
		if st.BackupResumed > 0 {
			fmt.Fprintf(env.Stdout, ", %d left behind by the interrupted relayout moved", st.BackupResumed)
		}
		fmt.Fprintf(env.Stdout, ", %d not there, %d not moved\n", st.BackupMissing, st.BackupFailed)
	}
}

func relayoutMoved(env Env, dry bool, m relayout.Move) {
	verb := "moved"
	if dry {
		verb = "would move"
	}
	line := fmt.Sprintf("%-10s %s -> %s", verb, m.From, m.To)
	if m.Renamed {
		line += " (name taken: numbered)"
	}
	if m.Err != nil {
		line = fmt.Sprintf("%-10s %s: %v", "not moved", m.From, m.Err)
	}
	fmt.Fprintln(env.Stdout, shown(line))
}

// recordedTemplate is the layout the library records, or sort's default
// for a library that records none (sorted before templates were recorded).
func recordedTemplate(lib string) (*layout.Template, error) {
	s, _, err := config.ReadFile(config.LibraryPath(lib))
	if err != nil {
		return nil, err
	}
	src := DefaultTemplate
	if s.Template != nil {
		src = *s.Template
	}
	t, err := layout.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("relayout: the library's recorded template %q: %w", src, err)
	}
	return t, nil
}
