package journal

import "testing"

// A dry run, -v, --json, a log, a report or other workers do the same
// work as the command without them; anything else is another command.
func TestSameWorkDropsOnlyWhatChangesNoFile(t *testing.T) {
	base := []string{"sort", "-t", "{year}/{counter}{ext}", "card", "lib"}
	for _, extra := range [][]string{
		{"-n"}, {"--dry-run"}, {"-nv"}, {"-q"}, {"--json"}, {"--log-file", "run.log"}, {"--log-file=run.log"},
		{"--report", "r.html"}, {"--workers", "8"}, {"--workers=2"}, {"--verbose", "--quiet"},
	} {
		args := append(append([]string{"sort"}, extra...), base[1:]...)
		if !SameWork(args, base) {
			t.Errorf("%q: %q, want the same work as %q", args, workOf(args), base)
		}
	}
	for _, other := range [][]string{
		{"sort", "-t", "{year}/{counter}{ext}", "card2", "lib"},
		{"sort", "--mode", "move", "-t", "{year}/{counter}{ext}", "card", "lib"},
		{"sort", "-nt", "{year}/{counter}{ext}", "card", "lib"},
		{"sort", "-t", "{year}/{counter}{ext}", "--", "-n", "lib"},
	} {
		if SameWork(other, base) {
			t.Errorf("%q taken for the same work as %q", other, base)
		}
	}
}
