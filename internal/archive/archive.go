// Package archive reads sources that are archives (zip; tar and tgz) as if
// their members were files: a member is named by the archive's path joined
// with its own cleaned name ("takeout-1.zip/Takeout/Google Photos/a.jpg"),
// a path no file can have (the archive is a file, not a folder), and the
// FS wrapper answers Open, Stat and Lstat of such a path from the archive.
// Everything downstream (the header reader, dedup, the planner, the one
// executor's temp+fsync+no-replace copy and its verification) then works
// on members unchanged. Nothing is ever extracted to disk but the library
// copy itself.
//
// Zip is random access: the central directory lists every member with its
// sizes and CRC, and each member is read on its own. Members are read with
// archive/zip, which stops a member that inflates past its declared size
// and checks the CRC when the member is read to its end.
package archive

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// Why an archive or a member is not read. Messages name the archive (and
// the member) through Problem or the caller.
var (
	ErrCorrupt     = errors.New("the archive is damaged or truncated")
	ErrEncrypted   = errors.New("it is encrypted, and shoebox does not decrypt archives: extract it with its password first")
	ErrMethod      = errors.New("it is compressed with a method shoebox cannot read (only stored and deflate)")
	ErrDuplicate   = errors.New("the archive holds two members of this name; neither is imported, as which one is meant cannot be known")
	ErrBomb        = errors.New("it declares far more bytes than its compressed size could hold in a photo or video (a zip bomb?)")
	ErrTooLarge    = errors.New("it declares a size over 1 TiB")
	ErrNotArchive  = errors.New("not an archive shoebox reads (.zip, .tar, .tgz or .tar.gz)")
	ErrReadOnly    = errors.New("archive members are read-only")
	ErrFarSeek     = errors.New("cannot read that far into a compressed member out of order")
	ErrNotInSource = errors.New("no such member in the archive")
)

// Bounds that keep a hostile archive's cost within reason.
const (
	// maxMemberSize: no photo or video is over a terabyte.
	maxMemberSize = 1 << 40
	// maxRatio is the uncompressed:compressed ratio above which a member
	// over bombFloor bytes is refused. Photos and videos are compressed
	// already and deflate gains a few percent on them; deflate's own limit
	// is about 1032:1, reached only by runs of one byte.
	maxRatio  = 100
	bombFloor = 16 << 20
)

// Is reports whether path names an archive shoebox reads, by its
// extension (case-insensitive).
func Is(path string) bool { return formatOf(path) != "" }

func formatOf(path string) string {
	low := strings.ToLower(path)
	switch {
	case strings.HasSuffix(low, ".zip"):
		return "zip"
	case strings.HasSuffix(low, ".tar"):
		return "tar"
	case strings.HasSuffix(low, ".tgz"), strings.HasSuffix(low, ".tar.gz"):
		return "tgz"
	}
	return ""
}

// Dev is the device number a member is scanned with: no disk's (real
// ones are under 2^32 on Linux and Windows, under 2^31 on macOS), so the
// import history never takes a member for a file on disk.
const Dev uint64 = 0x8000_0000_0000_0000 | 0x5a49_5000 // "ZIP"

// Member is one file inside an archive.
type Member struct {
	Archive string // the archive's path, as opened
	Name    string // cleaned, slash-separated (see CleanName)
	Size    int64  // declared uncompressed size
	ModTime time.Time
	CRC     uint32 // CRC-32 as declared (zip), or computed while indexing (tar)
	zf      *zip.File
	at      int64 // tar: offset of the member's bytes in the (inflated) tar stream
	a       *Archive
}

// Path is the member's path as the rest of shoebox knows it.
func (m *Member) Path() string { return filepath.Join(m.Archive, filepath.FromSlash(m.Name)) }

// SameFile is what fsx.SameFile asks of a FileInfo's Sys: one member of
// one open archive.
func (m *Member) SameFile(other any) bool {
	o, ok := other.(*Member)
	return ok && o == m
}

// Problem is a member (or the whole archive, Member "") that is not read.
type Problem struct {
	Archive string
	Member  string // as stored in the archive, before cleaning
	Err     error
}

func (p Problem) Error() string {
	if p.Member == "" {
		return fmt.Sprintf("archive %s: %v", quote.Path(p.Archive), p.Err)
	}
	return fmt.Sprintf("archive %s, member %s: %v", quote.Path(p.Archive), quote.Path(p.Member), p.Err)
}

func (p Problem) Unwrap() error { return p.Err }

// Archive is one open archive and the members it offers.
type Archive struct {
	Path     string
	f        *os.File
	size     int64
	format   string
	members  map[string]*Member
	order    []*Member
	problems []Problem
	gz       gzipStreams // tgz: the streams reads left open
}

