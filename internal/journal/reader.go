package journal

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/record"
	"hash/crc32"
	"io"

	"github.com/shoebox-photos/shoebox/internal/fsx"
)

// Errors a reader classifies with errors.Is.
var (
	ErrNotJournal = errors.New("not a shoebox journal")
	ErrVersion    = errors.New("unsupported journal format version")
	ErrNoHeader   = errors.New("no complete header (the run crashed while creating its journal)")
	ErrChecksum   = errors.New("checksum mismatch")
	ErrCorrupt    = errors.New("corrupt journal")
)

// Summary describes one journal as read.
type Summary struct {
	Header Header
	Path   string
	Torn   bool // reading stopped at a damaged tail (a crash mid-append)
	Closed bool // the run ended with Writer.Close
	// Outcome is how the run said it ended (Writer.CloseWith); End is
	// zero when it did not (format 1, a kill, an undo or a recovery).
	Outcome Outcome
	Entries int // records of operations: a file takes two or more
	Done    int
	Failed  int
	Undone  int
	Files   Files // the same records counted per file
	// Err is set by List for a journal it could not read (the counts then
	// cover what was read before the problem).
	Err error
}

// Read calls fn (which may be nil) for every entry in order, and summarizes
// the journal. An error from fn stops the read and is returned as is.
func Read(path string, fn func(Entry) error) (Summary, error) {
	sum := Summary{Path: path}
	f, err := fsx.OpenRegular(path, false) // a named pipe here must not hang every later run
	if err != nil {
		return sum, fmt.Errorf("journal %s: %w", quote.Path(path), fsx.Bare(err))
	}
	defer f.Close()
	r := &frameReader{r: bufio.NewReaderSize(f, 64<<10)}
	sum.Header, err = readHeader(r)
	if err != nil {
		return sum, fmt.Errorf("journal %s: %w", quote.Path(path), fsx.Bare(err))
	}
	err = readEntries(r, &sum, fn)
	var fnErr callbackError
	if errors.As(err, &fnErr) {
		return sum, fnErr.err
	}
	if err != nil {
		return sum, fmt.Errorf("journal %s: record %d at byte %d: %w", quote.Path(path), r.record, r.start, err)
	}
	return sum, nil
}

// callbackError carries fn's error out of readEntries untouched.
type callbackError struct{ err error }

func (e callbackError) Error() string { return e.err.Error() }

func readHeader(r *frameReader) (Header, error) {
	var lead [len(magic) + 2]byte
	n, err := io.ReadFull(r.r, lead[:])
	r.offset += int64(n)
	switch {
	case n == 0 && err == io.EOF:
		return Header{}, fmt.Errorf("empty file: %w", ErrNoHeader)
	case n < len(magic) && string(lead[:n]) == magic[:n]:
		return Header{}, fmt.Errorf("ends inside its magic: %w", ErrNoHeader)
	case string(lead[:len(magic)]) != magic:
		return Header{}, ErrNotJournal
	case n < len(lead):
		return Header{}, fmt.Errorf("ends inside its version: %w", ErrNoHeader)
	}
	v := int(binary.BigEndian.Uint16(lead[len(magic):]))
	if v < 1 || v > FormatVersion {
		if zero, err := r.restIsZero(); v == 0 && zero && err == nil {
			return Header{}, fmt.Errorf("zero bytes after its magic: %w", ErrNoHeader)
		}
		return Header{}, fmt.Errorf("%w %d (this shoebox reads versions 1 to %d; a newer shoebox wrote it?)", ErrVersion, v, FormatVersion)
	}
	payload, status, err := r.next()
	switch {
	case err != nil:
		return Header{}, fmt.Errorf("header at byte %d: %w", r.start, err)
	case status != frameOK:
		return Header{}, fmt.Errorf("header at byte %d is cut off: %w", r.start, ErrNoHeader)
	}
	h, err := decodeHeader(payload, v)
	if err != nil {
		return Header{}, fmt.Errorf("header at byte %d: %w: %w", r.start, ErrCorrupt, err)
	}
	return h, nil
}

func readEntries(r *frameReader, sum *Summary, fn func(Entry) error) error {
	for {
		r.record++
		payload, status, err := r.next()
		if err != nil {
			return err
		}
		switch status {
		case frameEnd:
			return nil
		case frameTorn:
			sum.Torn = true
			return nil
		}
		if sum.Closed {
			return fmt.Errorf("%w: record after the closed marker", ErrCorrupt)
		}
		if err := handleRecord(payload, sum, fn); err != nil {
			return err
		}
	}
}

