//go:build unix

// Named pipes in the file namespace are a Unix thing.

package journal

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
)

// TestNamedPipeAsJournalDoesNotHang: a named pipe where a journal should be
// is refused at once by every reader instead of blocking the run forever.
func TestNamedPipeAsJournalDoesNotHang(t *testing.T) {
	p := filepath.Join(t.TempDir(), "20260101T000000Z-0001.journal")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("no named pipes: %v", err)
	}
	for name, read := range map[string]func() error{
		"Read":   func() error { _, err := Read(p, nil); return err },
		"Closed": func() error { _, err := Closed(p); return err },
	} {
		done := make(chan error, 1)
		go func() { done <- read() }()
		select {
		case err := <-done:
			if !errors.Is(err, fsx.ErrNotRegular) {
				t.Errorf("%s = %v, want ErrNotRegular", name, err)
			}
		case <-time.After(time.Minute): // not a timing assertion: a blocked open never returns
			if fd, err := syscall.Open(p, syscall.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				syscall.Close(fd)
			}
			t.Fatalf("%s blocked on a named pipe", name)
		}
	}
}
