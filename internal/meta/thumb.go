package meta

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/shoebox-photos/shoebox/internal/fsx"
)

// The preview a camera embeds in EXIF IFD1 (JPEGInterchangeFormat and
// JPEGInterchangeFormatLength) is a ready-made JPEG of a few kilobytes: the
// report shows it instead of decoding the full image. The same bounded
// input as the date reader keeps a hostile file from making us read much.

const (
	// maxThumbBytes caps the preview: in a JPEG it sits inside one APP1
	// segment, which cannot exceed 64 KB; TIFF-based RAW files may hold a
	// bigger one, which is then skipped rather than read.
	maxThumbBytes  = 64 << 10
	tagThumbOffset = 0x0201
	tagThumbLength = 0x0202
)

// Thumbnail returns the EXIF preview JPEG embedded in the JPEG or TIFF-based
// file at path, or nil when it has none that can be read within bounds.
// The error is only for a file that cannot be opened.
func Thumbnail(path string) ([]byte, error) {
	f, err := fsx.OpenRandom(path, true)
	if err != nil {
		return nil, fmt.Errorf("open %q for its thumbnail: %w", path, fsx.Bare(err))
	}
	defer f.Close()
	return exifThumbnail(&input{f: f, size: f.Size()}), nil
}

// ThumbnailBytes is Thumbnail for a file already in memory. The result is a
// copy, never a slice of data.
func ThumbnailBytes(data []byte) []byte {
	return exifThumbnail(&input{head: data, size: int64(len(data))})
}

func exifThumbnail(in *input) []byte {
	base, ok := thumbTIFFBase(in)
	if !ok {
		return nil
	}
	return thumbFromTIFF(in, base)
}

// thumbTIFFBase finds where the TIFF structure holding IFD1 starts: the
// file itself for TIFF-based RAW, the APP1 Exif payload for a JPEG.
func thumbTIFFBase(in *input) (int64, bool) {
	h := in.at(0, 4)
	switch {
	case h == nil:
		return 0, false
	case string(h) == "II*\x00" || string(h) == "MM\x00*":
		return 0, true
	case h[0] == 0xFF && h[1] == 0xD8:
		return jpegExifPayload(in)
	}
	return 0, false
}

// jpegExifPayload walks the marker segments before the first scan to the
// APP1 Exif segment and returns the offset of its TIFF header.
func jpegExifPayload(in *input) (int64, bool) {
	off := int64(2)
	for i := 0; i < maxJPEGSegments; i++ {
		b := in.at(off, 4)
		if b == nil || b[0] != 0xFF {
			return 0, false
		}
		switch m := b[1]; {
		case m == 0xFF:
			off++
			continue
		case m == 0xD8 || m == 0x01 || (m >= 0xD0 && m <= 0xD7):
			off += 2
			continue
		case m == 0xDA || m == 0xD9:
			return 0, false
		case m == 0xE1 && hasPrefix(in.at(off+4, len(exifHeader)), exifHeader):
			return off + 4 + int64(len(exifHeader)), true
		}
		length := int64(binary.BigEndian.Uint16(b[2:]))
		if length < 2 {
			return 0, false
		}
		off += 2 + length
	}
	return 0, false
}

// thumbFromTIFF follows IFD0's next-IFD pointer to IFD1 and returns the
// JPEG its offset and length tags point at.
func thumbFromTIFF(in *input, base int64) []byte {
	h := in.at(base, 8)
	if h == nil {
		return nil
	}
	var order binary.ByteOrder
	switch string(h[:2]) {
	case "II":
		order = binary.LittleEndian
	case "MM":
		order = binary.BigEndian
	default:
		return nil
	}
	ifd0 := int64(order.Uint32(h[4:]))
	ifd1, ok := nextIFD(in, order, base, ifd0)
	if !ok || ifd1 == ifd0 {
		return nil
	}
	off, n, ok := thumbLocation(in, order, base+ifd1)
	if !ok || n < 4 || n > maxThumbBytes {
		return nil
	}
	jpg := in.at(base+off, int(n))
	if jpg == nil || jpg[0] != 0xFF || jpg[1] != 0xD8 || jpg[2] != 0xFF {
		return nil
	}
	return bytes.Clone(jpg)
}

// nextIFD reads the pointer that follows the IFD at rel.
func nextIFD(in *input, order binary.ByteOrder, base, rel int64) (int64, bool) {
	if rel < 8 {
		return 0, false
	}
	cb := in.at(base+rel, 2)
	if cb == nil {
		return 0, false
	}
	n := int64(order.Uint16(cb))
	if n > maxIFDEntries {
		return 0, false
	}
	p := in.at(base+rel+2+n*12, 4)
	if p == nil {
		return 0, false
	}
	next := int64(order.Uint32(p))
	return next, next >= 8
}

// thumbLocation reads JPEGInterchangeFormat and its length from the IFD at
// abs. Both are single SHORT or LONG values, so they sit inline.
func thumbLocation(in *input, order binary.ByteOrder, abs int64) (off, n int64, ok bool) {
	cb := in.at(abs, 2)
	if cb == nil {
		return 0, 0, false
	}
	count := int(order.Uint16(cb))
	if count > maxIFDEntries {
		return 0, 0, false
	}
	tab := in.at(abs+2, count*12)
	if tab == nil {
		return 0, 0, false
	}
	var haveOff, haveLen bool
	for i := 0; i < count; i++ {
		e := tab[i*12 : i*12+12]
		v, isInt := inlineInt(order, e)
		switch tag := order.Uint16(e); {
		case !isInt:
		case tag == tagThumbOffset:
			off, haveOff = v, true
		case tag == tagThumbLength:
			n, haveLen = v, true
		}
	}
	return off, n, haveOff && haveLen
}

// inlineInt decodes an entry holding one SHORT or LONG.
func inlineInt(order binary.ByteOrder, e []byte) (int64, bool) {
	if order.Uint32(e[4:]) != 1 {
		return 0, false
	}
	switch order.Uint16(e[2:]) {
	case 3:
		return int64(order.Uint16(e[8:])), true
	case 4:
		return int64(order.Uint32(e[8:])), true
	}
	return 0, false
}
