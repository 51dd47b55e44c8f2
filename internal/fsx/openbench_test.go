//go:build unix

package fsx

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestOpenCostRatio prints, for one 64 KiB header read per file, the cost
// of each way to open, read and close, as a ratio to bare system calls
// (open, fstat, pread, close). Rounds are interleaved and the fastest
// round of each kept, so a busy shared machine skews them alike. Run it
// with SHOEBOX_OPEN_BENCH=1; it asserts nothing timed.
func TestOpenCostRatio(t *testing.T) {
	if os.Getenv("SHOEBOX_OPEN_BENCH") == "" {
		t.Skip("a measurement: set SHOEBOX_OPEN_BENCH=1")
	}
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64<<10)
	ways := []struct {
		name string
		once func() error
	}{
		{"raw syscalls", func() error {
			fd, err := unix.Open(p, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
			if err != nil {
				return err
			}
			var st unix.Stat_t
			unix.Fstat(fd, &st)
			unix.Pread(fd, buf, 0)
			return unix.Close(fd)
		}},
		{"os.Open", func() error {
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			f.ReadAt(buf, 0)
			return f.Close()
		}},
		{"OpenRegular", func() error {
			f, err := OpenRegular(p, true)
			if err != nil {
				return err
			}
			f.ReadAt(buf, 0)
			return f.Close()
		}},
		{"OpenRandom", func() error {
			r, err := OpenRandom(p, true)
			if err != nil {
				return err
			}
			r.ReadAt(buf, 0)
			return r.Close()
		}},
	}
	const rounds, perRound = 15, 2000
	best := make([]time.Duration, len(ways))
	for range rounds {
		for i, w := range ways {
			start := time.Now()
			for range perRound {
				if err := w.once(); err != nil {
					t.Fatal(err)
				}
			}
			d := time.Since(start) / perRound
			if best[i] == 0 || d < best[i] {
				best[i] = d
			}
		}
	}
	for i, w := range ways {
		t.Logf("%-14s %8v per file  %.2fx raw", w.name, best[i], float64(best[i])/float64(best[0]))
	}
}
