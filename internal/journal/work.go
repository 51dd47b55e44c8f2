package journal

import (
	"slices"
	"strings"
)

// SameWork reports whether two runs' command lines (Header.Args) do the
// same work: they are equal once the flags that change only what a run
// says or how fast it goes are dropped (-n, -v, -q, --json, --log-file,
// --report, --workers). The run that finishes a stopped one is the same
// command run again, and a user may well add -v or --json to watch it:
// undo reverts such runs as one job, log links them, and a {counter}
// run numbers around what they landed. This is the one place that rule
// is made.
func SameWork(a, b []string) bool {
	return slices.Equal(workOf(a), workOf(b))
}

// workOf is a command line without its output-only flags.
func workOf(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasValue := strings.Cut(a, "=")
		switch {
		case a == "--":
			return append(out, args[i:]...)
		case outputOnly[name]:
			if valued[name] && !hasValue {
				i++ // its value is the next word
			}
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Trim(a[1:], "nvq") == "":
			// -n, -v, -q and their bundles (-nv)
		default:
			out = append(out, a)
		}
	}
	return out
}

var (
	outputOnly = map[string]bool{"--dry-run": true, "--verbose": true, "--quiet": true, "--json": true,
		"--log-file": true, "--report": true, "--workers": true}
	valued = map[string]bool{"--log-file": true, "--report": true, "--workers": true}
)
