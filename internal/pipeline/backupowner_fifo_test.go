//go:build unix

package pipeline

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Found by attack: a FIFO where the backup folder's record (or a parent folder's
// record) is looked for hangs the run forever before anything is copied,
// holding the library's lock; the CLI's signal handling means even
// SIGTERM (timeout 10 shoebox sort ...) does not end it. A record that
// is not a regular file should be refused, not opened for reading.
func TestBackupOwnerRecordThatIsAFIFOIsRefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".shoebox", backupOfFile)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := readBackupOwner(p)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Errorf("a FIFO read as a backup record")
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("readBackupOwner(%s) on a FIFO still blocked after 5s: the run hangs", p)
	}
}
