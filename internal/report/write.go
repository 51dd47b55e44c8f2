package report

import (
	"bufio"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"

	"shoebox/internal/pipeline"
)

//go:embed page.html.tmpl
var pageSource string

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"group": group,
	"has":   func(n int64) bool { return n > 0 },
}).Parse(pageSource))

// Write renders the report of run to path. The page appears whole or not at
// all: it is written to a temp file beside path, synced, then renamed, so a
// reader (or a browser left open on it) never sees half a page.
func (c *Collector) Write(path string, run Run, sum pipeline.Summary) error {
	p := c.view(run, sum)
	err := writeAtomic(path, func(w io.Writer) error { return pageTemplate.Execute(w, p) })
	if err != nil {
		return fmt.Errorf("write report %q: %w", path, err)
	}
	return nil
}

func writeAtomic(path string, fill func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	err = fillFile(tmp, fill)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func fillFile(f *os.File, fill func(io.Writer) error) error {
	w := bufio.NewWriterSize(f, 64<<10)
	if err := fill(w); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := f.Chmod(0o644); err != nil { // CreateTemp makes it 0600; a report is for sharing
		return err
	}
	return f.Sync()
}
