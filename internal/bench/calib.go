package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// calibrate times the plainest durable write loop for the same files: read
// the source, write a temp file, fsync it, rename it into place, with the
// same number of workers. It is the disk's own limit for this workload, so
// the copy stage can be read as a ratio of it.
func calibrate(dir, src string, count, workers int) (time.Duration, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	for d := 0; d*PerDir < count; d++ {
		if err := os.MkdirAll(filepath.Join(dir, fmt.Sprint(d)), 0o755); err != nil {
			return 0, err
		}
	}
	jobs := make(chan int, 256)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				if err := durableWrite(dir, src, i); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		}()
	}
	for i := 0; i < count; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	took := time.Since(start)
	select {
	case err := <-errs:
		return took, err
	default:
		return took, nil
	}
}

func durableWrite(dir, src string, i int) error {
	data, err := os.ReadFile(sourcePath(src, i))
	if err != nil {
		return err
	}
	final := filepath.Join(dir, fmt.Sprint(i/PerDir), fmt.Sprint(i))
	tmp := final + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, final)
}
