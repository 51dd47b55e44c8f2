package record

import (
	"errors"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	b := []byte{'E'}
	b = AppendString(b, "héllo")
	b = AppendBool(b, true)
	b = append(b, 7)
	d := NewDecoder(b)
	if d.Byte() != 'E' || d.Str() != "héllo" || !d.Bool() || d.Byte() != 7 {
		t.Fatal("fields do not round-trip")
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
}

func TestMalformedNeverPanicsOrOverallocates(t *testing.T) {
	// A string claiming a huge length, a cut varint, leftover bytes.
	for _, b := range [][]byte{{0xff, 0xff, 0xff, 0xff, 0x0f, 'x'}, {0x80}, {1, 'a', 'b'}} {
		d := NewDecoder(b)
		_ = d.Str()
		if err := d.Finish(); !errors.Is(err, ErrMalformed) {
			t.Errorf("%x: Finish = %v, want ErrMalformed", b, err)
		}
		if d.Str() != "" || d.Uvarint() != 0 || d.Byte() != 0 {
			t.Errorf("%x: reads after a failure must return zero values", b)
		}
	}
}

func FuzzDecoder(f *testing.F) {
	f.Add(AppendString([]byte{1}, "seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		d := NewDecoder(b)
		for d.Err() == nil && d.Len() > 0 {
			_ = d.Str()
			_ = d.Varint()
			_ = d.Byte()
		}
	})
}
