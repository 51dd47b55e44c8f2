// Package record encodes and decodes the flat binary records shoebox writes
// to disk (the journal) and to its run store: uvarints, varints, single
// bytes and length-prefixed strings, back to back.
//
// Decoding never panics and never allocates more than the input holds: the
// first malformed field makes the Decoder fail, later reads return zero
// values, and the caller checks Err (or Finish) once at the end.
package record

import (
	"encoding/binary"
	"errors"
)

// ErrMalformed is the error of a record that does not decode.
var ErrMalformed = errors.New("malformed record")

// AppendString appends s with its length in front.
func AppendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// AppendBool appends v as one uvarint, 0 or 1.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return binary.AppendUvarint(b, 1)
	}
	return binary.AppendUvarint(b, 0)
}

// Decoder reads the fields of one record in order.
type Decoder struct {
	b   []byte
	err error
}

// NewDecoder reads from b (which it does not copy).
func NewDecoder(b []byte) Decoder { return Decoder{b: b} }

// Err is the first failure, or nil.
func (d *Decoder) Err() error { return d.err }

// Len is the number of bytes not yet read.
func (d *Decoder) Len() int { return len(d.b) }

// Fail marks the record malformed (for checks the caller makes itself).
func (d *Decoder) Fail() {
	if d.err == nil {
		d.err = ErrMalformed
	}
	d.b = nil
}

// Byte reads one byte.
func (d *Decoder) Byte() byte {
	if len(d.b) < 1 {
		d.Fail()
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

// Uvarint reads an unsigned varint.
func (d *Decoder) Uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.Fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

// Varint reads a signed varint.
func (d *Decoder) Varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.Fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

// Bool reads what AppendBool wrote.
func (d *Decoder) Bool() bool { return d.Uvarint() == 1 }

// Str reads a length-prefixed string; a length past the record's end fails
// instead of allocating.
func (d *Decoder) Str() string {
	n := d.Uvarint()
	if n > uint64(len(d.b)) {
		d.Fail()
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// Finish reports Err, or ErrMalformed when bytes are left over.
func (d *Decoder) Finish() error {
	if d.err == nil && len(d.b) != 0 {
		d.err = ErrMalformed
	}
	return d.err
}
