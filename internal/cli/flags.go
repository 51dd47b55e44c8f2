package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
)

// newFlags makes a FlagSet that reports errors instead of exiting.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseInterspersed lets flags stand anywhere among the operands, the way
// people type them ("shoebox sort ~/card ~/Pictures --dry-run"); a lone
// "--" ends flag parsing.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var flags, operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			operands = append(operands, a)
			continue
		}
		flags = append(flags, a)
		if takesValue(fs, a) && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	if err := fs.Parse(flags); err != nil {
		if err == flag.ErrHelp {
			return nil, err
		}
		return nil, usagef("%s", err)
	}
	return append(operands, fs.Args()...), nil
}

// takesValue reports whether the flag a ("-x", "--x") needs the next argument.
func takesValue(fs *flag.FlagSet, a string) bool {
	name := strings.TrimLeft(a, "-")
	if strings.Contains(name, "=") {
		return false
	}
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return false
	}
	return true
}

// onOff is a flag that reads "on"/"off" (and true/false, yes/no).
type onOff struct{ v *bool }

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
