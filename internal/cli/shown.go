package cli

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// shown makes a name or message safe to print on a terminal or in a log:
// every character that could move the cursor, clear the screen, start a
// new line (and so forge a line of shoebox's own output) or reorder the
// text is written as an escape instead — C0 controls, DEL and C1 controls
// (\n, \r, \t, \x1b, \u009b …), the Unicode bidirectional overrides and
// isolates and the line and paragraph separators (\u202e …) — and a byte
// that is not valid UTF-8 is written \xNN. Everything else, backslashes
// included, is printed as is, so ordinary paths read as they are. It is
// the one function through which every name reaches human output.
func shown(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needsEscape(s string) bool {
	for _, r := range s { // an invalid byte decodes as RuneError
		if r < 0x20 || r == 0x7f || r == utf8.RuneError || unsafeRune(r) {
			return true
		}
	}
	return false
}

// unsafeRune reports the characters beyond ASCII controls that change how
// a terminal lays text out: C1 controls (0x9b is a CSI on many terminals),
// the bidirectional marks, embeddings, overrides and isolates that can
// make "gpj.exe" read "exe.jpg", and the Unicode line separators.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	}
	return false
}
