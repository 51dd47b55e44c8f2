//go:build linux

package meta

import (
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// TestColdHeaderReads measures what the metadata stage costs the disk: it
// makes SHOEBOX_COLD_N (default 300) real 4 MB JPEGs in SHOEBOX_COLD_DIR
// (kept for the next run), drops each from the page cache, reads every
// header on 2×cores workers as the stage does, and prints the bytes this
// process read from the disk (/proc/self/io read_bytes) per file and the
// time. A measurement, not a test: it runs only with SHOEBOX_COLD_DIR set
// and asserts only that every file was dated from its EXIF.
func TestColdHeaderReads(t *testing.T) {
	dir := os.Getenv("SHOEBOX_COLD_DIR")
	if dir == "" {
		t.Skip("a measurement: set SHOEBOX_COLD_DIR to a folder on the disk to measure")
	}
	n := 300
	if s := os.Getenv("SHOEBOX_COLD_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	paths := coldPhotos(t, dir, n, 4<<20)
	for _, p := range paths {
		fsxtest.DropFromCache(t, p)
	}
	before := fsxtest.ProcIO(t, "read_bytes")
	start := time.Now()
	readHeaders(t, paths, 2*runtime.NumCPU())
	elapsed := time.Since(start)
	read := fsxtest.ProcIO(t, "read_bytes") - before
	t.Logf("%d files: %.1f KiB read from disk per file, %v per file, %v in all",
		len(paths), float64(read)/float64(len(paths))/1024, elapsed/time.Duration(len(paths)), elapsed)
}

func readHeaders(t *testing.T, paths []string, workers int) {
	jobs := make(chan string)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := NewReader(Options{})
			for p := range jobs {
				if info := r.File(p, 4<<20, time.Time{}); info.Date.Source != SourceEXIF {
					mu.Lock()
					t.Errorf("%s: date from %v, want EXIF (%s)", p, info.Date.Source, info.Warning)
					mu.Unlock()
				}
			}
		}()
	}
	for _, p := range paths {
		jobs <- p
	}
	close(jobs)
	wg.Wait()
}

// coldPhotos makes (or finds from an earlier run) n JPEGs of size bytes:
// a real EXIF header, then incompressible bytes as a camera's image data is.
func coldPhotos(t *testing.T, dir string, n, size int) []string {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	paths := make([]string, n)
	for i := range paths {
		paths[i] = filepath.Join(dir, fmt.Sprintf("IMG_%04d.JPG", i))
		if fi, err := os.Stat(paths[i]); err == nil && fi.Size() == int64(size) {
			continue
		}
		data := fixture.JPEG(fixture.EXIF{When: time.Date(2024, 5, 1, 10, 0, i%60, 0, time.UTC), Camera: fixture.Camera{Make: "Canon", Model: "EOS"}})
		pad := make([]byte, size-len(data))
		rand.Read(pad)
		if err := os.WriteFile(paths[i], append(data, pad...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return paths
}
