package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/shoebox-photos/shoebox/internal/spell"
)

// Flags follow GNU conventions through spf13/pflag (the parser behind
// cobra, kubectl and hugo): --flag value and --flag=value, bundled short
// flags (-nq), flags anywhere among the operands, and "--" to end them.
// pflag was chosen over the standard library's flag package, which takes
// neither bundling nor flags after operands, and over cobra, whose command
// tree, help and completion generators would replace help texts and
// completions this project writes by hand and tests.

// newFlags makes a FlagSet that reports errors instead of exiting.
func newFlags(name string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SetInterspersed(true)
	fs.SortFlags = false
	return fs
}

// parseFlags parses args and returns the operands. -h and --help come back
// as pflag.ErrHelp; any other mistake as a usage error in our words, with
// the closest flag suggested.
func parseFlags(fs *pflag.FlagSet, args []string) ([]string, error) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return fs.Args(), nil
	case errors.Is(err, pflag.ErrHelp):
		return nil, err
	}
	return nil, usagef("%s", flagMistake(fs, err))
}

// flagMistake rewrites pflag's message as a sentence naming the flag as it
// is spelt on the command line.
func flagMistake(fs *pflag.FlagSet, err error) string {
	var notExist *pflag.NotExistError
	var needs *pflag.ValueRequiredError
	var invalid *pflag.InvalidValueError
	switch {
	case errors.As(err, &notExist) && notExist.GetSpecifiedShortnames() != "":
		return fmt.Sprintf("%s: unknown flag -%s; see shoebox %s --help", fs.Name(), notExist.GetSpecifiedName(), fs.Name())
	case errors.As(err, &notExist):
		return fmt.Sprintf("%s: unknown flag --%s%s", fs.Name(), notExist.GetSpecifiedName(), suggestFlag(fs, notExist.GetSpecifiedName()))
	case errors.As(err, &needs):
		return fmt.Sprintf("%s: --%s needs a value", fs.Name(), needs.GetFlag().Name)
	case errors.As(err, &invalid):
		return fmt.Sprintf("%s: --%s %q: %v", fs.Name(), invalid.GetFlag().Name, invalid.GetValue(), errors.Unwrap(invalid))
	}
	return fmt.Sprintf("%s: %v", fs.Name(), err)
}

// suggestFlag names the defined flag closest to a mistyped one.
func suggestFlag(fs *pflag.FlagSet, typed string) string {
	var names []string
	fs.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	best, dist := spell.Closest(strings.ToLower(strings.TrimLeft(typed, "-")), names)
	if best == "" || dist > max(2, len(best)/3) {
		return ""
	}
	return fmt.Sprintf("; did you mean --%s?", best)
}

// suggestWord names the closest of a flag's values to a mistyped one:
// "; did you mean move?" for --mode mvoe.
func suggestWord(typed string, words []string) string {
	best, dist := spell.Closest(strings.ToLower(strings.TrimSpace(typed)), words)
	if best == "" || dist > max(2, len(best)/3) {
		return ""
	}
	return fmt.Sprintf("; did you mean %s?", best)
}

// onOff is a flag that reads "on"/"off" (and true/false, yes/no).
type onOff struct{ v *bool }

func (o onOff) Type() string { return "on|off" }

func (o onOff) String() string {
	if o.v != nil && *o.v {
		return "on"
	}
	return "off"
}

func (o onOff) Set(s string) error {
	switch strings.ToLower(s) {
	case "on", "true", "yes", "1":
		*o.v = true
	case "off", "false", "no", "0":
		*o.v = false
	default:
		return fmt.Errorf("want on or off, not %q", s)
	}
	return nil
}

// parseZone reads --video-tz: an IANA name ("Europe/Paris"), "UTC",
// "local", or a fixed offset ("+02:00", "-0700").
func parseZone(s string) (*time.Location, error) {
	switch strings.ToLower(s) {
	case "", "local":
		return time.Local, nil
	case "utc", "z":
		return time.UTC, nil
	}
	if s[0] == '+' || s[0] == '-' {
		for _, layout := range []string{"-07:00", "-0700", "-07"} {
			if t, err := time.Parse(layout, s); err == nil {
				_, off := t.Zone()
				return time.FixedZone(s, off), nil
			}
		}
		return nil, fmt.Errorf("time zone offset %q: want a form like +02:00", s)
	}
	loc, err := time.LoadLocation(s)
	if err != nil {
		return nil, fmt.Errorf("time zone %q: %w", s, err)
	}
	return loc, nil
}
