package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/quote"
	reportpage "github.com/shoebox-photos/shoebox/internal/report" // cli.report is the exit-code function
)

// htmlReport is `--report FILE`: it collects the run's events and writes
// the page once the run is over, however it ended.
type htmlReport struct {
	path    string // absolute
	started time.Time
	c       *reportpage.Collector
}

// newHTMLReport checks the report's path before the run starts, so a
// typo is found in a second rather than after hours of copying, and so a
// report can never take the place of a photo: it is refused inside any
// source, inside the library, inside any library's state folder (whose
// stores delete what they take for theirs), and over anything but an
// earlier report.
// It returns nil when no report was asked for.
func newHTMLReport(path string, sources []string, dest, backup string) (*htmlReport, error) {
	if path == "" {
		return nil, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, usagef("--report %s: %s", quote.Path(path), err)
	}
	if err := outsideSortedFiles("--report", path, abs, sources, dest, backup); err != nil {
		return nil, err
	}
	if err := reportpage.Replaceable(abs); err != nil {
		if errors.Is(err, reportpage.ErrNotReport) {
			return nil, usagef("--report %s: %s; shoebox replaces only a report it wrote: give another file name", quote.Path(path), strings.TrimPrefix(err.Error(), reportpage.ErrNotReport.Error()+": "))
		}
		return nil, usagef("--report %s: %s", quote.Path(path), sentence(err))
	}
	return &htmlReport{path: abs, started: time.Now()}, nil
}

// begin starts collecting for a run into dest (absolute).
func (h *htmlReport) begin(dest string) {
	if h != nil {
		h.c = reportpage.NewCollector(dest)
	}
}

func (h *htmlReport) add(ev pipeline.Event) {
	if h != nil && h.c != nil {
		h.c.Add(ev)
	}
}

// write renders the page; runErr says whether and why the run stopped early.
func (h *htmlReport) write(cfg pipeline.Config, dest string, sum pipeline.Summary, runErr error) error {
	if h == nil || h.c == nil {
		return nil
	}
	run := reportpage.Run{
		Dest: dest, Sources: cfg.Sources, Command: commandLine(cfg.Args), DryRun: cfg.DryRun,
		Started: h.started, Finished: time.Now(), Stopped: stopReason(runErr),
	}
	return h.c.Write(h.path, run, sum)
}

func stopReason(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, context.Canceled):
		return "interrupted; run the same command again to finish the job"
	}
	return sentence(err)
}

// commandLine shows args as a shell would take them back.
func commandLine(args []string) string {
	parts := make([]string, 0, len(args)+1)
	parts = append(parts, "shoebox")
	for _, a := range args {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func (h *htmlReport) announce(p *printer) {
	if h != nil && h.c != nil && !p.f.quiet {
		fmt.Fprintf(p.human, "report: %s\n", shown(h.path))
	}
}
