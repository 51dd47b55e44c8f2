package report

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

//go:embed page.html.tmpl
var pageSource string

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"group":     group,
	"breakable": breakable,
	"has":       func(n int64) bool { return n > 0 },
	"byReason":  byReason,
}).Parse(pageSource))

// generatorMarker ends a report's prologue. A page shoebox wrote is
// recognised by its content, never by its name, so that only a report is
// ever replaced by a report: it begins with reportPrologue, the page
// template's first bytes up to and including the marker. Beginning with
// them, not merely holding the marker: a photo's metadata (an EXIF
// description in its first bytes) can hold any text, but every photo
// begins with its format's magic bytes.
const generatorMarker = `<meta name="generator" content="shoebox">`

var reportPrologue = prologue(pageSource)

func prologue(page string) string {
	i := strings.Index(page, generatorMarker)
	if i < 0 || i > 512 {
		panic("report: the page template does not open with the generator marker")
	}
	return page[:i+len(generatorMarker)]
}

// ErrNotReport is returned for a path that holds something other than a
// report shoebox wrote: a photo, a user's page, a folder, a link.
var ErrNotReport = errors.New("not a report shoebox wrote")

// Replaceable says whether a report may be written at path: nothing is
// there, or a regular file that shoebox wrote as a report. Anything else —
// a photo, another page, a folder, a symbolic link (even to a report), a
// device — is refused with ErrNotReport and a reason.
func Replaceable(path string) error {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case st.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%w: it is a symbolic link", ErrNotReport)
	case st.IsDir():
		return fmt.Errorf("%w: it is a folder", ErrNotReport)
	case !st.Mode().IsRegular():
		return fmt.Errorf("%w: it is not a regular file", ErrNotReport)
	}
	head, err := readHead(path)
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(head, []byte(reportPrologue)) {
		return fmt.Errorf("%w: it exists and its content is not a shoebox report", ErrNotReport)
	}
	return nil
}

// readHead reads the first bytes of a regular file without following a
// link and without blocking on a FIFO swapped in after the Lstat.
func readHead(path string) ([]byte, error) {
	f, err := openNoFollow(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: it is not a regular file", ErrNotReport)
	}
	head := make([]byte, len(reportPrologue))
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return head[:n], nil
}

// Write renders the report of run to path. The page appears whole or not at
// all: it is written to a new temp file beside path (created exclusively
// under a random name, so it can never be a user's file), synced, then
// renamed into place — over an earlier report only, never over anything
// else (see Replaceable), which is checked again just before the rename.
func (c *Collector) Write(path string, run Run, sum pipeline.Summary) error {
	p := c.view(run, sum)
	err := writeAtomic(path, func(w io.Writer) error { return pageTemplate.Execute(w, p) })
	if err != nil {
		return fmt.Errorf("write report %s: %w", quote.Path(path), err)
	}
	return nil
}

// writeAtomic puts the page in place whole, over an earlier report only
// (Replaceable, asked again just before the rename).
func writeAtomic(path string, fill func(io.Writer) error) error {
	return fsx.WriteFile(fsx.OS, path, 0o644, fill, Replaceable)
}
