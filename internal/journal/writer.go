package journal

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// Header describes the run a journal belongs to.
type Header struct {
	Version int // format version; Create always writes FormatVersion
	RunID   string
	Started time.Time
	Dest    string
	Args    []string
}

// Writer appends entries to one journal. Append, Sync and NextSeq are safe
// for concurrent use by several workers.
type Writer struct {
	path string
	f    *os.File
	seq  atomic.Uint64

	mu     sync.Mutex
	buf    *bufio.Writer
	err    error // first write error: a journal with a hole must not go on
	closed bool
}

const bufferBytes = 64 << 10

// ErrClosed is returned by a Writer used after Close.
var ErrClosed = errors.New("journal is closed")

// Create starts dir/<RunID>.journal (never overwriting one) and makes both
// the file and its directory entry durable before returning.
func Create(dir string, h Header) (*Writer, error) {
	if err := checkRunID(h.RunID); err != nil {
		return nil, fmt.Errorf("create journal in %s: %w", quote.Path(dir), err)
	}
	path := filepath.Join(dir, h.RunID+Ext)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create journal %s: %w", quote.Path(path), err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("create journal %s: %w", quote.Path(path), err)
	}
	if err := writeHeader(f, h); err != nil {
		f.Close()
		return nil, fmt.Errorf("create journal %s: %w", quote.Path(path), err)
	}
	if err := syncDir(dir); err != nil {
		f.Close()
		return nil, fmt.Errorf("create journal %s: %w", quote.Path(path), err)
	}
	return &Writer{path: path, f: f, buf: bufio.NewWriterSize(f, bufferBytes)}, nil
}

// checkRunID keeps the run id usable as a plain file name.
func checkRunID(id string) error {
	if id == "" || id == "." || id == ".." || strings.ContainsAny(id, `/\`+"\x00") {
		return fmt.Errorf("run id %q is not a plain file name", id)
	}
	return nil
}

func writeHeader(f *os.File, h Header) error {
	b := append([]byte(magic), FormatVersion>>8, FormatVersion&0xff)
	b = appendFrame(b, encodeHeader(h))
	if _, err := f.Write(b); err != nil {
		return err
	}
	return f.Sync()
}

// syncDir is the seam's: Windows has no directory fsync.
func syncDir(dir string) error { return fsx.SyncDir(dir) }

// Path is the journal's file path.
func (w *Writer) Path() string { return w.path }

// NextSeq hands out operation numbers 1, 2, 3, … for this run.
func (w *Writer) NextSeq() uint64 { return w.seq.Add(1) }

// Append buffers e; it reaches the disk at the next Sync (or sooner, when
// the buffer fills, but durably only after Sync).
func (w *Writer) Append(e Entry) error {
	if !e.State.valid() || !e.Action.valid() {
		return fmt.Errorf("append to journal %s: entry %d has %v, %v", quote.Path(w.path), e.Seq, e.State, e.Action)
	}
	frame := appendFrame(nil, appendEntry(nil, e))
	if len(frame) > frameHeader+maxRecord {
		return fmt.Errorf("append to journal %s: entry %d is %d bytes, over the %d limit", quote.Path(w.path), e.Seq, len(frame), maxRecord)
	}
	return w.write(frame)
}

func (w *Writer) write(frame []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return err
	}
	if _, err := w.buf.Write(frame); err != nil {
		w.err = fmt.Errorf("append to journal %s: %w", quote.Path(w.path), err)
		return w.err
	}
	// Hand each entry to the kernel before the change it announces: a
	// killed process then loses nothing it journaled (a power cut may still
	// lose entries written since the last Sync, which batches fdatasync).
	if err := w.buf.Flush(); err != nil {
		w.err = fmt.Errorf("append to journal %s: %w", quote.Path(w.path), err)
		return w.err
	}
	return nil
}

func (w *Writer) usable() error {
	if w.closed {
		return fmt.Errorf("journal %s: %w", quote.Path(w.path), ErrClosed)
	}
	return w.err
}

// Sync makes every entry appended before the call durable.
func (w *Writer) Sync() error {
	if err := w.flush(); err != nil {
		return err
	}
	// Outside the lock: appenders keep filling the buffer while the disk works,
	// and whatever flush wrote is covered by this fdatasync.
	if err := fdatasync(w.f); err != nil {
		w.mu.Lock()
		w.err = fmt.Errorf("sync journal %s: %w", quote.Path(w.path), err)
		w.mu.Unlock()
		return w.err
	}
	return nil
}

func (w *Writer) flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return err
	}
	if err := w.buf.Flush(); err != nil {
		w.err = fmt.Errorf("write journal %s: %w", quote.Path(w.path), err)
		return w.err
	}
	return nil
}

// Close writes the closed marker, syncs and closes the file. A journal
// without the marker belongs to a run that crashed or is still going.
func (w *Writer) Close() error {
	if err := w.write(appendFrame(nil, []byte{typeClosed})); err != nil {
		w.closeFile()
		return err
	}
	err := w.Sync()
	if cerr := w.closeFile(); err == nil {
		err = cerr
	}
	return err
}

// CloseWith records how the run ended, then closes the journal as Close
// does: the outcome and the closed marker reach the disk together.
func (w *Writer) CloseWith(o Outcome) error {
	if !o.End.valid() {
		w.closeFile()
		return fmt.Errorf("close journal %s: %v", quote.Path(w.path), o.End)
	}
	if err := w.write(appendFrame(nil, encodeOutcome(o))); err != nil {
		w.closeFile()
		return err
	}
	return w.Close()
}

// CloseUnfinished syncs and closes the file without the closed marker:
// the journal stays that of a run not finished (a failed undo, to be
// resumed by the next one). The handle is released all the same; on
// Windows an open handle would keep the file from being removed or
// renamed for as long as the process lives.
func (w *Writer) CloseUnfinished() error {
	err := w.Sync()
	if cerr := w.closeFile(); err == nil {
		err = cerr
	}
	return err
}

func (w *Writer) closeFile() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	w.closed = true
	if err := w.f.Close(); err != nil {
		return fmt.Errorf("close journal %s: %w", quote.Path(w.path), err)
	}
	return nil
}

// NewRunID names a run: UTC start time to the second, so names sort in
// start order, plus 16 random hex digits. One command creates several
// journals within a second (an undo's recoveries and one per run it
// reverses, a killed child's and its re-run's): with 4 digits two of them
// drew the same name now and then, and Create refused the second.
func NewRunID(t time.Time) string {
	var r [8]byte
	_, _ = rand.Read(r[:]) // crypto/rand.Read never fails on supported platforms
	return t.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(r[:])
}
