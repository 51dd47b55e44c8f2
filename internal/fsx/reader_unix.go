//go:build unix

package fsx

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// Reader on Unix: a bare descriptor, opened non-blocking (so a FIFO swapped
// in after the scan cannot hang the open) and checked regular by fstat. It
// stays non-blocking: O_NONBLOCK has no effect on reads of a regular file,
// and no poller is involved.
type Reader struct {
	fd   int
	name string
	size int64
	off  int64 // next offset for Read
}

func openRandom(name string, followLinks bool) (*Reader, error) {
	fd, st, err := openRegularFd(name, followLinks)
	if err != nil {
		return nil, err
	}
	adviseRandom(fd)
	return &Reader{fd: fd, name: name, size: st.Size}, nil
}

// ReadAt reads len(p) bytes at off, as io.ReaderAt: fewer only with an
// error, io.EOF at the end of the file.
func (r *Reader) ReadAt(p []byte, off int64) (int, error) {
	if r.fd < 0 {
		return 0, &os.PathError{Op: "read", Path: r.name, Err: os.ErrClosed}
	}
	n := 0
	for n < len(p) {
		m, err := unix.Pread(r.fd, p[n:], off+int64(n))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return n, &os.PathError{Op: "read", Path: r.name, Err: err}
		}
		if m == 0 {
			return n, io.EOF
		}
		n += m
	}
	return n, nil
}

// Read reads from where the last Read stopped, as io.Reader.
func (r *Reader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, err := r.ReadAt(p, r.off)
	r.off += int64(n)
	if err == io.EOF && n > 0 {
		err = nil // io.Reader: data first, EOF on the next call
	}
	return n, err
}

// Size is the file's size when it was opened.
func (r *Reader) Size() int64 { return r.size }

// Name is the path the Reader was opened with.
func (r *Reader) Name() string { return r.name }

// Close releases the descriptor; a second Close reports os.ErrClosed.
func (r *Reader) Close() error {
	if r.fd < 0 {
		return &os.PathError{Op: "close", Path: r.name, Err: os.ErrClosed}
	}
	err := unix.Close(r.fd)
	r.fd = -1
	if err != nil && err != unix.EINTR { // after EINTR the descriptor is gone on Linux: never close it twice
		return &os.PathError{Op: "close", Path: r.name, Err: err}
	}
	return nil
}
