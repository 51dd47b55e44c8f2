package bench

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/shoebox-photos/shoebox/internal/check"
	"github.com/shoebox-photos/shoebox/internal/digest"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/relayout"
)

// The library's later life (--life): on the library the first sort made,
// the bench times shoebox check (stat only), check --read-data against
// hashing the same files with BLAKE3 in one pass with as many workers
// (what b3sum does, and the floor for a check that reads every byte), and
// a relayout to another template; each row with its peak RSS.

// lifeWorkers is how many files check --read-data and the reference hash
// at once (check's default).
const lifeWorkers = 2

func lifeRuns(ctx context.Context, cfg Config, dst string, log io.Writer) ([]RunRow, error) {
	var rows []RunRow
	for _, step := range []struct {
		name string
		run  func() (string, error)
	}{
		{"check (stat only)", func() (string, error) { return checkLibrary(ctx, dst, false) }},
		{"check --read-data", func() (string, error) { return checkLibrary(ctx, dst, true) }},
		{"BLAKE3 of the same files, one pass (b3sum's work)", func() (string, error) { return hashLibrary(dst) }},
		{"relayout to {year}/{month}/{name}{ext}", func() (string, error) { return relayoutLibrary(ctx, dst) }},
	} {
		fmt.Fprintf(log, "%s ...\n", step.name)
		prepareCache(cfg, dst, log)
		resetPeakRSS()
		began, ioBegan := time.Now(), readIO()
		note, err := step.run()
		if err != nil {
			return rows, fmt.Errorf("bench: %s: %w", step.name, err)
		}
		r := RunRow{Name: step.name, Files: cfg.Count, Took: time.Since(began), IO: readIO().Sub(ioBegan), Transferred: -1, Note: note}
		r.PeakRSS = peakRSS()
		r.Note += fmt.Sprintf("; %s files/s", rate(float64(cfg.Count)/r.Took.Seconds()))
		rows = append(rows, r)
	}
	return rows, nil
}

// checkLibrary runs shoebox check and says what it read; a library that
// is not intact fails the bench (it was just sorted).
func checkLibrary(ctx context.Context, lib string, read bool) (string, error) {
	began := time.Now()
	st, err := check.Run(ctx, check.Options{Library: lib, ReadData: read, Workers: lifeWorkers})
	if err != nil {
		return "", err
	}
	if st.Problems() != 0 {
		return "", fmt.Errorf("check found %d problems in a library just sorted", st.Problems())
	}
	if !read {
		return "every recorded file stat'ed", nil
	}
	return fmt.Sprintf("%s MB/s read and hashed", mbps(st.Bytes, time.Since(began))), nil
}

// hashLibrary hashes every file of the library outside its state folder,
// lifeWorkers at a time.
func hashLibrary(lib string) (string, error) {
	began := time.Now()
	paths := make(chan string, 64)
	var total int64
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for range lifeWorkers {
		wg.Go(func() {
			for p := range paths {
				n, err := hashFile(p)
				mu.Lock()
				total += n
				if err != nil && firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		})
	}
	err := filepath.WalkDir(lib, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == ".shoebox":
			return filepath.SkipDir
		case d.Type().IsRegular():
			paths <- p
		}
		return nil
	})
	close(paths)
	wg.Wait()
	if err == nil {
		err = firstErr
	}
	return fmt.Sprintf("%s MB/s read and hashed", mbps(total, time.Since(began))), err
}

func hashFile(p string) (int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	_, n, err := digest.Reader(f)
	return n, err
}

// relayoutLibrary moves the library from the bench's layout to one by
// month.
func relayoutLibrary(ctx context.Context, lib string) (string, error) {
	from, err := layout.Parse(benchTemplate)
	if err != nil {
		return "", err
	}
	to, err := layout.Parse("{year}/{month}/{name}{ext}")
	if err != nil {
		return "", err
	}
	st, err := relayout.Run(ctx, relayout.Options{Library: lib, From: from, To: to})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s moved, %s in place", commas(st.Moved), commas(st.InPlace)), nil
}

func mbps(bytes int64, d time.Duration) string {
	return fmt.Sprintf("%.0f", float64(bytes)/1e6/d.Seconds())
}
