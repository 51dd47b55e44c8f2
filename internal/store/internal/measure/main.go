// Command measure compares candidate embedded stores for internal/store:
// insert N records in random key order in batches, then iterate in key order,
// reporting wall time per phase and the process peak RSS (VmHWM).
// Each engine is linked into its own binary (build tag = engine name) so one
// engine's package init and code pages do not count against another:
//
//	go build -tags pebble -o /tmp/m . && /tmp/m -engine pebble -dir /tmp/x
//
// It is a nested module so the losing engines never enter shoebox's go.mod.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"
)

var memtable, cacheBytes int64

type engine interface {
	putBatch(keys, vals [][]byte) error
	iterate(fn func(k, v []byte)) error
	close() error
}

func main() {
	name := flag.String("engine", "pebble", "pebble|pebble2|bbolt|sqlite")
	dir := flag.String("dir", "", "scratch dir (removed first)")
	n := flag.Int("n", 1_000_000, "records")
	batch := flag.Int("batch", 10_000, "records per batch")
	flag.Int64Var(&memtable, "memtable", 4<<20, "pebble memtable bytes")
	flag.Int64Var(&cacheBytes, "cache", 8<<20, "block/page cache bytes")
	flag.Parse()
	// Mirror how shoebox will run: a soft memory limit keeps Go's heap honest.
	debug.SetMemoryLimit(48 << 20)
	os.RemoveAll(*dir)
	os.MkdirAll(*dir, 0o755)
	e, err := open(*name, *dir)
	if err != nil {
		log.Fatal(err)
	}
	t0 := time.Now()
	keys := make([][]byte, 0, *batch)
	vals := make([][]byte, 0, *batch)
	for i := 0; i < *n; i++ {
		keys = append(keys, key(uint64(i)))
		vals = append(vals, val(uint64(i)))
		if len(keys) == *batch || i == *n-1 {
			if err := e.putBatch(keys, vals); err != nil {
				log.Fatal(err)
			}
			keys, vals = keys[:0], vals[:0]
		}
	}
	insert := time.Since(t0)
	insRSS := rss()
	t1 := time.Now()
	var count int
	var prev []byte
	err = e.iterate(func(k, v []byte) {
		if prev != nil && bytes.Compare(prev, k) >= 0 {
			log.Fatalf("out of order")
		}
		prev = append(prev[:0], k...)
		count++
	})
	if err != nil {
		log.Fatal(err)
	}
	iter := time.Since(t1)
	if err := e.close(); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("| %s | %d | %.1f s | %.1f s | %s | %s | %s |\n", *name, count, insert.Seconds(), iter.Seconds(), insRSS, rss(), du(*dir))
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// key is ~60 bytes shaped like a planned-record key; its order is unrelated to i.
func key(i uint64) []byte {
	r := splitmix(i)
	y := 2000 + r%25
	m := 1 + (r>>8)%12
	d := 1 + (r>>16)%28
	return fmt.Appendf(nil, "d/%d/%d-%02d-%02d/home/u/Pictures/d%03d/IMG_%08d.JPG", y, y, m, d, (r>>24)%1000, i)
}

func val(i uint64) []byte {
	v := make([]byte, 0, 100)
	v = fmt.Appendf(v, "/home/u/Pictures/in/%016x/%d/", splitmix(i+1), i)
	for len(v) < 100 {
		v = append(v, byte(splitmix(i+uint64(len(v)))))
	}
	return v
}

func rss() string {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:"))
		}
	}
	return "?"
}

func du(dir string) string {
	var total int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			total += fi.Size()
		}
		return nil
	})
	return fmt.Sprintf("%d MB", total>>20)
}

// engines is filled by the engine files, each behind its own build tag.
var engines = map[string]func(dir string) (engine, error){
	"none": func(string) (engine, error) { return nop{}, nil },
}

func open(name, dir string) (engine, error) {
	if f, ok := engines[name]; ok {
		return f(dir)
	}
	return nil, fmt.Errorf("engine %q not linked: build with -tags %s", name, name)
}

// nop measures the harness itself (key generation, Go runtime).
type nop struct{}

func (nop) putBatch(keys, vals [][]byte) error { return nil }
func (nop) iterate(fn func(k, v []byte)) error { return nil }
func (nop) close() error                       { return nil }
