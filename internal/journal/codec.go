package journal

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"time"
)

const (
	magic         = "SHOEBOX-JOURNAL"
	FormatVersion = 1
	frameHeader   = 12      // length, its complement, crc
	maxRecord     = 1 << 20 // cap on a payload: bounds allocation on hostile input
)

// Record types: the first payload byte.
const (
	typeHeader = 'H'
	typeEntry  = 'E'
	typeClosed = 'C'
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// appendFrame appends payload framed with its length and checksum. The
// length is stored twice (plain and complemented) so that a damaged length
// is caught before it is trusted: otherwise a flipped bit could make a frame
// in the middle of the file claim to run past its end and pass for a torn
// tail.
func appendFrame(dst, payload []byte) []byte {
	var hdr [frameHeader]byte
	n := uint32(len(payload))
	binary.LittleEndian.PutUint32(hdr[0:4], n)
	binary.LittleEndian.PutUint32(hdr[4:8], ^n)
	binary.LittleEndian.PutUint32(hdr[8:12], crc32.Checksum(payload, castagnoli))
	return append(append(dst, hdr[:]...), payload...)
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func encodeHeader(h Header) []byte {
	b := []byte{typeHeader}
	b = appendString(b, h.RunID)
	b = binary.AppendVarint(b, h.Started.UnixNano())
	b = appendString(b, h.Dest)
	b = binary.AppendUvarint(b, uint64(len(h.Args)))
	for _, a := range h.Args {
		b = appendString(b, a)
	}
	return b
}

func appendEntry(b []byte, e Entry) []byte {
	b = append(b, typeEntry)
	b = binary.AppendUvarint(b, e.Seq)
	b = append(b, byte(e.State), byte(e.Action))
	b = appendString(b, e.Src)
	b = appendString(b, e.Dst)
	b = appendString(b, e.Tmp)
	b = binary.AppendVarint(b, e.Size)
	b = binary.AppendVarint(b, e.ModTime)
	b = binary.AppendUvarint(b, e.Dev)
	b = binary.AppendUvarint(b, e.Ino)
	return appendString(b, e.Err)
}

var errMalformed = errors.New("malformed record")

// decoder reads fields from one payload; the first failure sticks, so
// callers check err once at the end.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errMalformed
	}
	d.b = nil
}

func (d *decoder) byte() byte {
	if len(d.b) < 1 {
		d.fail()
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

// string never allocates more than the payload holds.
func (d *decoder) string() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) finish() error {
	if d.err == nil && len(d.b) != 0 {
		d.err = errMalformed
	}
	return d.err
}

func decodeHeader(payload []byte) (Header, error) {
	d := decoder{b: payload}
	if d.byte() != typeHeader {
		return Header{}, errors.New("first record is not a header")
	}
	h := Header{Version: FormatVersion}
	h.RunID = d.string()
	h.Started = time.Unix(0, d.varint()).UTC()
	h.Dest = d.string()
	n := d.uvarint()
	if n > uint64(len(d.b)) { // each arg takes at least one byte
		d.fail()
	}
	for i := uint64(0); i < n && d.err == nil; i++ {
		h.Args = append(h.Args, d.string())
	}
	return h, d.finish()
}

func decodeEntry(d *decoder) (Entry, error) {
	var e Entry
	e.Seq = d.uvarint()
	e.State = State(d.byte())
	e.Action = Action(d.byte())
	e.Src = d.string()
	e.Dst = d.string()
	e.Tmp = d.string()
	e.Size = d.varint()
	e.ModTime = d.varint()
	e.Dev = d.uvarint()
	e.Ino = d.uvarint()
	e.Err = d.string()
	if err := d.finish(); err != nil {
		return Entry{}, err
	}
	if !e.State.valid() || !e.Action.valid() {
		return Entry{}, errors.New("malformed record: unknown " + e.State.String() + " or " + e.Action.String())
	}
	return e, nil
}
