package bench

import (
	"fmt"
	"io"
	"time"
)

// PrintTable writes rows in the reference report's shape, plus the
// calibration and the copy stage as a ratio of it.
func PrintTable(w io.Writer, rows []Row) {
	fmt.Fprintln(w, "| files | scan | metadata | plan | copy | calibration (write+fsync+rename) | copy ÷ calibration rate | peak RSS |")
	fmt.Fprintln(w, "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, r := range rows {
		copyCell, calCell, ratio := "not run (--scan-only)", "—", "—"
		peak := r.RSSPlan
		if r.Copy > 0 {
			copyCell = cell(r.Copy, r.Files)
			calCell = cell(r.Calibration, r.Files)
			ratio = fmt.Sprintf("%.2f×", r.Calibration.Seconds()/r.Copy.Seconds())
			peak = r.RSSCopy
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", commas(r.Files),
			cell(r.Scan, r.Files), cell(r.Meta, r.Files), cell(r.Plan, r.Files), copyCell, calCell, ratio, mb(peak))
	}
}

// PrintStages writes the peak RSS after each stage, for the memory story.
func PrintStages(w io.Writer, r Row) {
	fmt.Fprintf(w, "peak RSS after scan %s, metadata %s, plan %s", mb(r.RSSScan), mb(r.RSSMeta), mb(r.RSSPlan))
	if r.Copy > 0 {
		fmt.Fprintf(w, ", copy %s", mb(r.RSSCopy))
	}
	fmt.Fprintln(w)
}

func cell(d time.Duration, n int) string {
	s := d.Seconds()
	if s <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f s (%s/s)", s, rate(float64(n)/s))
}

func rate(r float64) string {
	switch {
	case r >= 1e6:
		return fmt.Sprintf("%.2fM", r/1e6)
	case r >= 1e4:
		return fmt.Sprintf("%.0fk", r/1e3)
	case r >= 1e3:
		return fmt.Sprintf("%.1fk", r/1e3)
	}
	return fmt.Sprintf("%.0f", r)
}

func mb(b int64) string { return fmt.Sprintf("%.0f MB", float64(b)/1e6) }

func commas(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
