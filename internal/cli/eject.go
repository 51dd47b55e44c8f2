package cli

import (
	"errors"
	"fmt"

	"github.com/shoebox-photos/shoebox/internal/eject"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
)

// ejectSources unmounts the sources' volumes (--eject) when every file
// the run planned is safely in the library, and says what it did: an
// unmounted card, or why it stays mounted.
func ejectSources(env Env, f sortFlags, cfg pipeline.Config, sum pipeline.Summary, runErr error) {
	say := func(format string, a ...any) {
		fmt.Fprintf(env.Stderr, "shoebox: eject: "+format+"\n", a...)
	}
	switch {
	case cfg.DryRun:
		say("a dry run unmounts nothing")
		return
	case runErr != nil || sum.Incomplete():
		say("not done: %s; the sources stay mounted, so that the same command can finish the job", notAllSafe(sum, runErr))
		return
	}
	results, err := eject.Volumes(cfg.Sources, cfg.Dest, cfg.Backup)
	if errors.Is(err, eject.ErrUnsupported) {
		say("%s: unmount the card yourself", err)
		return
	}
	if err != nil {
		say("not done: %s", shown(err.Error()))
		return
	}
	for _, r := range results {
		switch {
		case r.Done && !f.quiet:
			say("%s (%s) unmounted (%s): every file is in the library%s; the card can be removed", shown(r.Point), shown(r.Device), shown(r.Why), andBackup(cfg))
		case !r.Done:
			say("%s left mounted: %s", shown(r.Source), shown(r.Why))
		}
	}
}

// notAllSafe says why a run does not allow an eject.
func notAllSafe(sum pipeline.Summary, runErr error) string {
	switch {
	case sum.Failed > 0:
		return fmt.Sprintf("%d files failed", sum.Failed)
	case sum.NotAttempted > 0:
		return fmt.Sprintf("%d files were not attempted", sum.NotAttempted)
	case sum.Problems > 0:
		return fmt.Sprintf("%d paths could not be read", sum.Problems)
	case runErr != nil:
		return "the run stopped: " + shown(runErr.Error())
	}
	return "the run did not finish"
}

// andBackup names the backup in the eject line of a run with --backup.
func andBackup(cfg pipeline.Config) string {
	if cfg.Backup == "" {
		return ""
	}
	return " and in the backup"
}
