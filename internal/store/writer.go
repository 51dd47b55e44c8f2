package store

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"

	"github.com/shoebox-photos/shoebox/internal/quote"
)

// Pending bytes are capped too, so a few huge values cannot defeat maxBatch.
const (
	defaultMaxBatch = 1000
	maxPendingBytes = 4 << 20
)

// Writer batches puts and deletes, committing every maxBatch operations so
// memory stays bounded. It is not safe for concurrent use.
type Writer struct {
	s        *Store
	batch    *pebble.Batch
	pending  int
	maxBatch int
}

// Writer returns a batching writer; maxBatch <= 0 means defaultMaxBatch.
func (s *Store) Writer(maxBatch int) *Writer {
	if maxBatch <= 0 {
		maxBatch = defaultMaxBatch
	}
	return &Writer{s: s, maxBatch: maxBatch}
}

// Put stores val under key; both are copied.
func (w *Writer) Put(key, val []byte) error {
	if err := w.current().Set(key, val, nil); err != nil {
		return fmt.Errorf("put %q in store %s: %w", key, quote.Path(w.s.dir), err)
	}
	return w.added()
}

// Delete removes key (a no-op if absent).
func (w *Writer) Delete(key []byte) error {
	if err := w.current().Delete(key, nil); err != nil {
		return fmt.Errorf("delete %q in store %s: %w", key, quote.Path(w.s.dir), err)
	}
	return w.added()
}

// Flush commits everything pending (durably unless the store is Scratch).
// A commit pebble cannot write (the disk is full, an I/O error) leaves the
// store unusable: Flush returns that as an error, and every later Flush
// fails at once, instead of pebble ending the process.
func (w *Writer) Flush() (err error) {
	if w.batch == nil {
		return nil
	}
	b := w.batch
	w.batch, w.pending = nil, 0
	defer b.Close()
	return w.s.commit(b, "commit")
}

func (w *Writer) current() *pebble.Batch {
	if w.batch == nil {
		w.batch = w.s.db.NewBatch()
	}
	return w.batch
}

func (w *Writer) added() error {
	w.pending++
	if w.pending >= w.maxBatch || w.batch.Len() >= maxPendingBytes {
		return w.Flush()
	}
	return nil
}
