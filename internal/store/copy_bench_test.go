package store

import (
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkCopyOf copies a store of 300,000 keys (about the library index
// of 100,000 files).
func BenchmarkCopyOf(b *testing.B) {
	src := filepath.Join(b.TempDir(), "index")
	s, err := Open(src, Options{Disposable: true})
	if err != nil {
		b.Fatal(err)
	}
	w := s.Writer(4096)
	for i := range 300_000 {
		if err := w.Put([]byte(fmt.Sprintf("f/2019/2019-03-%02d/IMG_%06d.JPG", i%28, i)), make([]byte, 48)); err != nil {
			b.Fatal(err)
		}
	}
	if err := firstError(w.Flush(), s.Close()); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		copy func(src, dst string) (*Store, error)
	}{{"files", copyFiles}, {"keys", copyByKey}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				c, err := c.copy(src, filepath.Join(b.TempDir(), fmt.Sprint(i)))
				if err != nil {
					b.Fatal(err)
				}
				c.Close()
			}
		})
	}
}
