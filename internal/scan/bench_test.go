package scan

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// BenchmarkWalk100k walks 100,000 empty files in 200 directories (warm
// cache, built once) and reports files/s, next to filepath.WalkDir with
// one Info call per file as the baseline.
func BenchmarkWalk100k(b *testing.B) {
	root := b.TempDir()
	build100k(b, root)
	for _, workers := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("scan/workers=%d", workers), func(b *testing.B) {
			for b.Loop() {
				n := 0
				_, err := Walk(context.Background(), []string{root}, Options{Workers: workers},
					func(f File) error { n++; return nil }, nil)
				if err != nil || n != 100_000 {
					b.Fatalf("walked %d files: %v", n, err)
				}
			}
			b.ReportMetric(float64(100_000*b.N)/b.Elapsed().Seconds(), "files/s")
		})
	}
	b.Run("filepath.WalkDir+Info", func(b *testing.B) {
		for b.Loop() {
			n := 0
			err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil || !d.Type().IsRegular() {
					return err
				}
				if _, err := d.Info(); err != nil {
					return err
				}
				n++
				return nil
			})
			if err != nil || n != 100_000 {
				b.Fatalf("walked %d files: %v", n, err)
			}
		}
		b.ReportMetric(float64(100_000*b.N)/b.Elapsed().Seconds(), "files/s")
	})
}

func build100k(b *testing.B, root string) {
	b.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for d := range 200 {
		wg.Go(func() {
			dir := filepath.Join(root, fmt.Sprintf("d%03d", d))
			if err := os.Mkdir(dir, 0o755); err != nil {
				errs <- err
				return
			}
			for i := range 500 {
				f, err := os.Create(filepath.Join(dir, fmt.Sprintf("IMG_%04d.JPG", i)))
				if err != nil {
					errs <- err
					return
				}
				f.Close()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
}
