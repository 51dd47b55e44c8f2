package store

import "encoding/binary"

// AppendUint64 appends v big-endian, so encoded numbers sort numerically.
func AppendUint64(b []byte, v uint64) []byte {
	return binary.BigEndian.AppendUint64(b, v)
}

// Uint64 decodes the first 8 bytes of b as written by AppendUint64.
// A shorter b is read as if zero-padded on the right, never a panic, so a
// truncated key decodes to a value that still sorts where it stood.
func Uint64(b []byte) uint64 {
	var full [8]byte
	copy(full[:], b)
	return binary.BigEndian.Uint64(full[:])
}
