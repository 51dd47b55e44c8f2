package archive

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/quote"
)

// A tar has no directory: its members are found by reading it once from
// start to end (indexTar), which records where each regular member's
// bytes begin in the stream and computes its CRC-32 (the identity the
// import history keeps, as a zip declares it). A plain .tar is then random
// access: a member is read in place, at its offset in the file. A .tgz
// cannot seek: a member is read by inflating the stream up to it, and the
// streams left open after a read are kept (gzip.go) so that members asked
// for in about archive order cost one pass, not one pass each.

// Why a tar member or a tgz is not read.
var (
	ErrNotFile    = errors.New("only regular files are read from an archive, and links are never followed")
	ErrSparse     = errors.New("it is a sparse file, which shoebox does not read from a tar")
	ErrGzipBomb   = errors.New("it inflates to more than 100 times its compressed size (a gzip bomb?); it is not read")
	ErrPastTheEnd = errors.New("a member declares more bytes than the archive holds")
)

// maxInflated is how many bytes a tgz of compressed bytes may inflate
// to: photos and videos barely compress, and tar's headers and padding
// add little, so far more than maxRatio times is a bomb, not photos.
func maxInflated(compressed int64) int64 { return max(bombFloor, maxRatio*compressed) }

// indexTar reads the tar once, offering its regular members and refusing
// the rest. A stream that cannot be read to its end-of-archive marker
// (truncated, corrupt, a bomb) refuses the whole archive, as a zip
// without its directory is.
func (a *Archive) indexTar() error {
	stream, err := a.tarStream()
	if err != nil {
		return err
	}
	counted := &countingReader{r: stream}
	tr := tar.NewReader(counted)
	seen := map[string]bool{}
	dup := map[string]bool{}
	last := ""
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return a.damaged(err, "after member", last)
		}
		last = hdr.Name
		name, skip, err := a.tarMemberName(hdr, counted.n)
		if err != nil {
			if errors.Is(err, ErrPastTheEnd) {
				return a.damaged(err, "at member", hdr.Name)
			}
			a.refuse(hdr.Name, err)
			continue
		}
		if skip {
			continue
		}
		crc, err := crcOf(tr)
		if err != nil {
			return a.damaged(err, "in member", hdr.Name)
		}
		if seen[name] {
			dup[name] = true
			continue
		}
		seen[name] = true
		m := &Member{Archive: a.Path, Name: name, Size: hdr.Size, ModTime: hdr.ModTime, CRC: crc, at: counted.n - hdr.Size, a: a}
		a.members[name] = m
		a.order = append(a.order, m)
	}
	a.dropDuplicates(dup)
	return nil
}

// tarStream is the archive's tar stream from its start: the file itself,
// or for a tgz its inflated bytes, stopped past maxInflated.
func (a *Archive) tarStream() (io.Reader, error) {
	file := bufio.NewReaderSize(io.NewSectionReader(a.f, 0, a.size), 64<<10)
	if a.format == "tar" {
		return file, nil
	}
	zr, err := gzip.NewReader(file)
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrCorrupt, err)
	}
	return &boundedReader{r: zr, left: maxInflated(a.size)}, nil
}

// tarMemberName is the cleaned name of a regular member whose data starts
// at offset at, or skip for what is no file and needs no word (a folder,
// a global header), or why the member is refused.
func (a *Archive) tarMemberName(hdr *tar.Header, at int64) (name string, skip bool, err error) {
	if hdr.Typeflag == tar.TypeXGlobalHeader {
		return "", true, nil
	}
	name, isDir, err := CleanName(hdr.Name)
	switch {
	case err != nil:
		return "", false, err
	case isDir || hdr.Typeflag == tar.TypeDir:
		return "", true, nil
	}
	if err := tarTypeErr(hdr); err != nil {
		return "", false, err
	}
	switch {
	case hdr.Size > maxMemberSize:
		return "", false, ErrTooLarge
	case a.format == "tar" && hdr.Size > a.size-at:
		return "", false, fmt.Errorf("%w (%d bytes declared, %d left)", ErrPastTheEnd, hdr.Size, a.size-at)
	}
	return name, false, nil
}

