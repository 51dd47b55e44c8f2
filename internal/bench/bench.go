// Package bench measures `shoebox sort` stage by stage on a generated tree,
// through the same pipeline the CLI runs, and prints a Markdown table that
// can be set beside the reference design's.
package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/storage"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// Config is one bench invocation.
type Config struct {
	Count       int
	WorkDir     string // "" means a temp dir
	ScanOnly    bool   // stop after the plan stage
	Keep        bool   // keep the work dir
	Workers     int    // copy workers; 0 lets the pipeline choose from the storage
	MetaWorkers int    // header-reading workers; 0 lets the pipeline choose
	Dedup       bool
	Seed        int
	Mode        string // "copy" or "reflink"

	RealSize     bool   // 3–5 MB files instead of ~1 KB
	Cold         bool   // drop the page cache before each timed run (where the OS allows)
	Rerun        bool   // time a second sort into the same library
	Incremental  int    // > 0: time sorting this many new files (a card of their own) into an empty library and into the sorted one, each after a dry run of it
	Compare      bool   // time `cp -r && sync` and `rsync -a && sync` on the same tree
	Zip          bool   // time the first sort from a zip of the tree against from the tree
	Life         bool   // time check, check --read-data (against hashing the files) and relayout on the library (life.go)
	GenerateOnly bool   // generate the tree and stop (to fill a slow mount from its server side)
	Label        string // names the storage in a one-line summary row
	// History is the import history during the timed sort: HistoryOn (as
	// the CLI runs), HistoryOff, or HistoryBoth: the first sort is timed
	// with it, then again into a second empty library without it, in the
	// same run on the same warm tree (Row.NoHistory).
	History string

	// CPUProfile, when set, records a CPU profile of the timed stages there;
	// MemProfile a heap profile (allocations included) taken after them.
	CPUProfile, MemProfile string

	dryRun bool // the timed sort is a dry run (the incremental rows' dry runs)
}

// The values of --history.
const (
	HistoryOn   = "on"
	HistoryOff  = "off"
	HistoryBoth = "both"
)

// Row is one line of the table.
type Row struct {
	Files                  int
	Bytes                  int64 // total size of the source tree
	Scan, Meta, Plan, Copy time.Duration
	RSSScan, RSSMeta       int64 // peak RSS (bytes) up to and including the stage
	RSSPlan, RSSCopy       int64
	Calibration            time.Duration // plain durable write loop for the same files, same workers
	CopyDone               int64
	StageIO                [4]IO // OS counters for scan, meta, plan, copy

	Cache                string // "cold", or "warm" with the reason a cold run was not possible
	Storage              string // what the work dir is on
	Workers, MetaWorkers int    // as chosen by the pipeline or asked for; 0 = not reported
	Runs                 []RunRow
	// NoHistory is the same first sort without the import history
	// (--history both); nil otherwise.
	NoHistory *Row
}

// RunRow is one whole run timed end to end: a sort (first, re-run,
// incremental) or a reference command on the same tree.
type RunRow struct {
	Name        string
	Files       int // files the run had to consider
	Took        time.Duration
	IO          IO
	Transferred int64 // files the sort transferred; -1 for a reference command
	Note        string
	Stages      [4]time.Duration // a later sort's scan, metadata, plan and copy; zero when not timed
	Open, Close time.Duration    // a later sort's opening (stores, recovery check) and closing
	PeakRSS     int64            // bytes; measured for the --zip rows only (0: not measured)
}

// Run generates the tree (untimed), then times each stage, and then the
// runs cfg asks for.
func Run(ctx context.Context, cfg Config, log io.Writer) (Row, error) {
	work, cleanup, err := workDir(cfg)
	if err != nil {
		return Row{}, err
	}
	defer cleanup()
	src, dst := filepath.Join(work, "src"), filepath.Join(work, "dst")
	if err := ensureTree(src, cfg, log); err != nil {
		return Row{}, err
	}
	row := Row{Files: cfg.Count, Bytes: treeBytes(src), Storage: describeStorage(work)}
	if cfg.GenerateOnly {
		return row, nil
	}
	os.RemoveAll(dst)
	row.Cache = prepareCache(cfg, src, log)
	first, err := firstSort(ctx, cfg, src, dst, &row, log)
	if err != nil {
		return row, err
	}
	row.Runs = append(row.Runs, first)
	if cfg.History == HistoryBoth {
		if err := timeWithoutHistory(ctx, cfg, src, filepath.Join(work, "dst-nohistory"), &row, log); err != nil {
			return row, err
		}
	}
	if cfg.ScanOnly {
		return row, nil
	}
	if row.Calibration, err = calibrate(filepath.Join(work, "calib"), src, cfg.Count, calibWorkers(cfg, row)); err != nil {
		return row, err
	}
	if row.NoHistory != nil {
		row.NoHistory.Calibration = row.Calibration // one loop, the same for both
	}
	return row, laterRuns(ctx, cfg, work, &row, log)
}

