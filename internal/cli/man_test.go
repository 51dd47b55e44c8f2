package cli

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

func renderedMan(t *testing.T) string {
	t.Helper()
	r := shoebox("help", "man")
	if r.code != ExitOK || !strings.HasPrefix(r.stdout, ".TH SHOEBOX 1 ") {
		t.Fatalf("shoebox help man: want a man page on stdout and exit 0:\n%s", r)
	}
	return r.stdout
}

// manSections returns the text of the man page (requests dropped, escapes
// undone), whole and per command section (.SS shoebox CMD).
func manSections(roff string) (all string, perCommand map[string]string) {
	unescape := strings.NewReplacer(`\&`, "", `\-`, "-", `\(em`, "—", `\e`, `\`)
	perCommand = map[string]string{}
	var b strings.Builder
	section := ""
	for _, line := range strings.Split(roff, "\n") {
		text := line
		if strings.HasPrefix(line, ".") {
			req, arg, _ := strings.Cut(line, " ")
			switch req {
			case ".SS":
				section = strings.TrimPrefix(unescape.Replace(arg), "shoebox ")
			case ".B", ".SH":
			default:
				continue
			}
			text = arg
		}
		text = unescape.Replace(text) + "\n"
		b.WriteString(text)
		if section != "" {
			perCommand[section] += text
		}
	}
	return b.String(), perCommand
}

// The man page says everything --help says: every line of the main help
// and of every command's help, every command, and each command's flags in
// that command's section.
func TestManPageHoldsEveryHelpText(t *testing.T) {
	all, perCommand := manSections(renderedMan(t))
	lines := map[string]bool{}
	for _, l := range strings.Split(all, "\n") {
		lines[strings.TrimSpace(l)] = true
	}
	texts := map[string]string{"main": mainHelp}
	for c, h := range helps {
		texts[c] = h
	}
	for name, text := range texts {
		for _, l := range strings.Split(text, "\n") {
			if l = strings.TrimSpace(l); l != "" && !lines[strings.Replace(l, " — ", " - ", 1)] {
				t.Errorf("the man page lacks this line of the %s help: %q", name, l)
			}
		}
	}
	for _, c := range commandNames {
		if !strings.Contains(all, "shoebox "+c) {
			t.Errorf("the man page does not name the command %q", c)
		}
		h, ok := helps[c]
		if !ok {
			continue
		}
		if perCommand[c] == "" {
			t.Errorf("the man page has no section for %q", c)
		}
		for _, f := range helpFlags(h) {
			if f != "--help" && !strings.Contains(perCommand[c], f) {
				t.Errorf("the man page's section for %s does not give its flag %s", c, f)
			}
		}
	}
}

// groff reads the page without a warning, and what it prints keeps the
// flags as typed (ASCII hyphens).
func TestManPageRendersWithGroff(t *testing.T) {
	groff, err := exec.LookPath("groff")
	if err != nil {
		t.Skip("groff is not installed: the roff is checked by TestManPageHoldsEveryHelpText only")
	}
	// -k: UTF-8 input, as man-db reads it; -Tascii -P-cbou: plain text.
	cmd := exec.Command(groff, "-k", "-man", "-Tascii", "-ww", "-P-cbou")
	cmd.Stdin = strings.NewReader(renderedMan(t))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("groff -man: %v\n%s", err, stderr.String())
	}
	plain := stdout.String()
	for _, want := range []string{"--dry-run", "--template T", "shoebox sort [flags] SRC... DEST", "Exit codes:"} {
		if !strings.Contains(plain, want) {
			t.Errorf("groff's rendering lacks %q:\n%s", want, plain)
		}
	}
}
