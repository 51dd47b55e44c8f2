package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// manyPhotos is n photos over 28 days, every fourth with an XMP sidecar.
func manyPhotos(n int) map[string][]byte {
	files := map[string][]byte{}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("d%d/IMG_%04d", i%7, i)
		files[name+".JPG"] = photo(2019, 7, 1+i%28, 1+i%20, fmt.Sprint("photo ", i))
		if i%4 == 0 {
			files[name+".xmp"] = []byte(fmt.Sprintf(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><!-- %d --></x:xmpmeta>`, i))
		}
	}
	return files
}

// assertAccounted checks that every planned file has exactly one outcome,
// that the summary adds up, and that the library agrees with the outcomes.
func assertAccounted(t *testing.T, rec *recorder, sum Summary, maxFailed int64) {
	t.Helper()
	if got := sum.Transferred + sum.Failed + sum.NotAttempted; got != sum.Planned || sum.Planned == 0 {
		t.Errorf("transferred %d + failed %d + not attempted %d = %d, planned %d",
			sum.Transferred, sum.Failed, sum.NotAttempted, got, sum.Planned)
	}
	if sum.NotAttempted == 0 || sum.Failed > maxFailed {
		t.Errorf("summary %+v: want a stop after at most %d failures", sum, maxFailed)
	}
	seen := map[string]Outcome{}
	for _, ev := range rec.ofType("op") {
		switch ev.Outcome {
		case OutTransferred, OutRenamed, OutFailed, OutNotAttempted:
		default:
			continue
		}
		if prev, dup := seen[ev.Src]; dup {
			t.Errorf("%s reported twice: %s, %s", ev.Src, prev, ev.Outcome)
		}
		seen[ev.Src] = ev.Outcome
		_, err := os.Stat(ev.Dst)
		landed := err == nil
		if want := ev.Outcome == OutTransferred || ev.Outcome == OutRenamed; landed != want {
			t.Errorf("%s is %s, but its destination exists: %v", ev.Src, ev.Outcome, landed)
		}
	}
	if int64(len(seen)) != sum.Planned {
		t.Errorf("%d files have an outcome, %d were planned", len(seen), sum.Planned)
	}
}

// TestStopAccountsForEveryPlannedFile: a read-only destination (EROFS on
// the mode's own mutation) or Ctrl-C stops the run in every mode, and the
// summary still accounts for every planned file once.
func TestStopAccountsForEveryPlannedFile(t *testing.T) {
	ops := map[transfer.Mode]string{transfer.Copy: "create", transfer.Move: "rename", transfer.Hardlink: "link", transfer.Symlink: "symlink"}
	for _, mode := range []transfer.Mode{transfer.Copy, transfer.Move, transfer.Hardlink, transfer.Symlink} {
		t.Run("EROFS/"+mode.String(), func(t *testing.T) {
			if mode == transfer.Symlink {
				fsxtest.NeedSymlinks(t)
			}
			c := newRelCase(t, manyPhotos(300))
			c.cfg.Mode = mode
			c.cfg.FS = fsx.NewFaults(fsx.OS).Add(fsx.Rule{Op: ops[mode], After: 60, Err: syscall.EROFS})
			sum, err := c.sortAll()
			if !errors.Is(err, ErrStopped) {
				t.Fatalf("run error = %v, want a stop", err)
			}
			assertAccounted(t, c.rec, sum, int64(c.cfg.Workers))
		})
		t.Run("Ctrl-C/"+mode.String(), func(t *testing.T) {
			if mode == transfer.Symlink {
				fsxtest.NeedSymlinks(t)
			}
			c := newRelCase(t, manyPhotos(300))
			c.cfg.Mode = mode
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			// Stopped from inside the transfer, at its 20th crash point
			// (a few files in, in every mode: links reach one per new folder): each later file is
			// then not attempted, whatever the scheduling. (Cancelling on
			// the 60th landing announced could come after the workers had
			// staged all 300, leaving nothing to count.)
			var once sync.Once
			var points atomic.Int64
			faults := fsx.NewFaults(fsx.OS)
			faults.OnCrashPoint(func(string) {
				if points.Add(1) == 20 {
					once.Do(cancel)
				}
			})
			c.cfg.FS = faults
			run, err := Open(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			runErr := run.All(ctx)
			run.Close()
			if !errors.Is(runErr, context.Canceled) {
				t.Fatalf("run error = %v, want context.Canceled", runErr)
			}
			assertAccounted(t, c.rec, run.Summary(), 0)
		})
	}
}