// timeWithoutHistory times the first sort again, into another empty
// library, with the import history off: row.NoHistory.
func timeWithoutHistory(ctx context.Context, cfg Config, src, dst string, row *Row, log io.Writer) error {
	off := cfg
	off.History, off.CPUProfile, off.MemProfile = HistoryOff, "", ""
	alt := Row{Files: row.Files, Bytes: row.Bytes, Storage: row.Storage, Cache: row.Cache}
	fmt.Fprintln(log, "the same first sort without the import history ...")
	first, err := firstSort(ctx, off, src, dst, &alt, log)
	if err != nil {
		return err
	}
	alt.Runs = []RunRow{first}
	row.NoHistory = &alt
	if !cfg.Keep {
		os.RemoveAll(dst)
	}
	return nil
}

// laterRuns times the runs after the first sort: laterSorts, then, with
// --life, the library's later life (lifeRuns).
func laterRuns(ctx context.Context, cfg Config, work string, row *Row, log io.Writer) error {
	if err := laterSorts(ctx, cfg, work, row, log); err != nil || !cfg.Life {
		return err
	}
	// Last: the relayout moves the library the other rows sort into.
	rs, err := lifeRuns(ctx, cfg, filepath.Join(work, "dst"), log)
	row.Runs = append(row.Runs, rs...)
	return err
}

// laterSorts times the reference commands, the re-run, the incremental
// import and the sorts from a zip, in that order.
func laterSorts(ctx context.Context, cfg Config, work string, row *Row, log io.Writer) error {
	src, dst := filepath.Join(work, "src"), filepath.Join(work, "dst")
	if cfg.Compare {
		row.Runs = append(row.Runs, compareRuns(cfg, work, src, log)...)
	}
	if cfg.Rerun {
		prepareCache(cfg, src, log)
		r, err := wholeSort(ctx, cfg, src, dst, "re-run, same library", cfg.Count, nil)
		if err != nil {
			return err
		}
		row.Runs = append(row.Runs, r)
		if cfg.Compare {
			row.Runs = append(row.Runs, rsyncRerun(cfg, work, src, log))
		}
	}
	if cfg.Incremental > 0 {
		rs, err := incremental(ctx, cfg, work, log)
		row.Runs = append(row.Runs, rs...)
		if err != nil {
			return err
		}
	}
	if cfg.Zip {
		rs, err := zipRuns(ctx, cfg, work, src, log)
		row.Runs = append(row.Runs, rs...)
		if err != nil {
			return err
		}
	}
	return nil
}

// firstSort times the four stages of a sort into an empty library, with
// the OS counters of each.
func firstSort(ctx context.Context, cfg Config, src, dst string, row *Row, log io.Writer) (RunRow, error) {
	resetPeakRSS()
	began, ioBegan := time.Now(), readIO()
	run, err := openRun(cfg, src, dst, row)
	if err != nil {
		return RunRow{}, err
	}
	closeRun := sync.OnceValue(run.Close) // Close is not idempotent
	defer closeRun()
	stages := []struct {
		fn   func(context.Context) error
		took *time.Duration
		rss  *int64
	}{{run.Scan, &row.Scan, &row.RSSScan}, {run.Meta, &row.Meta, &row.RSSMeta}, {run.Plan, &row.Plan, &row.RSSPlan}, {run.Transfer, &row.Copy, &row.RSSCopy}}
	if cfg.ScanOnly {
		stages = stages[:3]
	}
	stop, err := startProfile(cfg.CPUProfile)
	if err != nil {
		return RunRow{}, err
	}
	defer stop()
	for i, s := range stages {
		start, before := time.Now(), readIO()
		if err := s.fn(ctx); err != nil {
			return RunRow{}, err
		}
		*s.took = time.Since(start)
		row.StageIO[i] = readIO().Sub(before)
		*s.rss = peakRSS()
		logMemory(log, *s.took)
	}
	if err := writeHeapProfile(cfg.MemProfile); err != nil {
		return RunRow{}, err
	}
	sum := run.Summary()
	row.CopyDone = sum.Transferred
	if sum.Failed > 0 {
		return RunRow{}, fmt.Errorf("bench: %d files failed to transfer", sum.Failed)
	}
	if err := closeRun(); err != nil {
		return RunRow{}, err
	}
	name := "first sort, empty library"
	if cfg.ScanOnly {
		name = "scan, metadata, plan (no copy)"
	}
	return RunRow{Name: name, Files: cfg.Count, Took: time.Since(began), IO: readIO().Sub(ioBegan), Transferred: sum.Transferred}, nil
}

