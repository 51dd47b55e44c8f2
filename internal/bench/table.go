package bench

import (
	"fmt"
	"io"
	"strings"
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

// PrintSetup says what the row measured: the tree, the cache, the
// storage and the workers.
func PrintSetup(w io.Writer, cfg Config, r Row) {
	size := "~1 KB"
	if cfg.RealSize {
		size = "3–5 MB"
	}
	fmt.Fprintf(w, "%s files of %s (%s in all), mode %s, %s cache, %d copy workers, %d header readers\n",
		commas(r.Files), size, mb(r.Bytes), cfg.Mode, r.Cache, r.Workers, r.MetaWorkers)
	fmt.Fprintf(w, "work dir on %s\n", r.Storage)
}

// PrintIO writes the OS counters of each stage of the first sort, per file.
func PrintIO(w io.Writer, r Row) {
	if !r.StageIO[0].OK {
		fmt.Fprintln(w, "bytes read per file: the OS keeps no per-process I/O counters here")
		return
	}
	fmt.Fprint(w, "per file, first sort: disk read (read_bytes) / read() (rchar):")
	for i, name := range []string{"scan", "metadata", "plan", "copy"} {
		if i == 3 && r.Copy == 0 {
			break
		}
		io := r.StageIO[i]
		fmt.Fprintf(w, " %s %s / %s;", name, perFile(io.ReadBytes, r.Files), perFile(io.RChar, r.Files))
	}
	fmt.Fprintln(w)
}

// PrintRuns writes the whole runs: the sorts and the reference commands,
// with the sort's speed as a ratio of each reference in the same run.
func PrintRuns(w io.Writer, r Row) {
	fmt.Fprintln(w, "| run | files | time | transferred | disk read (per file) | read() bytes (per file) | note |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: | --- |")
	for _, x := range r.Runs {
		took, moved, disk, rchar := "—", "—", "—", "—"
		if x.Took > 0 {
			took = fmt.Sprintf("%.2f s", x.Took.Seconds())
		}
		if x.Transferred >= 0 {
			moved = commas(int(x.Transferred))
		}
		if x.IO.OK {
			disk = fmt.Sprintf("%s (%s)", mb(x.IO.ReadBytes), perFile(x.IO.ReadBytes, x.Files))
		}
		if x.IO.OK && x.IO.RChar >= 0 {
			rchar = fmt.Sprintf("%s (%s)", mb(x.IO.RChar), perFile(x.IO.RChar, x.Files))
		}
		note := x.Note
		if x.Stages[3] > 0 && note == "" {
			note = fmt.Sprintf("open %s, scan %s, metadata %s, plan %s, copy %s, close %s", secs(x.Open),
				secs(x.Stages[0]), secs(x.Stages[1]), secs(x.Stages[2]), secs(x.Stages[3]), secs(x.Close))
		}
		if x.PeakRSS > 0 {
			note += fmt.Sprintf("; peak RSS %s", mb(x.PeakRSS))
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", x.Name, commas(x.Files), took, moved, disk, rchar, note)
	}
	for _, ratio := range Ratios(r) {
		fmt.Fprintln(w, ratio)
	}
}

// Ratios compares the sorts with the reference commands of the same run:
// the reference's time divided by the sort's (above 1: the sort is faster).
func Ratios(r Row) []string {
	find := func(name string) (RunRow, bool) {
		for _, x := range r.Runs {
			if len(x.Name) >= len(name) && x.Name[:len(name)] == name && x.Took > 0 && x.Note == "" {
				return x, true
			}
		}
		return RunRow{}, false
	}
	var out []string
	pairs := [][2]string{{"first sort", "cp -r"}, {"first sort", "rsync -a SRC"}, {"re-run", "rsync -a re-run"},
		{"first sort from a zip of it (round 1)", "first sort from the folder (round 1)"},
		{"first sort from a zip of it (round 2)", "first sort from the folder (round 2)"}}
	for _, p := range pairs {
		a, okA := find(p[0])
		b, okB := find(p[1])
		if okA && okB {
			out = append(out, fmt.Sprintf("%s ÷ %s: %.2f× the speed (%.2f s against %.2f s)",
				p[0], b.Name, b.Took.Seconds()/a.Took.Seconds(), a.Took.Seconds(), b.Took.Seconds()))
		}
	}
	return out
}

// perFile is bytes per file, in KB.
func perFile(bytes int64, files int) string {
	if files == 0 {
		return "—"
	}
	kb := float64(bytes) / float64(files) / 1e3
	if kb >= 100 {
		return fmt.Sprintf("%.0f KB", kb)
	}
	return fmt.Sprintf("%.1f KB", kb)
}

// SummaryHeader heads the one-line rows PrintSummary writes, one per
// storage and cache state (bench/storage.sh collects them). The re-run
// shows read() bytes beside the disk's: a FUSE or network share's reads
// never reach a local block device, so only rchar counts what crossed the link.
const SummaryHeader = "| storage | cache | workers (copy / headers) | metadata stage (disk read per file) | first sort (disk read per file) | cp -r && sync | rsync -a && sync | sort speed ÷ cp, ÷ rsync | re-run (disk read / read() per file) | rsync -a re-run |\n" +
	"| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"

// PrintSummary writes r as one row under SummaryHeader, prefixed by
// "SUMMARY " so a script can pick it out of the full output.
func PrintSummary(w io.Writer, label string, r Row) {
	find := func(prefix string) RunRow {
		for _, x := range r.Runs {
			if strings.HasPrefix(x.Name, prefix) {
				return x
			}
		}
		return RunRow{}
	}
	first, cp, rs, rerun, rsRerun := find("first sort"), find("cp -r"), find("rsync -a SRC"), find("re-run"), find("rsync -a re-run")
	ratio := "—"
	if first.Took > 0 && cp.Took > 0 && rs.Took > 0 {
		ratio = fmt.Sprintf("%.2f×, %.2f×", cp.Took.Seconds()/first.Took.Seconds(), rs.Took.Seconds()/first.Took.Seconds())
	}
	fmt.Fprintf(w, "SUMMARY | %s | %s | %d / %d | %s (%s) | %s (%s) | %s | %s | %s | %s (%s / %s) | %s |\n",
		label, r.Cache, r.Workers, r.MetaWorkers,
		secs(r.Meta), perFile(r.StageIO[1].ReadBytes, r.Files),
		secs(first.Took), perFile(first.IO.ReadBytes, first.Files),
		orNote(cp), orNote(rs), ratio,
		secs(rerun.Took), perFile(rerun.IO.ReadBytes, rerun.Files), perFile(rerun.IO.RChar, rerun.Files), orNote(rsRerun))
}

func secs(d time.Duration) string {
	if d <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

func orNote(x RunRow) string {
	if x.Note != "" {
		return x.Note
	}
	return secs(x.Took)
}
