package journal

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"time"

	"github.com/shoebox-photos/shoebox/internal/record"
)

const (
	magic         = "SHOEBOX-JOURNAL"
	FormatVersion = 2       // 2 added the outcome record; version 1 is still read
	frameHeader   = 12      // length, its complement, crc
	maxRecord     = 1 << 20 // cap on a payload: bounds allocation on hostile input
)

// Record types: the first payload byte.
const (
	typeHeader  = 'H'
	typeEntry   = 'E'
	typeClosed  = 'C'
	typeOutcome = 'O' // format 2
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

func appendString(b []byte, s string) []byte { return record.AppendString(b, s) }

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

// decoder reads the fields of one payload (see internal/record).
type decoder = record.Decoder

func decodeHeader(payload []byte, version int) (Header, error) {
	d := record.NewDecoder(payload)
	if d.Byte() != typeHeader {
		return Header{}, errors.New("first record is not a header")
	}
	h := Header{Version: version}
	h.RunID = d.Str()
	h.Started = time.Unix(0, d.Varint()).UTC()
	h.Dest = d.Str()
	n := d.Uvarint()
	if n > uint64(d.Len()) { // each arg takes at least one byte
		d.Fail()
	}
	for i := uint64(0); i < n && d.Err() == nil; i++ {
		h.Args = append(h.Args, d.Str())
	}
	return h, d.Finish()
}

func decodeEntry(d *decoder) (Entry, error) {
	var e Entry
	e.Seq = d.Uvarint()
	e.State = State(d.Byte())
	e.Action = Action(d.Byte())
	e.Src = d.Str()
	e.Dst = d.Str()
	e.Tmp = d.Str()
	e.Size = d.Varint()
	e.ModTime = d.Varint()
	e.Dev = d.Uvarint()
	e.Ino = d.Uvarint()
	e.Err = d.Str()
	if err := d.Finish(); err != nil {
		return Entry{}, err
	}
	if !e.State.valid() || !e.Action.valid() {
		return Entry{}, errors.New("malformed record: unknown " + e.State.String() + " or " + e.Action.String())
	}
	return e, nil
}
