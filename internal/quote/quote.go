// Package quote writes a path into a message the way a user would type it
// back: in double quotes, with the characters that could mislead a
// terminal escaped (as Go's %q escapes them), and the platform's folder
// separator left as it is. %q alone doubles every backslash, so on
// Windows a message would read "C:\\Users\\ann\\Pictures", a path that
// exists nowhere; every message that names a path goes through Path.
package quote

import (
	"path/filepath"
	"strconv"
	"strings"
)

// Path is p quoted for a message: exactly %q on Linux, macOS and FreeBSD;
// on Windows %q of each name between backslashes, the backslashes kept
// single ("C:\Users\ann\IMG 1.JPG").
func Path(p string) string {
	return withSeparator(p, filepath.Separator)
}

// Paths is each path quoted, as %q writes a list: ["a" "b"].
func Paths(ps []string) string {
	q := make([]string, len(ps))
	for i, p := range ps {
		q[i] = Path(p)
	}
	return "[" + strings.Join(q, " ") + "]"
}

// withSeparator quotes p, keeping sep unescaped when it is a backslash;
// split out so both platforms' forms are tested on every platform.
func withSeparator(p string, sep rune) string {
	if sep != '\\' {
		return strconv.Quote(p)
	}
	names := strings.Split(p, `\`)
	for i, n := range names {
		q := strconv.Quote(n)
		names[i] = q[1 : len(q)-1]
	}
	return `"` + strings.Join(names, `\`) + `"`
}
