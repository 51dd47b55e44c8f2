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

// workOf is a command line without its output-only flags. A flag's
// value is kept whatever it looks like (a backup folder named "-v" is a
// folder): a flag not known to take none (boolFlags) takes the next word,
// so an unknown flag can only split one job in two, never join two.
func workOf(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(out, args[i:]...)
		case len(a) < 2 || a[0] != '-':
			out = append(out, a)
		case a[1] == '-':
			name, _, hasValue := strings.Cut(a, "=")
			takesNext := !hasValue && !boolFlags[name]
			if !outputOnly[name] {
				out = append(out, a)
			}
			if takesNext && i+1 < len(args) {
				i++
				if !outputOnly[name] {
					out = append(out, args[i])
				}
			}
		default:
			// Short flags, bundled: -n, -v and -q say how the run talks;
			// the first other letter takes the rest of the word as its
			// value, or, last in the word, the next word.
			letters := a[1:]
			k := strings.IndexFunc(letters, func(r rune) bool { return !strings.ContainsRune("nvq", r) })
			if k < 0 {
				continue
			}
			out = append(out, a)
			if k == len(letters)-1 && i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
		}
	}
	return out
}

var (
	outputOnly = map[string]bool{"--dry-run": true, "--verbose": true, "--quiet": true, "--json": true,
		"--log-file": true, "--report": true, "--workers": true}
	// boolFlags are the flags of sort that take no value (internal/cli's
	// TestJournalKnowsSortsBooleanFlags holds this list to its flag set).
	boolFlags = map[string]bool{"--dry-run": true, "--verbose": true, "--quiet": true, "--json": true,
		"--one-off": true, "--verify": true, "--delete-duplicates": true, "--follow-links": true, "--hidden": true,
		"--no-mtime": true, "--mtime": true, "--eject": true, "--no-backup": true, "--checksum": true,
		"--reimport": true, "--skip-unknown": true}
)

// BoolFlag reports whether sort's flag name ("--json") takes no value, as
// SameWork reads a command line.
func BoolFlag(name string) bool { return boolFlags[name] }
