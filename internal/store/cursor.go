package store

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"

	"github.com/shoebox-photos/shoebox/internal/quote"
)

// Cursor walks the keys under one prefix with forward seeks: the merge of
// a sorted stream against the store (one iterator for the whole stream,
// each seek continuing from the last) instead of a Get, and a new
// iterator, per key.
type Cursor struct {
	it  *pebble.Iterator
	dir string
}

// Cursor opens a cursor over the keys starting with prefix. Close it.
func (s *Store) Cursor(prefix []byte) (*Cursor, error) {
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: prefixEnd(prefix)})
	if err != nil {
		return nil, fmt.Errorf("open cursor in store %s: %w", quote.Path(s.dir), err)
	}
	return &Cursor{it: it, dir: s.dir}, nil
}

// SeekGE moves to the first key >= key and reports whether there is one.
// Seeks that only move forward are cheap: pebble continues from where the
// cursor stands.
func (c *Cursor) SeekGE(key []byte) bool { return c.it.SeekGE(key) }

// Next moves to the next key and reports whether there is one.
func (c *Cursor) Next() bool { return c.it.Next() }

// Key and Value are valid until the next move.
func (c *Cursor) Key() []byte { return c.it.Key() }

// Value returns the current value, valid until the next move.
func (c *Cursor) Value() ([]byte, error) {
	v, err := c.it.ValueAndErr()
	if err != nil {
		return nil, fmt.Errorf("read store %s: %w", quote.Path(c.dir), err)
	}
	return v, nil
}

// Close releases the cursor and reports any read error it met.
func (c *Cursor) Close() error {
	err := c.it.Error()
	if cerr := c.it.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("read store %s: %w", quote.Path(c.dir), err)
	}
	return nil
}
