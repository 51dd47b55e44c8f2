package cli

import (
	"errors"
	"fmt"
	"github.com/spf13/pflag"
	iofs "io/fs"
	"os"
	"path/filepath"

	"github.com/shoebox-photos/shoebox/internal/config"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// flagKeys maps each sort flag (long or short spelling) to its config key.
var flagKeys = map[string]string{
	"template": "template", "t": "template", "mode": "mode", "workers": "workers",
	"dedup": "dedup", "unknown-dir": "unknown_dir", "video-tz": "video_tz", "tz": "tz",
	"no-mtime": "no_mtime", "verify": "verify", "follow-links": "follow_links", "hidden": "hidden",
	"backup": "backup", "no-backup": "backup",
}

// applyConfig fills every sort flag the user did not type from the config
// files — the library's DEST/.shoebox/config.toml over the user's
// ~/.config/shoebox/config.toml — so a library keeps its layout across runs
// and machines. Flags on the command line always win.
func applyConfig(env Env, fs *pflag.FlagSet, f *sortFlags, dest string) error {
	file, _, err := config.Load(dest)
	switch {
	case errors.Is(err, config.ErrInvalid):
		return usagef("%s", err)
	case errors.Is(err, iofs.ErrPermission):
		// Someone else's config (running as another user with their
		// HOME): say so and go on with the flags and the defaults.
		fmt.Fprintf(env.Stderr, "shoebox: warning: %s; going on without it\n", shown(sentence(err)))
		return nil
	case err != nil:
		return err
	}
	given := map[string]bool{}
	fs.Visit(func(fl *pflag.Flag) { given[flagKeys[fl.Name]] = true })
	set := func(key string, apply func()) {
		if !given[key] {
			apply()
		}
	}
	if v := file.Template; v != nil {
		set("template", func() { f.template = *v })
	}
	if v := file.Mode; v != nil {
		set("mode", func() { f.mode, f.modeFrom = *v, modeOrigin(dest) })
	}
	if v := file.Workers; v != nil {
		set("workers", func() { f.workers = *v })
	}
	if v := file.Dedup; v != nil {
		set("dedup", func() { f.dedup = *v })
	}
	if v := file.UnknownDir; v != nil {
		set("unknown_dir", func() { f.unknown = *v })
	}
	if v := file.VideoTZ; v != nil {
		set("video_tz", func() { f.videoTZ = *v })
	}
	if v := file.TZ; v != nil {
		set("tz", func() { f.tz = *v })
	}
	if v := file.Backup; v != nil {
		set("backup", func() { f.backup, f.backupFrom = *v, config.LibraryPath(dest) })
	}
	for _, b := range []struct {
		key string
		v   *bool
		to  *bool
	}{{"no_mtime", file.NoMtime, &f.noMtime}, {"verify", file.Verify, &f.verify}, {"follow_links", file.FollowLinks, &f.follow}, {"hidden", file.Hidden, &f.hidden}} {
		if b.v != nil {
			v, to := *b.v, b.to
			set(b.key, func() { *to = v })
		}
	}
	return nil
}

// rememberLayout records the template in a library that has no config
// yet, so the next sort into it — from any machine — uses the same layout.
func rememberLayout(dest, template string) error {
	if _, found, err := config.ReadFile(config.LibraryPath(dest)); err != nil || found {
		return err
	}
	return config.SaveLibrary(dest, config.Settings{Template: &template})
}

// modeOrigin names the config file that set the mode: the library's wins
// over the user's, as in config.Load. It is shown before a run whose mode
// came from a file, since a move there empties a card nobody asked to empty.
func modeOrigin(dest string) string {
	for _, p := range []string{config.LibraryPath(dest), config.UserPath()} {
		if p == "" {
			continue
		}
		if s, found, err := config.ReadFile(p); err == nil && found && s.Mode != nil {
			if abs, err := filepath.Abs(p); err == nil {
				return abs
			}
			return p
		}
	}
	return ""
}

// checkConfiguredBackup refuses a run whose backup folder, set in the
// library's config, is not there: its drive is most likely not connected,
// and neither writing under an empty mount point nor importing without
// the second copy is what the setting asked for.
func checkConfiguredBackup(f sortFlags) error {
	if f.backupFrom == "" {
		return nil
	}
	if state, ok := fsx.StateFolderOf(f.backup); ok {
		return usagef("%s", &fsx.InsideStateError{What: "backup folder", Path: f.backup, Origin: shown(f.backupFrom), State: state})
	}
	fi, err := os.Stat(f.backup)
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		return usagef("backup folder %s (set in %s) is not there: is its drive connected? Connect it, or run with --no-backup to import without the second copy this time", quote.Path(f.backup), shown(f.backupFrom))
	case err != nil:
		return usagef("backup folder %s (set in %s): %s", quote.Path(f.backup), shown(f.backupFrom), fsx.Bare(err))
	case !fi.IsDir():
		return usagef("backup folder %s (set in %s) is not a folder", quote.Path(f.backup), shown(f.backupFrom))
	}
	return nil
}

// checkTemplateChange refuses a -t that differs from the template the
// library records: its files would start a second layout beside the
// first, which nobody notices until the library is half one, half the
// other. --one-off is the explicit choice of that template for this run.
func checkTemplateChange(fs *pflag.FlagSet, f sortFlags, operands []string) error {
	typed := fs.Changed("template")
	if f.oneOff && !typed {
		return usagef("--one-off goes with -t/--template: it uses that template for this run only")
	}
	if !typed || f.oneOff || len(operands) < 2 {
		return nil
	}
	dest := operands[len(operands)-1]
	s, found, err := config.ReadFile(config.LibraryPath(dest))
	if err != nil || !found || s.Template == nil || *s.Template == f.template {
		return nil // an unreadable config was reported by applyConfig
	}
	return usagef("-t %q differs from the layout the library records (%q, in %s): this run's files would start a second layout beside the first. Leave -t out to keep the library's layout, or add --one-off to use this template for this run only",
		f.template, *s.Template, shown(config.LibraryPath(dest)))
}
