package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// A documented feature is a tested feature: every flag and template token
// that the docs (docs/usage.md, docs/templates.md) or a command's --help names must be passed to the real
// command by at least one CLI script (testdata/script/*.txtar), so a flag or
// token can never again be documented while unwired.
func TestEveryDocumentedFlagAndTokenIsExercised(t *testing.T) {
	used := scriptInvocations(t)
	var missing []string
	for cmd, flags := range documentedFlags(t) {
		for _, f := range flags {
			if !mentions(used[cmd], f) {
				missing = append(missing, "shoebox "+cmd+" "+f)
			}
		}
	}
	for _, tok := range documentedTokens(t) {
		if !mentions(used["sort"], tok) {
			missing = append(missing, "shoebox sort -t …"+tok+"…")
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("documented but never run by a script in testdata/script: %s", m)
	}
}

// scriptInvocations collects, per command, the text of every
// "exec shoebox COMMAND ..." line of the CLI scripts.
func scriptInvocations(t *testing.T) map[string][]string {
	t.Helper()
	files, err := filepath.Glob("testdata/script/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts found: %v", err)
	}
	exec := regexp.MustCompile(`^(?:! )?exec shoebox (\S+)(.*)$`)
	used := map[string][]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if m := exec.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
				used[m[1]] = append(used[m[1]], m[2]+" ")
			}
		}
	}
	return used
}

// mentions reports whether any invocation passes arg as a whole word
// (a flag followed by a space or "=", or a token anywhere in a value).
func mentions(lines []string, arg string) bool {
	for _, l := range lines {
		if strings.HasPrefix(arg, "{") {
			// {mon:upper} exercises {mon}
			if strings.Contains(l, arg) || strings.Contains(l, strings.TrimSuffix(arg, "}")+":") {
				return true
			}
			continue
		}
		if strings.Contains(l, " "+arg+" ") || strings.Contains(l, " "+arg+"=") {
			return true
		}
	}
	return false
}

// documentedFlags lists each command's flags as its --help shows them, and
// sort's flags as the table in docs/usage.md lists them.
func documentedFlags(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for cmd, text := range helps {
		out[cmd] = flagsIn(text)
	}
	for _, line := range docSection(t, "docs/usage.md", "Flags of `sort`", "Messages at scale") {
		if strings.HasPrefix(line, "| `-") {
			cell := strings.SplitN(line, "|", 3)[1]
			out["sort"] = append(out["sort"], flagsIn(cell)...)
		}
	}
	for cmd, flags := range out {
		out[cmd] = uniq(flags)
	}
	return out
}

func flagsIn(text string) []string {
	var flags []string
	for _, m := range flagPattern.FindAllStringSubmatch(text, -1) {
		flags = append(flags, m[1])
	}
	return flags
}

// documentedTokens lists the template tokens of the token table in docs/templates.md.
func documentedTokens(t *testing.T) []string {
	t.Helper()
	tok := regexp.MustCompile(`\x60(\{[a-z]+(?::[0-9a-z]+)?\})\x60`)
	var toks []string
	for _, line := range docSection(t, "docs/templates.md", "# Templates and tokens", "`{counter}` numbers") {
		for _, m := range tok.FindAllStringSubmatch(line, -1) {
			toks = append(toks, m[1])
		}
	}
	if len(toks) < 10 {
		t.Fatalf("found only %d tokens in the token table of docs/templates.md: %v", len(toks), toks)
	}
	return uniq(toks)
}

// docSection returns the lines of a page of the repository (a path from
// its top) from the first line holding from up to the first holding to.
func docSection(t *testing.T, page, from, to string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../..", page))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, from)
	j := strings.Index(s[max(i, 0):], to)
	if i < 0 || j < 0 {
		t.Fatalf("%s has no section from %q to %q", page, from, to)
	}
	return strings.Split(s[i:i+j], "\n")
}

func uniq(xs []string) []string {
	sort.Strings(xs)
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}
