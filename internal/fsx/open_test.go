package fsx

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOpenRegularRefusesEverythingElseWithoutBlocking: every kind of
// non-regular file is refused at once, with its kind named; a regular file,
// directly or through a followed link, opens and reads.
func TestOpenRegularRefusesEverythingElseWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	photo := filepath.Join(dir, "photo.jpg")
	writeFile(t, photo, "bytes")
	fifo := filepath.Join(dir, "fifo.jpg")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes: %v", err)
	}
	sock := filepath.Join(dir, "s.jpg")
	if l, err := net.Listen("unix", sock); err == nil {
		defer l.Close()
	} else {
		sock = ""
	}
	link := filepath.Join(dir, "link.jpg")
	if err := os.Symlink(photo, link); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.jpg")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	refused := []struct {
		path   string
		follow bool
		kind   string
	}{
		{fifo, true, "named pipe"},
		{fifo, false, "named pipe"},
		{filepath.Join(dir), true, "directory"},
		{zero, true, "character device"},
		{link, false, "symbolic link"},
		{"/dev/null", false, "character device"},
	}
	if sock != "" {
		refused = append(refused, struct {
			path   string
			follow bool
			kind   string
		}{sock, true, "socket"})
	}
	for _, tc := range refused {
		done := make(chan error, 1)
		go func() {
			f, err := OpenRegular(tc.path, tc.follow)
			if err == nil {
				f.Close()
			}
			done <- err
		}()
		var err error
		select {
		case err = <-done:
		case <-time.After(time.Minute): // not a timing assertion: a blocked open never returns
			if fd, err := syscall.Open(tc.path, syscall.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				syscall.Close(fd)
			}
			t.Fatalf("OpenRegular(%s) blocked", tc.path)
		}
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), tc.kind) || !strings.Contains(err.Error(), tc.path) {
			t.Errorf("OpenRegular(%s, follow=%v) = %v, want ErrNotRegular naming the path and %q", tc.path, tc.follow, err, tc.kind)
		}
	}
	for _, p := range []string{photo, link} {
		f, err := OpenRegular(p, p == link)
		if err != nil {
			t.Fatalf("OpenRegular(%s): %v", p, err)
		}
		b := make([]byte, 16)
		n, err := f.Read(b)
		f.Close()
		if err != nil || string(b[:n]) != "bytes" {
			t.Errorf("read %s = %q, %v", p, b[:n], err)
		}
	}
	if _, err := OpenRegular(filepath.Join(dir, "missing"), true); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want ErrNotExist", err)
	}
	if _, err := OS.Open(fifo); !errors.Is(err, ErrNotRegular) {
		t.Errorf("OS.Open of a named pipe = %v, want ErrNotRegular", err)
	}
}
