package archive

import (
	"archive/zip"
	"fmt"
	"io"
)

// maxSkip bounds how far a read at an offset inflates and discards to get
// there in a compressed member (a video's index at its end): past it the
// header reader gets an error and dates the file from what it has.
const maxSkip = 256 << 20

// randomReader gives a member's bytes by offset. A stored zip member or
// a plain tar's is read in place from the archive file; a compressed one is inflated from
// its start, forward only, and reopened when a read goes back.
type randomReader struct {
	stream io.ReadCloser
	pos    int64
}

// ReaderAt is a member opened for reads at offsets.
type ReaderAt interface {
	io.ReaderAt
	io.Closer
}

// OpenReaderAt opens m for reads at offsets, for the header reader; its
// Close must be called.
func (m *Member) OpenReaderAt() ReaderAt { return &memberFile{m: m, path: m.Path()} }

func (r *randomReader) readAt(m *Member, p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("read %s at %d: negative offset", m.Name, off)
	}
	if off >= m.Size {
		return 0, io.EOF
	}
	if start, ok, err := m.inPlace(); ok || err != nil {
		if err != nil {
			return 0, m.problem(err)
		}
		want := min(int64(len(p)), m.Size-off)
		n, err := m.a.f.ReadAt(p[:want], start+off)
		if err == nil && int64(n) < int64(len(p)) {
			err = io.EOF
		}
		return n, err
	}
	if r.stream == nil || off < r.pos {
		if err := r.restart(m); err != nil {
			return 0, err
		}
	}
	if off-r.pos > maxSkip {
		return 0, m.problem(ErrFarSeek)
	}
	if off > r.pos {
		n, err := io.CopyN(io.Discard, r.stream, off-r.pos)
		r.pos += n
		if err != nil {
			return 0, err
		}
	}
	n, err := io.ReadFull(r.stream, p)
	r.pos += int64(n)
	if err == io.ErrUnexpectedEOF {
		err = io.EOF
	}
	return n, err
}

func (r *randomReader) restart(m *Member) error {
	r.close()
	rc, err := m.open()
	if err != nil {
		return err
	}
	r.stream, r.pos = rc, 0
	return nil
}

func (r *randomReader) close() {
	if r.stream != nil {
		r.stream.Close()
		r.stream = nil
	}
}

// inPlace is where the member's bytes lie as they are in the archive
// file, when they do: a stored zip member, any member of a plain tar.
func (m *Member) inPlace() (start int64, ok bool, err error) {
	switch {
	case m.zf != nil && m.zf.Method == zip.Store:
		start, err := m.zf.DataOffset()
		return start, true, err
	case m.zf == nil && m.a.format == "tar":
		return m.at, true, nil
	}
	return 0, false, nil
}
