//go:build unix

// Named pipes in the file namespace are a Unix thing.

package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// swapForFIFO replaces the file at path by a named pipe with no writer: a
// plain open(2) of it blocks until a writer comes, which never happens.
func swapForFIFO(t *testing.T, path string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
}

// unblockFIFO opens the pipe for writing, which releases a reader stuck in
// open(2): a failed test must not leave a goroutine hung forever.
func unblockFIFO(path string) {
	if fd, err := syscall.Open(path, syscall.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		syscall.Close(fd)
	}
}

// mustFinish runs stage and fails the test if it has not returned by a
// generous deadline: a stage that blocked on the pipe would never return.
// The deadline is not a timing assertion: any healthy run takes well under
// a second, a blocked one takes forever.
func mustFinish(t *testing.T, fifo, what string, stage func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- stage() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	case <-time.After(time.Minute):
		unblockFIFO(fifo)
		t.Fatalf("%s blocked on the named pipe %s", what, fifo)
	}
}

// TestFIFOSwappedInAfterScanNeverBlocks replaces a scanned photo (or
// sidecar) by a named pipe just before each stage that reads files: the
// header reader, the sidecar reader, dedup's hashing, the copy, and
// verification. Each must refuse it at once, name it, and go on.
func TestFIFOSwappedInAfterScanNeverBlocks(t *testing.T) {
	same := map[string][]byte{ // equal sizes, so dedup hashes both
		"IMG_1.JPG": photo(2019, 7, 4, 10, "one"),
		"IMG_2.JPG": photo(2019, 7, 4, 11, "two"),
	}
	takeout := map[string][]byte{
		"beach.jpg":                            stripDates(fixture.JPEG(fixture.EXIF{})),
		"beach.jpg.supplemental-metadata.json": []byte(`{"title":"beach.jpg","photoTakenTime":{"timestamp":"1562252400"}}`),
	}
	cases := []struct {
		name   string
		files  map[string][]byte
		victim string
		before string // the stage run right after the swap
		verify bool
	}{
		{"metadata", same, "IMG_1.JPG", "meta", false},
		{"dedup hashing", same, "IMG_1.JPG", "plan", false},
		{"sidecar", takeout, "beach.jpg.supplemental-metadata.json", "plan", false},
		{"copy", same, "IMG_1.JPG", "transfer", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newRelCase(t, tc.files)
			victim := filepath.Join(c.src, tc.victim)
			run, err := Open(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer run.Close()
			ctx := context.Background()
			stages := []struct {
				name string
				run  func(context.Context) error
			}{{"scan", run.Scan}, {"meta", run.Meta}, {"plan", run.Plan}, {"transfer", run.Transfer}}
			for _, st := range stages {
				if st.name == tc.before {
					swapForFIFO(t, victim)
				}
				mustFinish(t, victim, st.name, func() error { return st.run(ctx) })
			}
			if !c.rec.reportedWith(victim, "named pipe") {
				t.Errorf("the pipe %s is never reported as a named pipe; events: %+v", victim, c.rec.events)
			}
			if fi, err := os.Lstat(victim); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
				t.Errorf("the pipe itself was touched: %v %v", fi, err)
			}
		})
	}
}

// swapOnLstat is the real filesystem, except that right after the first
// Lstat of one path has answered, that path is replaced by a named pipe: the
// race between transfer's check and its open, made certain.
type swapOnLstat struct {
	fsx.FS
	t    *testing.T
	path string
	once sync.Once
}

func (s *swapOnLstat) Lstat(name string) (os.FileInfo, error) {
	fi, err := s.FS.Lstat(name)
	if name == s.path {
		s.once.Do(func() { swapForFIFO(s.t, name) })
	}
	return fi, err
}

// TestFIFOSwappedInDuringTransferNeverBlocks covers the two opens of a
// source inside the transfer: the copy's (swapped between its check and its
// open) and verification's (swapped once the temp is written).
func TestFIFOSwappedInDuringTransferNeverBlocks(t *testing.T) {
	t.Run("between check and open", func(t *testing.T) {
		c := newRelCase(t, threePhotos())
		victim := filepath.Join(c.src, "IMG_1.JPG")
		c.cfg.FS = &swapOnLstat{FS: fsx.OS, t: t, path: victim}
		mustFinish(t, victim, "sort", func() error { _, err := c.sortAll(); return err })
		assertFailedOnly(t, c.rec, map[string][]string{victim: {"named pipe"}})
		assertNoTemps(t, c.dst)
	})
	t.Run("hardlink between check and link", func(t *testing.T) {
		c := newRelCase(t, threePhotos())
		c.cfg.Mode = transfer.Hardlink
		victim := filepath.Join(c.src, "IMG_1.JPG")
		c.cfg.FS = &swapOnLstat{FS: fsx.OS, t: t, path: victim}
		mustFinish(t, victim, "sort", func() error { _, err := c.sortAll(); return err })
		assertFailedOnly(t, c.rec, map[string][]string{victim: {"changed"}})
		if _, err := os.Lstat(filepath.Join(c.dst, day+"IMG_1.JPG")); err == nil {
			t.Errorf("a link to the named pipe is in the library")
		}
	})
	t.Run("before verification", func(t *testing.T) {
		c := newRelCase(t, threePhotos())
		c.cfg.Verify = true
		victim := filepath.Join(c.src, "IMG_1.JPG")
		faults := fsx.NewFaults(fsx.OS)
		var once sync.Once
		faults.OnCrashPoint(func(point string) {
			if point == fsx.AfterTempWrite {
				once.Do(func() { swapForFIFO(t, victim) })
			}
		})
		c.cfg.FS = faults
		mustFinish(t, victim, "sort", func() error { _, err := c.sortAll(); return err })
		// Whichever check sees it first (the change check or verification's
		// open), the file fails and nothing lands.
		if _, failed := c.rec.failed()[victim]; !failed {
			t.Errorf("the pipe %s is not reported; failures: %v", victim, c.rec.failed())
		}
		if got := snapshot(t, c.dst); got[day+"IMG_1.JPG"] != "" {
			t.Errorf("IMG_1.JPG landed from a named pipe")
		}
		assertNoTemps(t, c.dst)
	})
}
