package cli

import (
	"flag"
	"strings"
	"testing"
)

// Every flag sort accepts is documented in its help, by its own name.
func TestSortHelpListsEveryFlag(t *testing.T) {
	var f sortFlags
	fs := flag.NewFlagSet("sort", flag.ContinueOnError)
	f.register(fs)
	fs.VisitAll(func(fl *flag.Flag) {
		dashes := "--"
		if len(fl.Name) == 1 {
			dashes = "-"
		}
		if !strings.Contains(sortHelp, dashes+fl.Name+" ") && !strings.Contains(sortHelp, dashes+fl.Name+",") {
			t.Errorf("sort --help does not mention %s%s", dashes, fl.Name)
		}
	})
}

func TestHelpAndVersion(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"help"}, {"-h"}} {
		r := shoebox(args...)
		if r.code != ExitOK || !strings.Contains(r.stdout, "shoebox sort [flags] SRC... DEST") || !strings.Contains(r.stdout, "Exit codes:") {
			t.Errorf("%v:\n%s", args, r)
		}
	}
	for _, args := range [][]string{{"sort", "--help"}, {"help", "sort"}} {
		r := shoebox(args...)
		if r.code != ExitOK || !strings.Contains(r.stdout, "--report FILE") || !strings.Contains(r.stdout, "Examples:") {
			t.Errorf("%v:\n%s", args, r)
		}
	}
	if r := shoebox("--version"); r.code != ExitOK || r.stdout != "shoebox "+Version+"\n" {
		t.Errorf("--version:\n%s", r)
	}
	if r := shoebox(); r.code != ExitUsage || !strings.Contains(r.stderr, "Usage:") {
		t.Errorf("no arguments: want the usage on stderr and exit 2:\n%s", r)
	}
}
