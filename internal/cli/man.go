package cli

import (
	"fmt"
	"io"
	"strings"
)

// The man page (shoebox help man > shoebox.1) is rendered from the very
// texts --help prints: mainHelp, then helps[command] for every command in
// commandNames, so it can never say something --help does not. The
// rendering is mechanical and keeps every line of every help text:
//   - an unindented line ending in ":" ("Flags:", "Examples:") is a heading;
//   - indented lines (flag tables, usage lines, examples) are kept as they
//     are, unfilled, so their columns survive;
//   - other lines are prose, filled by the man reader;
//   - a blank line starts a new paragraph.

// writeMan writes shoebox(1) in man(7) roff.
func writeMan(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, ".TH SHOEBOX 1 \"\" \"shoebox %s\" \"User Commands\"\n", roffEscape(version()))
	title, body, _ := strings.Cut(mainHelp, "\n")
	b.WriteString(".SH NAME\n")
	b.WriteString(roffLine(strings.Replace(title, " — ", " - ", 1)) + "\n")
	b.WriteString(".SH DESCRIPTION\n")
	renderHelp(&b, body)
	b.WriteString(".SH COMMANDS\n")
	for _, c := range commandNames {
		text, ok := helps[c]
		if !ok {
			continue // version, help: described by their usage line above
		}
		fmt.Fprintf(&b, ".SS %s\n", roffLine("shoebox "+c))
		renderHelp(&b, text)
	}
	b.WriteString(".SH SEE ALSO\nREADME.md and docs/ in shoebox's source, for every guarantee and its test.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// renderHelp appends one help text, line by line (see above).
func renderHelp(b *strings.Builder, text string) {
	verbatim, started, newParagraph := false, false, false
	emit := func(verbatimLine bool, roff string) {
		if verbatim && (!verbatimLine || newParagraph) {
			b.WriteString(".fi\n.RE\n")
			verbatim = false
		}
		if newParagraph && started {
			b.WriteString(".PP\n")
		}
		if verbatimLine && !verbatim {
			b.WriteString(".RS 2\n.nf\n")
			verbatim = true
		}
		b.WriteString(roff)
		started, newParagraph = true, false
	}
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		switch {
		case strings.TrimSpace(line) == "":
			newParagraph = true
		case isHelpHeading(line):
			newParagraph = true
			emit(false, ".B "+roffLine(line)+"\n.br\n")
		case line[0] == ' ':
			emit(true, roffLine(strings.TrimPrefix(line, "  "))+"\n")
		default:
			emit(false, roffLine(line)+"\n")
		}
	}
	if verbatim {
		b.WriteString(".fi\n.RE\n")
	}
}

// isHelpHeading: "Flags:", "Narrowing an import (...):", "Exit codes:" —
// an unindented line ending in a colon, or starting with one word and a
// colon followed by its text ("Exit codes: 0 done ...") is prose.
func isHelpHeading(line string) bool {
	return line[0] != ' ' && strings.HasSuffix(line, ":") && !strings.HasPrefix(line, "Usage: ")
}

// roffLine escapes one line of text for roff: backslashes, minus signs
// (so that flags copy as ASCII hyphens) and a leading control character.
func roffLine(s string) string {
	s = roffEscape(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

func roffEscape(s string) string {
	return strings.NewReplacer(`\`, `\e`, "-", `\-`, "—", `\(em`).Replace(s)
}
