// Package digest names file content: a BLAKE3-256 sum, cryptographic, so two
// files with the same Sum are treated as the same content for dedup.
package digest

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"hash"
	"io"

	"github.com/zeebo/blake3"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// Size is the length of a Sum in bytes.
const Size = 32

// bufSize is large enough to amortise syscalls and small enough that N
// workers hashing at once stay at a few MiB.
const bufSize = 1 << 20

// Sum is the BLAKE3-256 digest of a file's content.
type Sum [Size]byte

// String returns the sum as lowercase hex.
func (s Sum) String() string { return hex.EncodeToString(s[:]) }

// IsZero reports whether s is the zero value (no content hashed yet).
func (s Sum) IsZero() bool { return s == Sum{} }

// Parse reads a Sum from its hex form.
func Parse(text string) (Sum, error) {
	var s Sum
	if len(text) != 2*Size {
		return s, fmt.Errorf("parse digest %q: want %d hex digits, got %d", text, 2*Size, len(text))
	}
	if _, err := hex.Decode(s[:], []byte(text)); err != nil {
		return s, fmt.Errorf("parse digest %q: %w", text, err)
	}
	return s, nil
}

// New returns a streaming BLAKE3-256 hash whose Sum matches File's.
func New() hash.Hash { return blake3.New() }

// Buffers and hashers are kept in small free lists rather than a
// sync.Pool: a Pool is emptied at every garbage collection, and hashing
// 100k small files then reallocates a 1 MiB buffer every few files, which
// measured as a 40 MB rise in peak RSS during dedup. A free list of
// maxIdle entries keeps the memory flat and bounded.
const maxIdle = 8

var (
	idleBufs    = make(chan *[]byte, maxIdle)
	idleHashers = make(chan *blake3.Hasher, maxIdle)
)

func getBuf() *[]byte {
	select {
	case b := <-idleBufs:
		return b
	default:
		b := make([]byte, bufSize)
		return &b
	}
}

func putBuf(b *[]byte) {
	select {
	case idleBufs <- b:
	default: // enough idle already: let this one go
	}
}

func getHasher() *blake3.Hasher {
	select {
	case h := <-idleHashers:
		return h
	default:
		return blake3.New()
	}
}

func putHasher(h *blake3.Hasher) {
	select {
	case idleHashers <- h:
	default:
	}
}

// Pooled is a reset hasher from the pool, and the func that returns it
// once its sum is taken: a copy hashes every file it lands, and a new
// hasher per small file is garbage the collector then walks.
func Pooled() (hash.Hash, func()) {
	h := getHasher()
	h.Reset()
	return h, func() { putHasher(h) }
}

// Reader hashes everything r yields, streaming through a pooled buffer.
func Reader(r io.Reader) (Sum, int64, error) {
	h := getHasher()
	defer putHasher(h)
	h.Reset()
	buf := getBuf()
	defer putBuf(buf)
	// Hide any WriterTo/ReaderFrom so the pooled buffer is what gets used.
	n, err := io.CopyBuffer(struct{ io.Writer }{h}, struct{ io.Reader }{r}, *buf)
	var s Sum
	if err != nil {
		return s, n, err
	}
	h.Sum(s[:0])
	return s, n, nil
}

// File hashes the file at path, returning its sum and length. Memory use is
// flat whatever the file's size.
func File(fsys fsx.FS, path string) (Sum, int64, error) {
	f, err := fsys.Open(path)
	if err != nil {
		return Sum{}, 0, fmt.Errorf("hash %s: %w", quote.Path(path), fsx.Bare(err))
	}
	defer f.Close()
	s, n, err := Reader(f)
	if err != nil {
		return Sum{}, n, fmt.Errorf("hash %s: %w", quote.Path(path), fsx.Bare(err))
	}
	return s, n, nil
}

// Equal reports whether the files at a and b hold the same bytes. It stops
// at the first difference, so it is cheaper than hashing both files.
func Equal(fsys fsx.FS, a, b string) (bool, error) {
	fa, err := fsys.Open(a)
	if err != nil {
		return false, fmt.Errorf("compare %s: %w", quote.Path(a), err)
	}
	defer fa.Close()
	fb, err := fsys.Open(b)
	if err != nil {
		return false, fmt.Errorf("compare %s: %w", quote.Path(b), err)
	}
	defer fb.Close()
	if same, known, err := sameSize(fa, fb); err != nil || (known && !same) {
		return false, err
	}
	return equalContent(fa, fb)
}

// sameSize compares the two sizes; known is false when a size is not
// meaningful (not a regular file) and the content must decide.
func sameSize(fa, fb fsx.File) (same, known bool, err error) {
	ia, err := fa.Stat()
	if err != nil {
		return false, false, fmt.Errorf("compare %s: %w", quote.Path(fa.Name()), err)
	}
	ib, err := fb.Stat()
	if err != nil {
		return false, false, fmt.Errorf("compare %s: %w", quote.Path(fb.Name()), err)
	}
	if !ia.Mode().IsRegular() || !ib.Mode().IsRegular() {
		return false, false, nil
	}
	return ia.Size() == ib.Size(), true, nil
}

func equalContent(fa, fb fsx.File) (bool, error) {
	bufA, bufB := getBuf(), getBuf()
	defer putBuf(bufA)
	defer putBuf(bufB)
	for {
		na, errA := io.ReadFull(fa, *bufA)
		nb, errB := io.ReadFull(fb, *bufB)
		if err := readErr(fa, errA); err != nil {
			return false, err
		}
		if err := readErr(fb, errB); err != nil {
			return false, err
		}
		if na != nb || !bytes.Equal((*bufA)[:na], (*bufB)[:nb]) {
			return false, nil
		}
		if errA != nil { // both hit the end at the same length
			return true, nil
		}
	}
}

// readErr drops the end-of-file errors io.ReadFull uses to report a short
// final chunk and names the file in any real one.
func readErr(f fsx.File, err error) error {
	if err == nil || err == io.EOF || err == io.ErrUnexpectedEOF {
		return nil
	}
	return fmt.Errorf("compare %s: %w", quote.Path(f.Name()), err)
}
