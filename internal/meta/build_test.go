package meta

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// exifTag is one ASCII tag for the test EXIF builder.
type exifTag struct {
	tag uint16
	val string
}

// buildTIFF writes a little-endian TIFF with ASCII tags in IFD0 and the Exif IFD.
func buildTIFF(ifd0, exif []exifTag) []byte {
	le := binary.LittleEndian
	out := []byte("II*\x00\x08\x00\x00\x00")
	n0 := len(ifd0) + 1
	exifAt := 8 + 2 + n0*12 + 4
	dataAt := exifAt + 2 + len(exif)*12 + 4
	var data []byte
	writeIFD := func(tags []exifTag, extra *[2]uint32) {
		n := len(tags)
		if extra != nil {
			n++
		}
		out = le.AppendUint16(out, uint16(n))
		for _, t := range tags {
			v := append([]byte(t.val), 0)
			out = le.AppendUint16(out, t.tag)
			out = le.AppendUint16(out, 2)
			out = le.AppendUint32(out, uint32(len(v)))
			if len(v) <= 4 {
				var inline [4]byte
				copy(inline[:], v)
				out = append(out, inline[:]...)
			} else {
				out = le.AppendUint32(out, uint32(dataAt+len(data)))
				data = append(data, v...)
			}
		}
		if extra != nil {
			out = le.AppendUint16(out, uint16(extra[0]))
			out = le.AppendUint16(out, 4)
			out = le.AppendUint32(out, 1)
			out = le.AppendUint32(out, extra[1])
		}
		out = le.AppendUint32(out, 0)
	}
	writeIFD(ifd0, &[2]uint32{tagExifIFD, uint32(exifAt)})
	writeIFD(exif, nil)
	return append(out, data...)
}

// buildJPEG wraps a TIFF block in SOI, APP1 Exif, a tiny scan and EOI,
// padded with a comment to about size bytes.
func buildJPEG(tiffBlock []byte, size int) []byte {
	out := []byte{0xFF, 0xD8, 0xFF, 0xE1}
	out = binary.BigEndian.AppendUint16(out, uint16(2+6+len(tiffBlock)))
	out = append(out, exifHeader...)
	out = append(out, tiffBlock...)
	if pad := size - len(out) - 4 - 6; pad > 0 {
		out = append(out, 0xFF, 0xFE)
		out = binary.BigEndian.AppendUint16(out, uint16(pad+2))
		out = append(out, make([]byte, pad)...)
	}
	return append(out, 0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9)
}

func sampleJPEG(size int) []byte {
	return buildJPEG(buildTIFF(
		[]exifTag{{tagMake, "Canon"}, {tagModel, "Canon EOS 5D"}, {tagDateTime, "2020:01:02 03:04:05"}},
		[]exifTag{{tagDTOriginal, "2019:07:04 15:30:00"}, {tagDTDigitized, "2019:07:04 15:30:01"},
			{tagSubSecOrig, "031"}, {tagOffsetOrig, "+02:00"}},
	), size)
}

// box builds an ISO base media box.
func box4(typ string, payload ...[]byte) []byte {
	n := 8
	for _, p := range payload {
		n += len(p)
	}
	out := binary.BigEndian.AppendUint32(nil, uint32(n))
	out = append(out, typ...)
	for _, p := range payload {
		out = append(out, p...)
	}
	return out
}

// buildMOV writes an Apple-style movie: mvhd at mvhdSecs (1904 epoch) and,
// when keys is set, Keys metadata with those values.
func buildMOV(mvhdSecs uint32, keys map[string]string, udta ...[]byte) []byte {
	mvhd := make([]byte, 100)
	binary.BigEndian.PutUint32(mvhd[4:], mvhdSecs)
	moov := [][]byte{box4("mvhd", mvhd)}
	if len(keys) > 0 {
		names := []string{"com.apple.quicktime.creationdate", "com.apple.quicktime.make",
			"com.apple.quicktime.model", "com.apple.quicktime.content.identifier"}
		keysBody := binary.BigEndian.AppendUint32(make([]byte, 4), 0)
		var ilst [][]byte
		count := 0
		for _, name := range names {
			v, ok := keys[name]
			if !ok {
				continue
			}
			count++
			entry := binary.BigEndian.AppendUint32(nil, uint32(8+len(name)))
			entry = append(entry, "mdta"+name...)
			keysBody = append(keysBody, entry...)
			data := box4("data", []byte{0, 0, 0, 1, 0, 0, 0, 0}, []byte(v))
			ilst = append(ilst, box4(string(binary.BigEndian.AppendUint32(nil, uint32(count))), data))
		}
		binary.BigEndian.PutUint32(keysBody[4:], uint32(count))
		hdlr := box4("hdlr", make([]byte, 24))
		moov = append(moov, box4("meta", hdlr, box4("keys", keysBody), box4("ilst", ilst...)))
	}
	if len(udta) > 0 {
		moov = append(moov, box4("udta", udta...))
	}
	ftyp := box4("ftyp", []byte("qt  \x00\x00\x00\x00qt  "))
	return append(append(ftyp, box4("mdat", make([]byte, 64))...), box4("moov", moov...)...)
}

func writeTemp(t testing.TB, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatalf("write %s: %v", p, err)
	}
	return p
}
