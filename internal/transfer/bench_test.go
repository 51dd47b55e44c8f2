package transfer

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

var kilobyte = make([]byte, 1024)

// BenchmarkCopy1KB is the full durable copy protocol on 1 KB files, with
// one batched directory fsync per 100 files: "each" makes every file
// durable on its own (Do), "batched" makes the temps durable 16 at a time
// (Stage, Sync, Publish), as the pipeline's workers do. Read both against
// BenchmarkDurableWrite1KB, measured in the same run:
// go test -bench 'Copy1KB|DurableWrite' -count 5.
func BenchmarkCopy1KB(b *testing.B) {
	for _, c := range []struct {
		name  string
		batch int
	}{{"each", 1}, {"batched", 16}} {
		for _, hash := range []bool{false, true} {
			name := c.name + map[bool]string{false: "", true: "-hashed"}[hash]
			b.Run(name, func(b *testing.B) { benchCopy1KB(b, c.batch, hash) })
		}
	}
}

func benchCopy1KB(b *testing.B, batch int, hash bool) {
	dir := b.TempDir()
	src := filepath.Join(dir, "src.jpg")
	if err := os.WriteFile(src, kilobyte, 0o644); err != nil {
		b.Fatal(err)
	}
	fi, _ := os.Lstat(src)
	e := New(Options{Hash: hash})
	lib := filepath.Join(dir, "lib")
	var staged []*Staged
	finish := func() {
		e.Sync(staged)
		for _, s := range staged {
			if res := s.Publish(); res.Err != nil {
				b.Fatal(res.Err)
			}
		}
		staged = staged[:0]
	}
	i := 0
	for b.Loop() {
		o := Op{Mode: Copy, Src: src, Dst: filepath.Join(lib, strconv.Itoa(i)+".jpg"), Size: fi.Size(), ModTime: fi.ModTime()}
		if batch == 1 {
			if res := e.Do(context.Background(), o); res.Err != nil {
				b.Fatal(res.Err)
			}
		} else {
			s, res := e.Stage(context.Background(), o)
			if s == nil {
				b.Fatalf("not staged: %v", res.Err)
			}
			if staged = append(staged, s); len(staged) == batch {
				finish()
			}
		}
		if i++; i%100 == 0 {
			if err := e.Flush(); err != nil {
				b.Fatal(err)
			}
		}
	}
	finish()
	if err := e.Flush(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkDurableWrite1KB is the floor: write, fsync, rename, nothing else.
func BenchmarkDurableWrite1KB(b *testing.B) {
	dir := b.TempDir()
	i := 0
	for b.Loop() {
		tmp := filepath.Join(dir, ".tmp"+strconv.Itoa(i))
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.Write(kilobyte); err != nil {
			b.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Join(dir, strconv.Itoa(i)+".jpg")); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkCopy4MB is the cost of hashing at import (Options.Hash: reads,
// writes and BLAKE3) against the kernel's copy (copy_file_range), durable
// either way, on a camera-sized file:
//
//	go test -run X -bench 'Copy4MB/kernel' ./internal/transfer
//	go test -run X -bench 'Copy4MB/hashed' ./internal/transfer
//
// run alternately, as the machine's load drifts.
func BenchmarkCopy4MB(b *testing.B) {
	data := make([]byte, 4<<20)
	for i := range data {
		data[i] = byte(i * 7 / 3)
	}
	for _, hash := range []bool{false, true} {
		name := map[bool]string{false: "kernel", true: "hashed"}[hash]
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			src := filepath.Join(dir, "src.jpg")
			if err := os.WriteFile(src, data, 0o644); err != nil {
				b.Fatal(err)
			}
			fi, err := os.Stat(src)
			if err != nil {
				b.Fatal(err)
			}
			e := New(Options{Hash: hash})
			b.SetBytes(int64(len(data)))
			i := 0
			for b.Loop() {
				dst := filepath.Join(dir, "lib", strconv.Itoa(i)+".jpg")
				i++
				res := e.Do(context.Background(), Op{Mode: Copy, Src: src, Dst: dst, Size: fi.Size(), ModTime: fi.ModTime()})
				if res.Err != nil {
					b.Fatal(res.Err)
				}
			}
		})
	}
}