// wholeSort times one sort from opening the library to closing it.
func wholeSort(ctx context.Context, cfg Config, src, dst, name string, files int, row *Row) (RunRow, error) {
	began, ioBegan := time.Now(), readIO()
	run, err := openRun(cfg, src, dst, row)
	if err != nil {
		return RunRow{}, err
	}
	opened := time.Since(began)
	closeRun := sync.OnceValue(run.Close)
	defer closeRun()
	var stages [4]time.Duration
	for i, stage := range []func(context.Context) error{run.Scan, run.Meta, run.Plan, run.Transfer} {
		start := time.Now()
		if err := stage(ctx); err != nil {
			return RunRow{}, err
		}
		stages[i] = time.Since(start)
	}
	sum := run.Summary()
	if sum.Failed > 0 {
		return RunRow{}, fmt.Errorf("bench: %s: %d files failed to transfer", name, sum.Failed)
	}
	closing := time.Now()
	if err := closeRun(); err != nil {
		return RunRow{}, err
	}
	return RunRow{Name: name, Files: files, Took: time.Since(began), IO: readIO().Sub(ioBegan), Transferred: sum.Transferred,
		Stages: stages, Open: opened, Close: time.Since(closing)}, nil
}

// incremental times a new card: cfg.Incremental new files in a folder of
// their own (generated untimed, dated over the same years, so they land in
// the library's existing date folders), sorted first into an empty library
// and then into the sorted one, each sort after a dry run of it. The
// figures, from the same run, show what the library's size adds to an
// import of new files, and to its dry run.
func incremental(ctx context.Context, cfg Config, work string, log io.Writer) ([]RunRow, error) {
	card, empty := filepath.Join(work, "new"), filepath.Join(work, "dst-empty")
	os.RemoveAll(card)
	os.RemoveAll(empty)
	defer os.RemoveAll(empty)
	fmt.Fprintf(log, "generating %d new files in %s ...\n", cfg.Incremental, card)
	if err := GenerateRange(card, cfg.Count, cfg.Count+cfg.Incremental, shape(cfg)); err != nil {
		return nil, err
	}
	var rows []RunRow
	for _, to := range []struct{ dst, into string }{
		{empty, "an empty library"},
		{filepath.Join(work, "dst"), commas(cfg.Count)},
	} {
		for _, dry := range []bool{true, false} {
			name := fmt.Sprintf("incremental, %s new into %s", commas(cfg.Incremental), to.into)
			if dry {
				name = fmt.Sprintf("dry run, %s new into %s", commas(cfg.Incremental), to.into)
			}
			prepareCache(cfg, card, log)
			run := cfg
			run.dryRun = dry
			r, err := wholeSort(ctx, run, card, to.dst, name, cfg.Incremental, nil)
			if err == nil && r.Transferred != int64(cfg.Incremental) {
				err = fmt.Errorf("bench: %s: transferred (or planned) %d files, want %d", name, r.Transferred, cfg.Incremental)
			}
			if err != nil {
				return rows, err
			}
			rows = append(rows, r)
		}
	}
	return rows, nil
}

// benchTemplate is the layout every bench sort files into.
const benchTemplate = "{year}/{year}-{month}-{day}/{name}{ext}"

func openRun(cfg Config, src, dst string, row *Row) (*pipeline.Run, error) {
	tmpl, err := layout.Parse(benchTemplate)
	if err != nil {
		return nil, err
	}
	mode := transfer.Copy
	if cfg.Mode == "reflink" {
		mode = transfer.Reflink
	}
	run, err := pipeline.Open(pipeline.Config{
		Sources: []string{src}, Dest: dst, Template: tmpl, Mode: mode,
		Workers: cfg.Workers, MetaWorkers: cfg.MetaWorkers, Dedup: cfg.Dedup, VideoTZ: time.UTC,
		NoHistory: cfg.History == HistoryOff, DryRun: cfg.dryRun,
	})
	if err == nil && row != nil {
		row.Workers, row.MetaWorkers = run.Workers()
	}
	return run, err
}

// calibWorkers is the copy workers the sort used, for the calibration loop.
func calibWorkers(cfg Config, row Row) int {
	switch {
	case cfg.Workers > 0:
		return cfg.Workers
	case row.Workers > 0:
		return row.Workers
	}
	return 4
}

func shape(cfg Config) Shape { return Shape{Seed: cfg.Seed, RealSize: cfg.RealSize} }

