package cli

import (
	"testing"

	"github.com/spf13/pflag"

	"github.com/shoebox-photos/shoebox/internal/journal"
)

// journal.SameWork reads sort's command lines without the CLI's flag set:
// it must know which of sort's flags take no value, or it would take the
// word after such a flag for its value. A flag it does not know is taken
// to have one (it can then only split one job in two, never join two).
func TestJournalKnowsSortsBooleanFlags(t *testing.T) {
	fs := pflag.NewFlagSet("sort", pflag.ContinueOnError)
	var f sortFlags
	f.register(fs)
	n := 0
	fs.VisitAll(func(fl *pflag.Flag) {
		n++
		isBool := fl.NoOptDefVal != ""
		if got := journal.BoolFlag("--" + fl.Name); got != isBool {
			t.Errorf("--%s: journal.BoolFlag says %v, the flag set %v", fl.Name, got, isBool)
		}
	})
	if fs.Lookup("since") == nil || n < 25 {
		t.Fatalf("sort's flag set has %d flags (filters included?): not the whole set", n)
	}
}
