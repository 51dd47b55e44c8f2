package cli

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// A big pile can hold thousands of files with one same trouble (640 files
// that are not images). Each is in --json and in the report; the terminal
// shows the first few of each kind as they happen and a count at the end,
// and repeats every failed path in a short list after the summary.
const (
	shownPerKind  = 5  // messages of one kind printed as they happen
	recapFailures = 20 // failed paths repeated after the summary
)

// collapser counts messages by kind and says which to print.
type collapser struct {
	all      bool // --verbose: every message is printed, none is cut
	kinds    map[string]*kind
	order    []string
	failures []failure // the first recapFailures failed paths
	failed   int
}

type kind struct {
	label string // the message with its paths and numbers taken out: what groups
	// exact is the first message with only its own file's paths taken out;
	// uniform says every message of the kind gave the same, so the recap
	// can show it as it is (a full drive's path, digits and all), not
	// the label with every digit an N.
	exact   string
	uniform bool
	what    string // "warning", "failure", "problem"
	n       int
	sample  string
}

type failure struct{ path, reason string }

func newCollapser(all bool) *collapser { return &collapser{all: all, kinds: map[string]*kind{}} }

// show counts ev under its kind and reports whether it is one of the first
// few of that kind, to be printed now.
func (c *collapser) show(what string, ev pipeline.Event) bool {
	exact := withoutFiles(ev)
	label := kindOf(exact)
	key := what + "\x00" + ev.Stage + "\x00" + label
	k := c.kinds[key]
	if k == nil {
		k = &kind{label: label, exact: exact, uniform: true, what: what, sample: ev.Reason}
		c.kinds[key] = k
		c.order = append(c.order, key)
	}
	k.uniform = k.uniform && exact == k.exact
	k.n++
	return k.n <= shownPerKind || c.all
}

// failedPath remembers a path that failed (or could not be read), for the
// list at the end.
func (c *collapser) failedPath(ev pipeline.Event) {
	c.failed++
	if len(c.failures) < recapFailures {
		path := ev.Src
		if path == "" {
			path = ev.Dst
		}
		c.failures = append(c.failures, failure{path: path, reason: ev.Reason})
	}
}

// recap writes, after the summary, the kinds that were cut short with
// their counts, then the failed paths.
func (c *collapser) recap(w io.Writer) {
	var cut []*kind
	for _, key := range c.order {
		if k := c.kinds[key]; k.n > shownPerKind && !c.all {
			cut = append(cut, k)
		}
	}
	sort.SliceStable(cut, func(i, j int) bool { return cut[i].n > cut[j].n })
	for _, k := range cut {
		text := k.label
		if k.uniform {
			text = k.exact
		}
		fmt.Fprintf(w, "shoebox: %s files: %s (%s: first %d shown, all in --json and --report)\n",
			group(int64(k.n)), shown(text), k.what, shownPerKind)
	}
	if c.failed == 0 {
		return
	}
	fmt.Fprintf(w, "shoebox: %s failed or unreadable:\n", plural(c.failed, "path", "paths"))
	for _, f := range c.failures {
		fmt.Fprintf(w, "  %s\n", shown(f.path))
	}
	if more := c.failed - len(c.failures); more > 0 {
		fmt.Fprintf(w, "  … and %s more (all in --json and --report)\n", group(int64(more)))
	}
}

var (
	quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	number = regexp.MustCompile(`[0-9]+`)
)

// withoutFiles is a message with the paths of its own files taken out.
func withoutFiles(ev pipeline.Event) string {
	s := ev.Reason
	for _, p := range []string{ev.Src, ev.Dst, ev.SameAs} {
		if p != "" {
			s = strings.ReplaceAll(s, quote.Path(p), "…")
			s = strings.ReplaceAll(s, p, "…")
		}
	}
	return tidy(s)
}

// kindOf is a message (its own files' paths already out) with what else
// may differ from file to file taken out: anything quoted, numbers.
// "IMG_1.JPG": not a JPEG (at byte 12) and "IMG_2.JPG": not a JPEG (at
// byte 40) are one kind.
func kindOf(s string) string {
	s = quoted.ReplaceAllString(s, "…")
	s = number.ReplaceAllString(s, "N")
	return tidy(s)
}

func tidy(s string) string {
	s = strings.TrimLeft(s, ":; ")
	return strings.TrimPrefix(s, "…: ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return group(int64(n)) + " " + many
}
