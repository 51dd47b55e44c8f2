package pipeline

import (
	"encoding/binary"
	"errors"
	"time"
)

// The stages hand records to each other through the store. A record is a
// flat sequence of uvarints and length-prefixed strings: compact (a scanned
// file is ~60 bytes plus its path), allocation-light, and versioned by the
// store's lifetime — scratch data never outlives the run that wrote it.

var errRecord = errors.New("malformed record in the run store")

type enc struct{ b []byte }

func (e *enc) u(v uint64)    { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) i(v int64)     { e.b = binary.AppendVarint(e.b, v) }
func (e *enc) s(v string)    { e.u(uint64(len(v))); e.b = append(e.b, v...) }
func (e *enc) t(v time.Time) { e.i(timeNanos(v)) }
func (e *enc) bool(v bool)   { e.u(b2u(v)) }
func (e *enc) reset() []byte { e.b = e.b[:0]; return e.b }
func (e *enc) bytes() []byte { return e.b }
func b2u(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

type dec struct {
	b   []byte
	err error
}

func (d *dec) u() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) i() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) s() string {
	n := d.u()
	if d.err != nil || n > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	v := string(d.b[:n])
	d.b = d.b[n:]
	return v
}

func (d *dec) t() time.Time { return nanosTime(d.i()) }
func (d *dec) bool() bool   { return d.u() == 1 }
func (d *dec) fail()        { d.err = errRecord; d.b = nil }

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
