package filter

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"
)

// Lists are --exclude-from, --include-from and --files-from: one pattern
// or path a line, as rsync and rclone read them. A blank line and a line
// whose first character is # or ; are skipped; a line's trailing \r (a
// file saved on Windows) is not part of it; the rest of the line is kept
// as it is, spaces included, since a file name may hold them.

// Bounds on a list read from an untrusted file or a pipe.
const (
	MaxListLine  = 64 << 10 // bytes in one line
	MaxListBytes = 64 << 20 // bytes in one list
)

// ErrList is the error of a list that cannot be read as one.
var ErrList = errors.New("bad list")

// Line is one entry of a list and the number of its line, from 1.
type Line struct {
	N    int
	Text string
}

// ReadList reads a list's entries. name is how the list is shown in an
// error ("excludes.txt", "stdin"), with the line: "excludes.txt:3".
func ReadList(r io.Reader, name string) ([]Line, error) {
	return readList(r, name, MaxListBytes)
}

// readList is ReadList with a limit of maxBytes.
func readList(r io.Reader, name string, maxBytes int64) ([]Line, error) {
	lr := &io.LimitedReader{R: r, N: maxBytes + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 0, 4096), MaxListLine)
	var entries []Line
	for n := 1; sc.Scan(); n++ {
		if lr.N <= 0 {
			return nil, tooLong(name, maxBytes)
		}
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if strings.ContainsRune(line, 0) {
			return nil, fmt.Errorf("%s:%d: a NUL byte: %w", name, n, ErrList)
		}
		entries = append(entries, Line{n, line})
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("%s: a line longer than %d bytes: %w", name, MaxListLine, ErrList)
	} else if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if lr.N <= 0 {
		return nil, tooLong(name, maxBytes)
	}
	return entries, nil
}

func tooLong(name string, maxBytes int64) error {
	if maxBytes >= 1<<20 {
		return fmt.Errorf("%s: longer than %d MB: %w", name, maxBytes>>20, ErrList)
	}
	return fmt.Errorf("%s: longer than %d bytes: %w", name, maxBytes, ErrList)
}

// Listed is the set of files --files-from names: paths relative to a
// source (DCIM/IMG_1.JPG, ./DCIM/IMG_1.JPG), or absolute ones.
type Listed struct {
	paths  map[string]bool // cleaned slash paths, relative or absolute
	hasAbs bool
}

// NewListed makes the set from a list's entries.
func NewListed(entries []Line) *Listed {
	l := &Listed{paths: map[string]bool{}}
	for _, e := range entries {
		l.paths[listKey(e.Text)] = true
		l.hasAbs = l.hasAbs || filepath.IsAbs(e.Text)
	}
	return l
}

// Has reports whether the file at p (as scanned), rel below its source,
// is listed.
func (l *Listed) Has(p, rel string) bool {
	if l.paths[listKey(rel)] {
		return true
	}
	if !l.hasAbs {
		return false
	}
	abs, err := filepath.Abs(p)
	return err == nil && l.paths[listKey(abs)]
}

func listKey(p string) string {
	if filepath.IsAbs(p) {
		return filepath.ToSlash(filepath.Clean(p))
	}
	return path.Clean(filepath.ToSlash(p))
}