func handleRecord(payload []byte, sum *Summary, fn func(Entry) error) error {
	d := record.NewDecoder(payload)
	switch d.Byte() {
	case typeClosed:
		if err := d.Finish(); err != nil {
			return fmt.Errorf("%w: closed marker: %w", ErrCorrupt, err)
		}
		sum.Closed = true
		return nil
	case typeOutcome:
		if sum.Header.Version < 2 || sum.Outcome.End != 0 {
			return fmt.Errorf("%w: unexpected outcome record", ErrCorrupt)
		}
		o, err := decodeOutcome(&d)
		if err != nil {
			return fmt.Errorf("%w: outcome: %w", ErrCorrupt, err)
		}
		sum.Outcome = o
		return nil
	case typeEntry:
		if sum.Outcome.End != 0 {
			return fmt.Errorf("%w: record after the outcome", ErrCorrupt)
		}
		e, err := decodeEntry(&d)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		count(sum, e)
		if fn != nil {
			if err := fn(e); err != nil {
				return callbackError{err}
			}
		}
		return nil
	default:
		return fmt.Errorf("%w: unknown record type %#x", ErrCorrupt, payload[0])
	}
}

func count(sum *Summary, e Entry) {
	sum.Entries++
	sum.Files.countFile(sum.Header.Dest, e)
	switch e.State {
	case Done:
		sum.Done++
	case Failed:
		sum.Failed++
	case Undone:
		sum.Undone++
	}
}

type frameStatus int

const (
	frameOK   frameStatus = iota
	frameEnd              // clean end of file at a frame boundary
	frameTorn             // damage confined to the tail
)

// frameReader walks frames and knows where it is, for error messages.
type frameReader struct {
	r      *bufio.Reader
	offset int64 // bytes consumed
	start  int64 // offset of the current frame
	record int   // number of the current record, from 1 after the header
	buf    []byte
}

// next returns the next frame's payload (valid until the next call).
func (r *frameReader) next() ([]byte, frameStatus, error) {
	r.start = r.offset
	var hdr [frameHeader]byte
	n, err := io.ReadFull(r.r, hdr[:])
	r.offset += int64(n)
	if n == 0 && err == io.EOF {
		return nil, frameEnd, nil
	}
	if err != nil {
		return nil, frameTorn, r.readError(err)
	}
	length := binary.LittleEndian.Uint32(hdr[0:4])
	if length != ^binary.LittleEndian.Uint32(hdr[4:8]) {
		// Torn if zeros follow: the crash hit while writing this header.
		return r.damagedTail(fmt.Errorf("%w: damaged record length", ErrCorrupt))
	}
	if length > maxRecord {
		return nil, frameOK, fmt.Errorf("%w: record length %d exceeds the %d-byte limit", ErrCorrupt, length, maxRecord)
	}
	if length == 0 {
		return nil, frameOK, fmt.Errorf("%w: empty record", ErrCorrupt)
	}
	payload, err := r.payload(int(length))
	if err != nil {
		return nil, frameTorn, r.readError(err)
	}
	if crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(hdr[8:12]) {
		return r.damagedTail(ErrChecksum)
	}
	return payload, frameOK, nil
}

func (r *frameReader) payload(n int) ([]byte, error) {
	if cap(r.buf) < n {
		r.buf = make([]byte, n)
	}
	p := r.buf[:n]
	got, err := io.ReadFull(r.r, p)
	r.offset += int64(got)
	return p, err
}

// readError: running out of file mid-frame is a torn tail, not an error.
func (r *frameReader) readError(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return nil
	}
	return err
}

// damagedTail tells a torn tail (nothing but zero bytes follow, as when a
// crash left the file extended but unwritten) from corruption, which it
// returns as damage.
func (r *frameReader) damagedTail(damage error) ([]byte, frameStatus, error) {
	rest, err := r.restIsZero()
	if err != nil {
		return nil, frameOK, err
	}
	if rest {
		return nil, frameTorn, nil
	}
	return nil, frameOK, damage
}

func (r *frameReader) restIsZero() (bool, error) {
	var chunk [4096]byte
	for {
		n, err := r.r.Read(chunk[:])
		if !isZero(chunk[:n]) {
			return false, nil
		}
		if err == io.EOF {
			return true, nil
		}
		if err != nil {
			return false, err
		}
	}
}

func isZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
