package faultfuse

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Each fault does what it says, and the drive comes back from each.
func TestFaults(t *testing.T) {
	d := Mount(t)
	p := filepath.Join(d.Mount, "a.txt")
	if err := os.WriteFile(p, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(d.Backing, "a.txt")); err != nil || string(b) != "hello" {
		t.Fatalf("backing: %q %v", b, err)
	}

	d.Set(ReadOnly)
	if _, err := os.ReadFile(p); err != nil {
		t.Errorf("read-only: read: %v", err)
	}
	if err := os.WriteFile(filepath.Join(d.Mount, "b.txt"), nil, 0o644); !errors.Is(err, syscall.EROFS) {
		t.Errorf("read-only: create: %v, want EROFS", err)
	}
	if err := os.Remove(p); !errors.Is(err, syscall.EROFS) {
		t.Errorf("read-only: remove: %v, want EROFS", err)
	}

	d.Set(IOError)
	if _, err := os.Stat(d.Mount); !errors.Is(err, syscall.EIO) {
		t.Errorf("eio: stat the mount point: %v, want EIO", err)
	}
	if _, err := os.ReadFile(p); !errors.Is(err, syscall.EIO) {
		t.Errorf("eio: read: %v, want EIO", err)
	}

	d.Set(Healthy)
	f, err := os.Open(d.Mount)
	if err != nil {
		t.Fatal(err)
	}
	d.Set(Vanished)
	if got := d.Underneath(); len(got) != 0 {
		t.Errorf("vanished: the mount point holds %v", got)
	}
	if _, err := f.Readdirnames(-1); !errors.Is(err, syscall.EIO) {
		t.Errorf("vanished: an open folder reads: %v, want EIO", err)
	}
	f.Close()
	if !d.Released(5 * time.Second) {
		t.Errorf("the vanished mount is still held")
	}
	d.Set(Healthy)
	if b, err := os.ReadFile(p); err != nil || string(b) != "hello" {
		t.Errorf("plugged back: %q %v", b, err)
	}
}

// An armed drive goes bad at the nth operation, which fails already.
func TestFailAt(t *testing.T) {
	d := Mount(t)
	d.FailAt(OpCreate, 2, IOError)
	if err := os.WriteFile(filepath.Join(d.Mount, "1"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d.Mount, "2"), nil, 0o644); !errors.Is(err, syscall.EIO) {
		t.Errorf("the 2nd create: %v, want EIO", err)
	}
	if !d.Fired() {
		t.Errorf("not fired")
	}
}
