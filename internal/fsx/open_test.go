//go:build unix

// Named pipes, sockets and devices in the file namespace are Unix things.

package fsx

import (
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// openers are the two ways fsx opens a file to read it: both must keep the
// same guarantees.
var openers = []struct {
	name string
	open func(name string, followLinks bool) (io.ReadCloser, error)
}{
	{"OpenRegular", func(name string, follow bool) (io.ReadCloser, error) {
		f, err := OpenRegular(name, follow)
		if err != nil {
			return nil, err
		}
		return f, nil
	}},
	{"OpenRandom", func(name string, follow bool) (io.ReadCloser, error) {
		r, err := OpenRandom(name, follow)
		if err != nil {
			return nil, err
		}
		return r, nil
	}},
}

// TestOpenRegularRefusesEverythingElseWithoutBlocking: every kind of
// non-regular file is refused at once, with its kind named; a regular file,
// directly or through a followed link, opens and reads. OpenRandom keeps the
// same guarantees as OpenRegular.
func TestOpenRegularRefusesEverythingElseWithoutBlocking(t *testing.T) {
	for _, o := range openers {
		t.Run(o.name, func(t *testing.T) { testOpenRefusesNonRegular(t, o.open) })
	}
	if _, err := OS.Open(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("OS.Open of a missing file = %v, want ErrNotExist", err)
	}
}

func testOpenRefusesNonRegular(t *testing.T, open func(string, bool) (io.ReadCloser, error)) {
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
			f, err := open(tc.path, tc.follow)
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
			t.Fatalf("open(%s) blocked", tc.path)
		}
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), tc.kind) || !strings.Contains(err.Error(), tc.path) {
			t.Errorf("open(%s, follow=%v) = %v, want ErrNotRegular naming the path and %q", tc.path, tc.follow, err, tc.kind)
		}
	}
	for _, p := range []string{photo, link} {
		f, err := open(p, p == link)
		if err != nil {
			t.Fatalf("open(%s): %v", p, err)
		}
		b := make([]byte, 16)
		n, err := f.Read(b)
		f.Close()
		if err != nil || string(b[:n]) != "bytes" {
			t.Errorf("read %s = %q, %v", p, b[:n], err)
		}
	}
	if _, err := open(filepath.Join(dir, "missing"), true); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want ErrNotExist", err)
	}
	if _, err := OS.Open(fifo); !errors.Is(err, ErrNotRegular) {
		t.Errorf("OS.Open of a named pipe = %v, want ErrNotRegular", err)
	}
}

// TestReaderReadsLikeAFile: ReadAt fills the buffer or says why not
// (io.EOF past the end), Read walks the file from its start, Size is the
// file's size, and a closed Reader refuses to read.
func TestReaderReadsLikeAFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "photo.jpg")
	writeFile(t, p, "0123456789")
	r, err := OpenRandom(p, false)
	if err != nil {
		t.Fatal(err)
	}
	if r.Size() != 10 || r.Name() != p {
		t.Errorf("Size, Name = %d, %q; want 10, %q", r.Size(), r.Name(), p)
	}
	b := make([]byte, 4)
	if n, err := r.ReadAt(b, 3); n != 4 || err != nil || string(b) != "3456" {
		t.Errorf("ReadAt(4 at 3) = %d %q %v", n, b[:n], err)
	}
	if n, err := r.ReadAt(b, 8); n != 2 || err != io.EOF || string(b[:n]) != "89" {
		t.Errorf("ReadAt(4 at 8) = %d %q %v, want 2 \"89\" EOF", n, b[:n], err)
	}
	all, err := io.ReadAll(r)
	if err != nil || string(all) != "0123456789" {
		t.Errorf("ReadAll = %q, %v", all, err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReadAt(b, 0); !errors.Is(err, os.ErrClosed) {
		t.Errorf("ReadAt after Close = %v, want os.ErrClosed", err)
	}
	if err := r.Close(); !errors.Is(err, os.ErrClosed) {
		t.Errorf("second Close = %v, want os.ErrClosed", err)
	}
}
