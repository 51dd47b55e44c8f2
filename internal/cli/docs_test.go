package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/shoebox-photos/shoebox/internal/storage"
)

// The README is the way in and docs/ holds the reference: every page and
// picture of docs/ is reached by links from the README, and every relative
// link of every page names a file that exists and, after '#', a heading
// of that file.
func TestDocsAreLinkedAndLinksResolve(t *testing.T) {
	top := "../.."
	reached := map[string]bool{"README.md": true}
	queue := []string{"README.md"}
	for len(queue) > 0 {
		page := queue[0]
		queue = queue[1:]
		for _, target := range pageLinks(t, filepath.Join(top, page)) {
			file, anchor, _ := strings.Cut(target, "#")
			rel := page
			if file != "" {
				rel = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(page), file)))
			}
			if _, err := os.Stat(filepath.Join(top, rel)); err != nil {
				t.Errorf("%s links to %s, which does not exist", page, target)
				continue
			}
			if anchor != "" && !hasHeading(t, filepath.Join(top, rel), anchor) {
				t.Errorf("%s links to %s: %s has no heading #%s", page, target, rel, anchor)
			}
			if !reached[rel] {
				reached[rel] = true
				if strings.HasSuffix(rel, ".md") {
					queue = append(queue, rel)
				}
			}
		}
	}
	docs, _ := filepath.Glob(filepath.Join(top, "docs", "*"))
	for _, d := range docs {
		rel := "docs/" + filepath.Base(d)
		if !reached[rel] {
			t.Errorf("%s is linked from no page reached from the README", rel)
		}
	}
	if len(reached) < 8 {
		t.Fatalf("only %d pages reached from the README: %v", len(reached), reached)
	}
}

// The first screen of the README shows what shoebox does and the two
// commands: the one that runs it and the one that tests it.
func TestReadmeShowsTheTwoCommandsOnItsFirstScreen(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	first := strings.Join(lines[:min(len(lines), 40)], "\n")
	for _, want := range []string{"go run ./cmd/shoebox sort ", "./test.sh"} {
		if !strings.Contains(first, "    "+want) {
			t.Errorf("the README's first 40 lines do not show the command %q", want)
		}
	}
}

// A fact stated in more than one place agrees everywhere: the worker
// counts the storage package chooses are the ones --help and the usage
// page give, and every flag the README's short table names is one sort
// knows.
func TestFactsStatedTwiceAgree(t *testing.T) {
	usage := strings.Join(docSection(t, "docs/usage.md", "# Usage", "\n## Exit codes"), "\n")
	for _, c := range []struct{ where, text, want string }{
		{"sort --help", sortHelp, fmt.Sprintf("%d on network shares", storage.NetworkWorkers)},
		{"sort --help", sortHelp, fmt.Sprintf("%d on SSDs", storage.DefaultWorkers)},
		{"docs/usage.md", usage, fmt.Sprintf("%d on a network share", storage.NetworkWorkers)},
		{"docs/usage.md", usage, fmt.Sprintf("else %d", storage.DefaultWorkers)},
	} {
		if !strings.Contains(c.text, c.want) {
			t.Errorf("%s does not say %q, as the storage package chooses", c.where, c.want)
		}
	}
	known := map[string]bool{}
	for _, f := range helpFlags(sortHelp) {
		known[f] = true
	}
	table := docSection(t, "README.md", "## The flags you will use most", "## Read more")
	found := 0
	for _, m := range flagPattern.FindAllStringSubmatch(strings.Join(table, "\n"), -1) {
		found++
		if !known[m[1]] {
			t.Errorf("the README's table names %s; shoebox sort --help does not", m[1])
		}
	}
	if found < 8 {
		t.Fatalf("read only %d flags from the README's table", found)
	}
}

var linkPattern = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// pageLinks lists the relative link targets of a Markdown page.
func pageLinks(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range linkPattern.FindAllStringSubmatch(string(data), -1) {
		if !strings.Contains(m[1], "://") && !strings.HasPrefix(m[1], "mailto:") {
			out = append(out, m[1])
		}
	}
	return out
}

// hasHeading reports whether a Markdown file has a heading whose
// GitHub-style anchor is anchor.
func hasHeading(t *testing.T, path, anchor string) bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if title, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " "); ok && strings.HasPrefix(line, "#") {
			if headingAnchor(title) == anchor {
				return true
			}
		}
	}
	return false
}

// headingAnchor is GitHub's anchor for a heading: lower case, punctuation
// dropped, spaces turned into hyphens.
func headingAnchor(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(title)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// docs/design.md's package map names every package of the module, so a
// newcomer's map of the code is never missing a piece.
func TestDesignListsEveryPackage(t *testing.T) {
	data, err := os.ReadFile("../../docs/design.md")
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for _, parent := range []string{"cmd", "internal"} {
		dirs, err := os.ReadDir(filepath.Join("../..", parent))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range dirs {
			pkg := parent + "/" + d.Name()
			sources, _ := filepath.Glob(filepath.Join("../..", pkg, "*.go"))
			if d.IsDir() && len(sources) > 0 && !strings.Contains(string(data), "\n    "+pkg+" ") {
				missing = append(missing, pkg)
			}
		}
	}
	if len(missing) > 0 {
		t.Errorf("docs/design.md's package map does not list %v", missing)
	}
}
