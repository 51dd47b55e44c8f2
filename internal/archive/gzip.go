package archive

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"sync"
)

// A tgz member is read by inflating the archive from its start up to the
// member. Doing that afresh for every read costs a pass over the archive
// per member, O(n²) in all; instead the streams a read leaves behind are
// kept, each at the offset where it stopped, and a read takes the one
// nearest behind its member and skips forward. Members asked for in about
// archive order then cost about one pass per reading worker: the scan
// emits them in that order, and the transfer stage copies a tgz's members
// in it (pipeline.tgzGroups). A read behind every kept stream starts a
// new one. Eight kept streams cover the default workers' copies and
// their verification.
//
// Memory: a stream holds flate's 32 KiB window, its tables and a 64 KiB
// read buffer, about 105 KiB measured; at most keptStreams idle ones per
// archive, plus one per member being read (bounded by the workers). Disk:
// none.
const keptStreams = 8

// gzipStreams are an archive's idle inflating streams.
type gzipStreams struct {
	mu       sync.Mutex
	idle     []*gzipStream
	restarts int // streams started from the archive's start (for tests)
}

// gzipStream is the archive's tar stream, pos bytes in.
type gzipStream struct {
	zr  *gzip.Reader
	pos int64
}

func (s *gzipStream) Read(p []byte) (int, error) {
	n, err := s.zr.Read(p)
	s.pos += int64(n)
	return n, err
}

// at returns a stream positioned at offset off of a's tar stream.
func (g *gzipStreams) at(a *Archive, off int64) (*gzipStream, error) {
	s := g.take(off)
	if s == nil {
		var err error
		if s, err = g.start(a); err != nil {
			return nil, err
		}
	}
	if _, err := io.CopyN(io.Discard, s, off-s.pos); err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrCorrupt, err)
	}
	return s, nil
}

// take removes and returns the idle stream furthest along but not past
// off, or nil.
func (g *gzipStreams) take(off int64) *gzipStream {
	g.mu.Lock()
	defer g.mu.Unlock()
	best := -1
	for i, s := range g.idle {
		if s.pos <= off && (best < 0 || s.pos > g.idle[best].pos) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	s := g.idle[best]
	g.idle = append(g.idle[:best], g.idle[best+1:]...)
	return s
}

func (g *gzipStreams) start(a *Archive) (*gzipStream, error) {
	g.mu.Lock()
	g.restarts++
	g.mu.Unlock()
	zr, err := gzip.NewReader(bufio.NewReaderSize(io.NewSectionReader(a.f, 0, a.size), 64<<10))
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrCorrupt, err)
	}
	return &gzipStream{zr: zr}, nil
}

// put keeps s for later reads, dropping the least recently kept stream
// when keptStreams are kept already.
func (g *gzipStreams) put(s *gzipStream) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.idle) == keptStreams {
		g.idle = append(g.idle[:0], g.idle[1:]...)
	}
	g.idle = append(g.idle, s)
}

// Passes is how many times reads of a tgz's members inflated it from its
// start (the indexing pass not counted); 0 for a zip or a plain tar.
func (a *Archive) Passes() int {
	a.gz.mu.Lock()
	defer a.gz.mu.Unlock()
	return a.gz.restarts
}

// StreamOffset is where m's bytes begin in its archive's stream, and
// sequential is true when reading members out of that order costs a pass
// over the archive (a tgz): a caller reading many members reads them in
// order of StreamOffset.
func (m *Member) StreamOffset() (off int64, sequential bool) {
	return m.at, m.zf == nil && m.a.format == "tgz"
}
