package cli

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// Every flag sort accepts is documented in its help, by its own name.
func TestSortHelpListsEveryFlag(t *testing.T) {
	var f sortFlags
	fs := newFlags("sort")
	f.register(fs)
	fs.VisitAll(func(fl *pflag.Flag) {
		if !strings.Contains(sortHelp, "--"+fl.Name+" ") && !strings.Contains(sortHelp, "--"+fl.Name+"\n") {
			t.Errorf("sort --help does not mention --%s", fl.Name)
		}
		if fl.Shorthand != "" && !strings.Contains(sortHelp, "-"+fl.Shorthand+", --"+fl.Name) {
			t.Errorf("sort --help does not give -%s as the short form of --%s", fl.Shorthand, fl.Name)
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
	if r := shoebox("--version"); r.code != ExitOK || r.stdout != "shoebox "+version()+"\n" {
		t.Errorf("--version:\n%s", r)
	}
	if r := shoebox(); r.code != ExitUsage || !strings.Contains(r.stderr, "Usage:") {
		t.Errorf("no arguments: want the usage on stderr and exit 2:\n%s", r)
	}
}
