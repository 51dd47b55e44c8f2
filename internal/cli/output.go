package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/shoebox-photos/shoebox/internal/pipeline"
)

func printSummary(w io.Writer, s pipeline.Summary, dest string, elapsed time.Duration) {
	verb := "transferred"
	if s.DryRun {
		verb = "would transfer"
	}
	fmt.Fprintf(w, "\n%s: %s of %s files scanned are photos or videos", shown(dest), group(s.Media), group(s.Scanned))
	if s.Sidecars > 0 {
		fmt.Fprintf(w, ", %s more are their sidecars", group(s.Sidecars))
	}
	fmt.Fprintln(w)
	row := func(label string, n int64) {
		if n > 0 {
			fmt.Fprintf(w, "  %-22s %10s\n", label, group(n))
		}
	}
	row(verb, s.Transferred-s.Renamed)
	row(verb+" renamed", s.Renamed)
	row("backup copies", s.BackupCopies)
	row(map[bool]string{false: "old backups removed", true: "old backups to remove"}[s.DryRun], s.OldBackupsRemoved)
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
			parts = append(parts, fmt.Sprintf("%s: %s", label, group(s.PerYear[y])))
		}
		fmt.Fprintf(w, "  by year: %s\n", strings.Join(parts, ", "))
	}
	if line := volumeLine(s, elapsed); line != "" {
		fmt.Fprintln(w, "  "+line)
	}
	if s.DryRun {
		fmt.Fprintln(w, "dry run: nothing was changed")
	}
}

// volumeLine is rsync's --stats habit: the bytes the run transferred, how
// long it took and the rate (the bytes it would transfer in a dry run).
func volumeLine(s pipeline.Summary, elapsed time.Duration) string {
	switch {
	case s.Bytes <= 0:
		return ""
	case s.DryRun:
		return "would transfer " + size(s.Bytes)
	}
	line := fmt.Sprintf("%s in %s", size(s.Bytes), elapsed.Round(time.Second/10))
	if secs := elapsed.Seconds(); secs >= 0.1 {
		line += fmt.Sprintf(", %s/s", size(int64(float64(s.Bytes)/secs)))
	}
	return line
}