// tarTypeErr is why a member that is not a regular file is refused, or
// nil for a regular file.
func tarTypeErr(hdr *tar.Header) error {
	kind := ""
	switch hdr.Typeflag {
	case tar.TypeReg:
		if isSparse(hdr) {
			return ErrSparse
		}
		return nil
	case tar.TypeSymlink:
		kind = "a symbolic link to " + quote.Path(hdr.Linkname)
	case tar.TypeLink:
		kind = "a hard link to " + quote.Path(hdr.Linkname)
	case tar.TypeChar, tar.TypeBlock:
		kind = "a device"
	case tar.TypeFifo:
		kind = "a named pipe (FIFO)"
	case tar.TypeGNUSparse:
		return ErrSparse
	default:
		kind = fmt.Sprintf("of tar type %q", hdr.Typeflag)
	}
	return fmt.Errorf("it is %s: %w", kind, ErrNotFile)
}

// isSparse: a PAX sparse member's bytes in the stream are not its
// content (archive/tar expands them), so its offset would lie.
func isSparse(hdr *tar.Header) bool {
	for k := range hdr.PAXRecords {
		if strings.HasPrefix(k, "GNU.sparse.") {
			return true
		}
	}
	return false
}

// damaged is the error for a tar stream that breaks off, saying where:
// "in member", "at member" (its header) or "after member" the last one
// read.
func (a *Archive) damaged(err error, where, member string) error {
	if errors.Is(err, ErrGzipBomb) || errors.Is(err, ErrCorrupt) {
		return err
	}
	if !errors.Is(err, ErrPastTheEnd) {
		err = fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if member == "" {
		return err
	}
	return fmt.Errorf("%w, %s %s", err, where, quote.Path(member))
}

func crcOf(r io.Reader) (uint32, error) {
	h := crc32.NewIEEE()
	if _, err := io.Copy(h, r); err != nil {
		return 0, err
	}
	return h.Sum32(), nil
}

// openTar returns a tar member's bytes from the start, checked against
// the size and CRC the index found.
func (m *Member) openTar() (io.ReadCloser, error) {
	if m.a.format == "tar" {
		return &tarMemberReader{r: io.NewSectionReader(m.a.f, m.at, m.Size), m: m, crc: crc32.NewIEEE()}, nil
	}
	c, err := m.a.gz.at(m.a, m.at)
	if err != nil {
		return nil, m.problem(err)
	}
	return &tarMemberReader{r: io.LimitReader(c, m.Size), m: m, crc: crc32.NewIEEE(), done: func() { m.a.gz.put(c) }}, nil
}

// tarMemberReader checks, at the member's end, that its bytes are the
// ones indexed: an archive rewritten since would otherwise be copied
// under the old one's identity.
type tarMemberReader struct {
	r    io.Reader
	m    *Member
	crc  hash.Hash32
	n    int64
	done func() // gives a tgz stream back for later reads
}

func (t *tarMemberReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.crc.Write(p[:n])
	t.n += int64(n)
	switch {
	case err == io.EOF && t.n < t.m.Size:
		err = io.ErrUnexpectedEOF
	case err == io.EOF && t.crc.Sum32() != t.m.CRC:
		err = fmt.Errorf("%w: its CRC-32 is not the one read when the archive was opened", ErrCorrupt)
	}
	if err != nil && err != io.EOF {
		t.done = nil // a stream that failed is not reused
		err = t.m.problem(err)
	}
	return n, err
}

func (t *tarMemberReader) Close() error {
	if t.done != nil {
		t.done()
		t.done = nil
	}
	return nil
}

// countingReader counts the bytes tar.Reader took: after Next, the
// offset of the member's data (tar.Reader reads whole blocks, never
// ahead, and skips by reading when its reader cannot seek, as this one
// cannot).
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// boundedReader fails with ErrGzipBomb past left bytes.
type boundedReader struct {
	r    io.Reader
	left int64
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return b.pastTheBound()
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

// pastTheBound: a stream that ends exactly at the bound is no bomb.
func (b *boundedReader) pastTheBound() (int, error) {
	var one [1]byte
	if n, err := io.ReadFull(b.r, one[:]); n == 0 && err == io.EOF {
		return 0, io.EOF
	}
	return 0, ErrGzipBomb
}
