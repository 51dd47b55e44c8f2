package cli

import (
	"strings"
	"testing"
)

// The usage page (docs/usage.md), the man page and every shell's completion
// name every flag that a command's --help names, and the usage page names no
// flag of sort that --help does not: all of them come back to --help.
func TestReadmeManAndCompletionsMatchHelp(t *testing.T) {
	usage := strings.Join(docSection(t, "docs/usage.md", "# Usage", "\n## Exit codes"), "\n")
	var man strings.Builder
	if err := writeMan(&man); err != nil {
		t.Fatal(err)
	}
	manText := strings.ReplaceAll(man.String(), `\-`, "-")
	for cmd, text := range helps {
		if !strings.Contains(usage, "shoebox "+cmd) {
			t.Errorf("docs/usage.md does not show shoebox %s", cmd)
		}
		for _, f := range helpFlags(text) {
			if f == "--help" || !strings.HasPrefix(f, "--") {
				continue
			}
			if !strings.Contains(usage, "`"+f) && !strings.Contains(usage, " "+f) {
				t.Errorf("shoebox %s --help names %s; docs/usage.md does not", cmd, f)
			}
			if !strings.Contains(manText, f) {
				t.Errorf("shoebox %s --help names %s; the man page does not", cmd, f)
			}
			for shell, gen := range shells {
				if !strings.Contains(gen(), f[2:]) {
					t.Errorf("shoebox %s --help names %s; the %s completion does not", cmd, f, shell)
				}
			}
		}
	}
	sortFlags := map[string]bool{}
	for _, f := range helpFlags(sortHelp) {
		sortFlags[f] = true
	}
	_, table, _ := strings.Cut(usage, "Flags of `sort`:\n\n")
	table, _, _ = strings.Cut(table, "\n\n")
	found := flagPattern.FindAllStringSubmatch(table, -1)
	if len(found) < len(sortFlags)/2 {
		t.Fatalf("the table of sort flags in docs/usage.md was not found whole (%d flags read)", len(found))
	}
	for _, m := range found {
		if f := m[1]; strings.HasPrefix(f, "--") && !sortFlags[f] {
			t.Errorf("the table of sort flags in docs/usage.md names %s; shoebox sort --help does not", f)
		}
	}
}
