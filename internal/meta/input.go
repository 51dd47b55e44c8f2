package meta

import (
	"encoding/binary"
	"io"
)

// input gives bounded random access to a file: bytes of the first read come
// from memory, anything further is read on demand, within a total budget.
type input struct {
	head   []byte      // file bytes from offset 0
	f      io.ReaderAt // nil when head holds the whole file
	size   int64
	read   int64  // bytes read from f so far
	err    error  // first read failure, for the warning
	win    []byte // a second in-memory span, e.g. a moov at the end of a video
	winOff int64
}

// window loads n bytes at off into memory so later reads there cost nothing.
func (in *input) window(off int64, n int) {
	if b := in.at(off, n); b != nil {
		in.win, in.winOff = b, off
	}
}

// at returns n bytes at off, or nil when they are outside the file, larger
// than one block, or over the read budget. Slices of head stay valid; data
// read from the file is freshly allocated so callers may keep several.
func (in *input) at(off int64, n int) []byte {
	if off < 0 || n < 0 || off > in.size || int64(n) > in.size-off {
		return nil
	}
	if off+int64(n) <= int64(len(in.head)) {
		return in.head[off : off+int64(n)]
	}
	if in.win != nil && off >= in.winOff && off+int64(n) <= in.winOff+int64(len(in.win)) {
		return in.win[off-in.winOff : off-in.winOff+int64(n)]
	}
	if in.f == nil || n > maxBlockBytes || in.read+int64(n) > maxReadBytes {
		return nil
	}
	buf := make([]byte, n)
	got, err := in.f.ReadAt(buf, off)
	in.read += int64(got)
	if got < n {
		if in.err == nil {
			in.err = err
		}
		return nil
	}
	return buf
}

func (in *input) u32be(off int64) (uint32, bool) {
	b := in.at(off, 4)
	if b == nil {
		return 0, false
	}
	return binary.BigEndian.Uint32(b), true
}
