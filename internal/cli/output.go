package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/pipeline"
)

func printSummary(w io.Writer, s pipeline.Summary, dest string) {
	verb := "transferred"
	if s.DryRun {
		verb = "would transfer"
	}
	fmt.Fprintf(w, "\n%s: %d of %d files scanned are photos or videos", shown(dest), s.Media, s.Scanned)
	if s.Sidecars > 0 {
		fmt.Fprintf(w, ", %d more are their sidecars", s.Sidecars)
	}
	fmt.Fprintln(w)
	row := func(label string, n int64) {
		if n > 0 {
			fmt.Fprintf(w, "  %-22s %8d\n", label, n)
		}
	}
	row(verb, s.Transferred-s.Renamed)
	row(verb+" renamed", s.Renamed)
	row("backup copies", s.BackupCopies)
	row("already in library", s.Identical)
	row("imported before", s.ImportedBefore)
	row("duplicates", s.Duplicates)
	row("duplicates removed", s.DuplicatesRemoved)
	row("no date (→ unknown)", s.UnknownDate)
	row("file time not trusted", s.ModTimeDistrusted)
	row("dated by file time", s.ModTimeOnly)
	row("not media, left alone", s.Ignored)
	row("left out by a filter", s.Filtered)
	row("failed", s.Failed)
	row("not attempted", s.NotAttempted)
	row("unreadable paths", s.Problems)
	if years := s.Years(); len(years) > 0 {
		parts := make([]string, 0, len(years))
		for _, y := range years {
			label := fmt.Sprint(y)
			if y == 0 {
				label = "unknown"
			}
			parts = append(parts, fmt.Sprintf("%s: %d", label, s.PerYear[y]))
		}
		fmt.Fprintf(w, "  by year: %s\n", strings.Join(parts, ", "))
	}
	if s.DryRun {
		fmt.Fprintln(w, "dry run: nothing was changed")
	}
}