// Open opens the archive at path and reads its index: for a zip, the
// central directory; for a tar, one pass over the stream (tar.go). A
// member refused (its name, encryption, a bomb's sizes, a duplicate name)
// is listed in Problems and not offered. An archive that cannot be read at
// all is an error wrapping ErrCorrupt.
func Open(path string) (*Archive, error) {
	a, err := open(path)
	if err != nil {
		return nil, Problem{Archive: path, Err: fsx.Bare(err)}
	}
	return a, nil
}

func open(path string) (*Archive, error) {
	format := formatOf(path)
	if format == "" {
		return nil, ErrNotArchive
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%w (%s)", fsx.ErrNotRegular, fsx.KindOf(info.Mode()))
	}
	a := &Archive{Path: path, f: f, size: info.Size(), format: format, members: map[string]*Member{}}
	switch format {
	case "zip":
		err = a.indexZip()
	default:
		err = a.indexTar()
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return a, nil
}

// Close releases the archive's file.
func (a *Archive) Close() error { return a.f.Close() }

// Members are the members offered, in archive order.
func (a *Archive) Members() []*Member { return a.order }

// Problems are the members refused, in archive order.
func (a *Archive) Problems() []Problem { return a.problems }

// Member is the member called name (cleaned), or nil.
func (a *Archive) Member(name string) *Member { return a.members[name] }

func (a *Archive) indexZip() error {
	zr, err := zip.NewReader(a.f, a.size)
	if err != nil {
		return fmt.Errorf("%w (%v)", ErrCorrupt, err)
	}
	seen := map[string]string{} // cleaned name → raw name of its first holder
	dup := map[string]bool{}
	for _, zf := range zr.File {
		name, isDir, err := CleanName(zf.Name)
		if err == nil && (isDir || zf.FileInfo().IsDir()) {
			continue
		}
		if err == nil {
			err = zipMemberErr(zf)
		}
		if err != nil {
			a.refuse(zf.Name, err)
			continue
		}
		if _, ok := seen[name]; ok {
			dup[name] = true
			continue
		}
		seen[name] = zf.Name
		m := &Member{Archive: a.Path, Name: name, Size: int64(zf.UncompressedSize64), ModTime: zf.Modified,
			CRC: zf.CRC32, zf: zf, a: a}
		a.members[name] = m
		a.order = append(a.order, m)
	}
	a.dropDuplicates(dup)
	return nil
}

// zipMemberErr is why a zip member cannot be read safely, or nil.
func zipMemberErr(zf *zip.File) error {
	switch {
	case zf.Flags&0x1 != 0:
		return ErrEncrypted
	case zf.Method != zip.Store && zf.Method != zip.Deflate:
		return ErrMethod
	case zf.UncompressedSize64 > maxMemberSize:
		return ErrTooLarge
	case zf.Method == zip.Store && zf.CompressedSize64 != zf.UncompressedSize64:
		return fmt.Errorf("%w: a stored member declares %d bytes compressed and %d uncompressed", ErrCorrupt, zf.CompressedSize64, zf.UncompressedSize64)
	case zf.UncompressedSize64 > bombFloor && zf.UncompressedSize64/maxRatio > zf.CompressedSize64:
		return ErrBomb
	}
	return nil
}

func (a *Archive) refuse(raw string, err error) {
	a.problems = append(a.problems, Problem{Archive: a.Path, Member: raw, Err: err})
}

// dropDuplicates withdraws every member whose cleaned name came twice.
func (a *Archive) dropDuplicates(dup map[string]bool) {
	if len(dup) == 0 {
		return
	}
	kept := a.order[:0]
	for _, m := range a.order {
		if dup[m.Name] {
			delete(a.members, m.Name)
			a.refuse(m.Name, ErrDuplicate)
			continue
		}
		kept = append(kept, m)
	}
	a.order = kept
}

// open returns the member's bytes from the start, bounded by its declared
// size and (zip) checked against its CRC at the end.
func (m *Member) open() (io.ReadCloser, error) {
	if m.zf != nil {
		rc, err := m.zf.Open()
		if err != nil {
			return nil, m.problem(err)
		}
		return &checkedReader{rc: rc, m: m}, nil
	}
	return m.openTar()
}

func (m *Member) problem(err error) error {
	if errors.Is(err, zip.ErrChecksum) || errors.Is(err, zip.ErrFormat) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = fmt.Errorf("%w (%v)", ErrCorrupt, err)
	}
	return Problem{Archive: m.Archive, Member: m.Name, Err: err}
}

// checkedReader names the archive and member in a read error.
type checkedReader struct {
	rc io.ReadCloser
	m  *Member
}

func (c *checkedReader) Read(p []byte) (int, error) {
	n, err := c.rc.Read(p)
	if err != nil && err != io.EOF {
		err = c.m.problem(err)
	}
	return n, err
}

func (c *checkedReader) Close() error { return c.rc.Close() }
