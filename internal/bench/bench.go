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
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"

	"shoebox/internal/layout"
	"shoebox/internal/pipeline"
	"shoebox/internal/transfer"
)

// Config is one bench invocation.
type Config struct {
	Count    int
	WorkDir  string // "" means a temp dir
	ScanOnly bool   // stop after the plan stage
	Keep     bool   // keep the work dir
	Workers  int
	Dedup    bool
	Seed     int
	// CPUProfile, when set, records a CPU profile of the timed stages there;
	// MemProfile a heap profile (allocations included) taken after them.
	CPUProfile, MemProfile string
}

// Row is one line of the table.
type Row struct {
	Files                  int
	Scan, Meta, Plan, Copy time.Duration
	RSSScan, RSSMeta       int64 // peak RSS (bytes) up to and including the stage
	RSSPlan, RSSCopy       int64
	Calibration            time.Duration // plain durable write loop for the same files, same workers
	CopyDone               int64
}

// Run generates the tree (untimed), then times each stage.
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
	os.RemoveAll(dst)
	if err := warmCache(src, log); err != nil {
		return Row{}, err
	}
	resetPeakRSS()
	row := Row{Files: cfg.Count}
	run, err := openRun(cfg, src, dst)
	if err != nil {
		return row, err
	}
	defer run.Close()
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
		return row, err
	}
	defer stop()
	for _, s := range stages {
		start := time.Now()
		if err := s.fn(ctx); err != nil {
			return row, err
		}
		*s.took = time.Since(start)
		*s.rss = peakRSS()
		logMemory(log, *s.took)
	}
	if err := writeHeapProfile(cfg.MemProfile); err != nil {
		return row, err
	}
	sum := run.Summary()
	row.CopyDone = sum.Transferred
	if sum.Failed > 0 {
		return row, fmt.Errorf("bench: %d files failed to transfer", sum.Failed)
	}
	if !cfg.ScanOnly {
		row.Calibration, err = calibrate(filepath.Join(work, "calib"), src, cfg.Count, cfg.Workers)
	}
	return row, err
}

func openRun(cfg Config, src, dst string) (*pipeline.Run, error) {
	tmpl, err := layout.Parse("{year}/{year}-{month}-{day}/{name}{ext}")
	if err != nil {
		return nil, err
	}
	return pipeline.Open(pipeline.Config{
		Sources: []string{src}, Dest: dst, Template: tmpl, Mode: transfer.Copy,
		Workers: cfg.Workers, Dedup: cfg.Dedup, VideoTZ: time.UTC,
	})
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
	stamp := filepath.Join(filepath.Dir(src), "generated")
	want := fmt.Sprintf("%d %d\n", cfg.Count, cfg.Seed)
	if got, err := os.ReadFile(stamp); err == nil && string(got) == want {
		fmt.Fprintf(log, "reusing %d generated files in %s\n", cfg.Count, src)
		return nil
	}
	os.RemoveAll(src)
	start := time.Now()
	fmt.Fprintf(log, "generating %d files in %s ...\n", cfg.Count, src)
	if err := Generate(src, cfg.Count, cfg.Seed, 0); err != nil {
		return err
	}
	fmt.Fprintf(log, "generated in %.1fs (not timed)\n", time.Since(start).Seconds())
	return os.WriteFile(stamp, []byte(want), 0o644)
}

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
// count against the stages (Linux: writing 5 to clear_refs).
func resetPeakRSS() {
	runtime.GC()
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
