package pipeline

import (
	"encoding/binary"
	"time"

	"github.com/shoebox-photos/shoebox/internal/record"
)

// The stages hand records to each other through the store. A record is a
// flat sequence of uvarints and length-prefixed strings (internal/record):
// compact (a scanned file is ~60 bytes plus its path), allocation-light,
// and versioned by the store's lifetime — scratch data never outlives the
// run that wrote it.

var errRecord = record.ErrMalformed

type enc struct{ b []byte }

func (e *enc) u(v uint64)    { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) i(v int64)     { e.b = binary.AppendVarint(e.b, v) }
func (e *enc) s(v string)    { e.b = record.AppendString(e.b, v) }
func (e *enc) t(v time.Time) { e.i(timeNanos(v)) }
func (e *enc) bool(v bool)   { e.b = record.AppendBool(e.b, v) }
func (e *enc) reset() []byte { e.b = e.b[:0]; return e.b }
func (e *enc) bytes() []byte { return e.b }

// dec reads what enc wrote; Err reports the first malformed field.
type dec struct{ record.Decoder }

func newDec(b []byte) *dec { return &dec{record.NewDecoder(b)} }

func (d *dec) u() uint64    { return d.Uvarint() }
func (d *dec) i() int64     { return d.Varint() }
func (d *dec) s() string    { return d.Str() }
func (d *dec) t() time.Time { return nanosTime(d.Varint()) }
func (d *dec) bool() bool   { return d.Bool() }
func (d *dec) fail()        { d.Fail() }

// timeNanos keeps the zero time distinguishable from the Unix epoch.
func timeNanos(t time.Time) int64 {
	if t.IsZero() {
		return minNanos
	}
	return t.UnixNano()
}

func nanosTime(n int64) time.Time {
	if n == minNanos {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

const minNanos = -1 << 63