// prepareCache drops the page cache for a cold run, or reads the tree once
// for a warm one; it returns what the run measured ("cold", or "warm"
// and why).
func prepareCache(cfg Config, src string, log io.Writer) string {
	if cfg.Cold {
		err := dropCaches()
		if err == nil {
			return "cold"
		}
		fmt.Fprintf(log, "bench: %v\n", err)
		if err := warmCache(src, log); err != nil {
			fmt.Fprintf(log, "bench: warm the cache: %v\n", err)
		}
		return "warm only (" + err.Error() + ")"
	}
	if err := warmCache(src, log); err != nil {
		fmt.Fprintf(log, "bench: warm the cache: %v\n", err)
	}
	return "warm"
}

func describeStorage(dir string) string {
	in, err := storage.Probe(dir)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%s (%s: %s)", in.FSType, in.Kind, in.Reason)
}

func treeBytes(dir string) int64 {
	var total int64
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && filepath.Base(p) != "generated" {
			if fi, err := d.Info(); err == nil {
				total += fi.Size()
			}
		}
		return nil
	})
	return total
}

func workDir(cfg Config) (string, func(), error) {
	if cfg.WorkDir != "" {
		if err := os.MkdirAll(cfg.WorkDir, 0o755); err != nil {
			return "", nil, err
		}
		if cfg.Keep {
			return cfg.WorkDir, func() {}, nil
		}
		return cfg.WorkDir, func() { os.RemoveAll(cfg.WorkDir) }, nil
	}
	dir, err := os.MkdirTemp("", "shoebox-bench-")
	if err != nil {
		return "", nil, err
	}
	if cfg.Keep {
		return dir, func() {}, nil
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// ensureTree generates the source tree unless a kept one of the same
// count and seed is already there (generation of a million files takes
// longer than sorting them).
func ensureTree(src string, cfg Config, log io.Writer) error {
	stamp := stampPath(src)
	want := fmt.Sprintf("%d %d\n", cfg.Count, cfg.Seed)
	if cfg.RealSize {
		want = fmt.Sprintf("%d %d real-size\n", cfg.Count, cfg.Seed)
	}
	if got, err := os.ReadFile(stamp); err == nil && string(got) == want {
		fmt.Fprintf(log, "reusing %d generated files in %s\n", cfg.Count, src)
		return nil
	}
	os.RemoveAll(src)
	start := time.Now()
	fmt.Fprintf(log, "generating %d files in %s ...\n", cfg.Count, src)
	if err := GenerateRange(src, 0, cfg.Count, shape(cfg)); err != nil {
		return err
	}
	fmt.Fprintf(log, "generated in %.1fs (not timed)\n", time.Since(start).Seconds())
	return os.WriteFile(stamp, []byte(want), 0o644)
}

// stampPath records which tree the work dir holds; it sits beside src.
func stampPath(src string) string { return filepath.Join(filepath.Dir(src), "generated") }

func startProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

func writeHeapProfile(path string) error {
	if path == "" {
		return nil
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return pprof.Lookup("allocs").WriteTo(f, 0)
}

// warmCache reads every source file once, untimed, so every row measures
// the same thing — a warm page cache — whatever ran before it (a million
// 1 KB files take 4 GB of cache and are easily evicted by the next tree).
func warmCache(src string, log io.Writer) error {
	start := time.Now()
	paths := make(chan string, 1024)
	var wg sync.WaitGroup
	for w := 0; w < 2*runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 64<<10)
			for p := range paths {
				if f, err := os.Open(p); err == nil {
					for {
						if _, err := f.Read(buf); err != nil {
							break
						}
					}
					f.Close()
				}
			}
		}()
	}
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			paths <- p
		}
		return err
	})
	close(paths)
	wg.Wait()
	fmt.Fprintf(log, "page cache warmed in %.1fs (not timed)\n", time.Since(start).Seconds())
	return err
}

// resetPeakRSS clears the kernel's high-water mark so generation does not
// count against the stages (Linux: writing 5 to clear_refs). The mark
// drops only to the current RSS, so the heap generation left behind is
// handed back to the OS first: after generating real-size files a plain GC
// left ~130 MB resident and every warm stage reported it as its peak.
func resetPeakRSS() {
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// logMemory says how much of the peak is the Go runtime's own, so a
// growing peak can be traced to the heap or to what lives outside it.
func logMemory(log io.Writer, took time.Duration) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(log, "stage took %.2fs; peak RSS %s; Go heap in use %s, Go runtime total %s\n",
		took.Seconds(), mb(peakRSS()), mb(int64(ms.HeapInuse)), mb(int64(ms.Sys)))
}

// peakRSS is the process's resident-set high-water mark (VmHWM), in bytes.
func peakRSS() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmHWM:")); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(string(rest)), " kB"), 10, 64)
			return kb * 1024
		}
	}
	return 0
}
