package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/eject"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// ejectSources unmounts the sources' volumes (--eject) when every photo
// and video on them is safely in the library, and says what it did: an
// unmounted card, or why it stays mounted, naming what stays on it.
// left are the photos and videos the run met and left on the sources.
func ejectSources(env Env, f sortFlags, cfg pipeline.Config, sum pipeline.Summary, runErr error, left []eject.Left) {
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
	case cfg.Mode == transfer.Symlink:
		say("not done: --mode symlink puts links to the sources in the library, not their bytes; the sources stay mounted")
		return
	}
	results, err := eject.Volumes(eject.Request{Sources: cfg.Sources, Dest: cfg.Dest, Backup: cfg.Backup, Hidden: cfg.Hidden, Left: left})
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
			say("%s (%s) unmounted (%s): every photo and video on it is in the library%s; the card can be removed", shown(r.Point), shown(r.Device), shown(r.Why), andBackup(cfg))
		case !r.Done && r.Why == "" && r.Stays.Keeps():
			say("%s left mounted: %s", shown(r.Point), staying(r.Stays))
		case !r.Done:
			say("%s left mounted: %s", shown(r.Source), shown(r.Why))
		}
	}
}

// staying says what keeps a card mounted: how many photos and videos on
// it are in no library, the first few, and why they stay.
func staying(s eject.Stays) string {
	var b strings.Builder
	if s.Count > 0 {
		atLeast := ""
		if s.Unchecked != "" {
			atLeast = "at least "
		}
		if s.Count == 1 {
			fmt.Fprintf(&b, "%s1 photo or video on it is not in the library: ", atLeast)
		} else {
			fmt.Fprintf(&b, "%s%d photos or videos on it are not in the library: ", atLeast, s.Count)
		}
		for i, p := range s.Paths {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(shown(p))
		}
		if s.Count > len(s.Paths) {
			b.WriteString(", …")
		}
		fmt.Fprintf(&b, " (%s)", strings.Join(s.Whys, ", or "))
	}
	if s.Unchecked != "" {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "not every file on it could be checked: %s", shown(s.Unchecked))
	}
	return b.String()
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
