package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/pipeline"
)

// printVerbose writes one line per file for -v/--verbose: where it came
// from, where it goes and why (the date and the field it came from, a
// rename, the unknown folder), or why it stays (a filter's rule, a
// duplicate, not media). Failures are printed on stderr as without -v.
func printVerbose(w io.Writer, ev pipeline.Event) {
	switch ev.Outcome {
	case pipeline.OutTransferred, pipeline.OutRenamed, pipeline.OutPlanned, pipeline.OutPlannedAs:
		fmt.Fprintf(w, "%-14s %s → %s  (%s)\n", ev.Outcome, shown(ev.Src), shown(ev.Dst), shown(placedBecause(ev)))
	case pipeline.OutDuplicate:
		// Which copy is kept, and why: the camera's own name, the older file …
		fmt.Fprintf(w, "%-14s %s = %s", ev.Outcome, shown(ev.Src), shown(ev.SameAs))
		if _, why, ok := strings.Cut(ev.Reason, " (kept: "); ok {
			fmt.Fprintf(w, "  (kept: %s", shown(why))
		}
		fmt.Fprintln(w)
	case pipeline.OutIdentical, pipeline.OutDupPlanned, pipeline.OutDupRemoved:
		fmt.Fprintf(w, "%-14s %s = %s\n", ev.Outcome, shown(ev.Src), shown(ev.SameAs))
	case pipeline.OutFiltered, pipeline.OutIgnored:
		fmt.Fprintf(w, "%-14s %s  (%s)\n", ev.Outcome, shown(ev.Src), shown(ev.Reason))
	case pipeline.OutNotAttempted:
		fmt.Fprintf(w, "%-14s %s → %s  (the run stopped first)\n", ev.Outcome, shown(ev.Src), shown(ev.Dst))
	}
}

// placedBecause says why a file goes where it goes: "date 2019-07-04
// 15:30:00 from exif ExifIFD:DateTimeOriginal", plus the rename and any
// fallback the transfer took.
func placedBecause(ev pipeline.Event) string {
	var why []string
	switch {
	case ev.Date == "" && ev.DateNote != "":
		why = append(why, "no date ("+ev.DateNote+"): the unknown folder")
	case ev.Date == "":
		why = append(why, "no date: the unknown folder")
	case ev.DateSource == "mtime":
		why = append(why, "dated by file time "+strings.Replace(ev.Date, "T", " ", 1))
	default:
		from := ev.DateSource
		if ev.DateTag != "" {
			from += " " + ev.DateTag
		}
		why = append(why, "date "+strings.Replace(ev.Date, "T", " ", 1)+" from "+from)
	}
	if ev.Shift != "" {
		why = append(why, "shifted "+ev.Shift)
	}
	if ev.Outcome == pipeline.OutRenamed || ev.Outcome == pipeline.OutPlannedAs {
		why = append(why, "renamed: a different file has the name")
	}
	if ev.Reason != "" {
		why = append(why, ev.Reason)
	}
	if ev.Backup != "" {
		why = append(why, "backup "+ev.Backup)
	}
	return strings.Join(why, "; ")
}
