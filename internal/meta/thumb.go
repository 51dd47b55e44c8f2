package meta

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// Cameras and phones embed ready-made JPEG previews in their files; the
// report shows one instead of decoding the image. Where they sit:
//
//   - JPEG, HEIC: EXIF IFD1 (JPEGInterchangeFormat and its length);
//   - TIFF-based RAW (CR2, NEF, ARW, DNG, PEF, ORF, RW2, ...): IFD1, the
//     other IFDs of the chain and their SubIFDs (JPEGInterchangeFormat, or
//     one JPEG-compressed strip), RW2's JpgFromRaw;
//   - RAF: the JPEG its header points at, and that JPEG's IFD1;
//   - CRW: the JpgFromRaw and ThumbnailImage heap entries;
//   - CR3: the THMB box of Canon's uuid box and the PRVW box;
//   - MP4/MOV/M4V: cover art (ilst covr, JPEG or PNG);
//   - a video or RAW with a THM beside it: the THM, a small JPEG.
//
// A small JPEG with no preview of its own (a THM) is its own preview.
// HEIC's own thumbnails are HEVC-coded images, which browsers cannot
// show, so only an EXIF one counts.
//
// Every read is bounded: the same input budget as the date reader, at
// most maxPreviewSpans candidates, none over maxPreviewBytes; a candidate
// counts only if it is a whole JPEG (SOI, a baseline or progressive frame
// header, EOI) or PNG (signature, IHDR, IEND). Nothing is decoded.

const (
	// maxPreviewBytes caps one preview: a 160×120 thumbnail is 5-15 KB,
	// a RAW's 1,600-pixel preview some hundreds; bigger ones (a CR2's
	// full-size JPEG) are skipped, never read.
	maxPreviewBytes = 256 << 10
	maxPreviewSpans = 16
	// usefulSide is the longer side a preview needs to fill the report's
	// 120×90 box sharply: the smallest candidate this big wins.
	usefulSide = 160
	// maxWholeJPEG is how big a JPEG may be to serve as its own preview.
	maxWholeJPEG = 64 << 10

	tagThumbOffset  = 0x0201
	tagThumbLength  = 0x0202
	tagCompression  = 0x0103
	tagStripOffsets = 0x0111
	tagStripCounts  = 0x0117
	tagSubIFDs      = 0x014A
	tagRW2JpgFrom   = 0x002E
	maxPreviewIFDs  = 4 // IFDs followed along one chain
	maxSubIFDs      = 4
	ciffJpgFromRaw  = 0x2007
	ciffThumbnail   = 0x2008
)

var (
	boxCovr = fourcc("covr")
	boxTHMB = fourcc("THMB")
	boxPRVW = fourcc("PRVW")
	boxJPEG = fourcc("jpeg")
)

// prvwUUID holds a CR3's PRVW box.
const prvwUUID = "\xea\xf4\x2b\x5e\x1c\x98\x4b\x88\xb9\xfb\xb7\xdc\x40\x6e\x4d\x16"

// Thumbnail returns the embedded preview of the file at path (a JPEG or,
// for a video's cover art, a PNG), or nil when it has none that can be
// read within bounds. The error is only for a file that cannot be opened.
func Thumbnail(path string) ([]byte, error) {
	b, err := thumbnailOf(path)
	if b != nil || err != nil || strings.EqualFold(filepath.Ext(path), ".thm") {
		return b, err
	}
	return siblingTHM(path), nil
}

func thumbnailOf(path string) ([]byte, error) {
	f, err := fsx.OpenRandom(path, true)
	if err != nil {
		return nil, fmt.Errorf("open %s for its thumbnail: %w", quote.Path(path), fsx.Bare(err))
	}
	defer f.Close()
	// One read covers the header and the first IFDs or boxes of most files.
	head := make([]byte, min(max(f.Size(), 0), headSize))
	n, err := f.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return nil, nil
	}
	return previewOf(&input{head: head[:n], f: f, size: f.Size()}), nil
}

// siblingTHM is the preview of the THM that a camera wrote beside a video
// or RAW (MVI_0001.AVI and MVI_0001.THM), nil when there is none.
func siblingTHM(path string) []byte {
	stem := strings.TrimSuffix(path, filepath.Ext(path))
	for _, ext := range []string{".THM", ".thm"} {
		if b, err := thumbnailOf(stem + ext); err == nil && b != nil {
			return b
		}
	}
	return nil
}

// ThumbnailBytes is Thumbnail for a file already in memory, without the
// look for a THM beside it. The result is a copy, never a slice of data.
func ThumbnailBytes(data []byte) []byte {
	return previewOf(&input{head: data, size: int64(len(data))})
}

// span is where a candidate preview lies in the file.
type span struct{ off, n int64 }

type spans []span

func (s *spans) add(off, n int64) {
	if off >= 0 && n >= 4 && n <= maxPreviewBytes && len(*s) < maxPreviewSpans && !slices.Contains(*s, span{off, n}) {
		*s = append(*s, span{off, n})
	}
}

// previewOf finds the candidates the format has and picks one.
func previewOf(in *input) []byte {
	h := in.at(0, int(min(in.size, 16)))
	if len(h) < 4 {
		return nil
	}
	var s spans
	switch {
	case h[0] == 0xFF && h[1] == 0xD8 && h[2] == 0xFF:
		jpegPreviews(in, 0, &s)
		if in.size <= maxWholeJPEG {
			s.add(0, in.size)
		}
	case string(h[:4]) == "II*\x00" || string(h[:4]) == "MM\x00*" || string(h[:4]) == "IIRO" ||
		string(h[:4]) == "MMOR" || string(h[:4]) == "IIRS" || string(h[:4]) == "IIU\x00":
		tiffPreviews(in, 0, &s)
	case len(h) >= 16 && string(h[:16]) == "FUJIFILMCCD-RAW ":
		rafPreviews(in, &s)
	case len(h) >= 14 && (string(h[:2]) == "II" || string(h[:2]) == "MM") && string(h[6:14]) == "HEAPCCDR":
		ciffPreviews(in, h, &s)
	case len(h) >= 8 && (string(h[4:8]) == "ftyp" || isQuickTimeAtom(string(h[4:8]))):
		bmffPreviews(in, 0, in.size, 0, &s)
	}
	return s.pick(in)
}

// pick reads the candidates from the smallest up and returns the first
// whole image with a useful size, else the largest whole one.
func (s spans) pick(in *input) []byte {
	slices.SortFunc(s, func(a, b span) int { return int(a.n - b.n) })
	var best []byte
	for _, sp := range s {
		b, w, h := wholeImage(in.at(sp.off, int(sp.n)))
		if b == nil {
			continue
		}
		if max(w, h) >= usefulSide {
			return bytes.Clone(b)
		}
		best = b
	}
	return bytes.Clone(best)
}

// wholeImage returns b, without trailing padding, when it is a complete
// JPEG a browser can show (or a PNG), with its size in pixels.
func wholeImage(b []byte) ([]byte, int, int) {
	if bytes.HasPrefix(b, pngMagic) {
		return wholePNG(b)
	}
	if len(b) < 4 || b[0] != 0xFF || b[1] != 0xD8 || b[2] != 0xFF {
		return nil, 0, 0
	}
	// Cameras pad a preview to a block with zeros (or 0xFF fill).
	end := len(b)
	for end > 4 && len(b)-end < 4096 && (b[end-1] == 0 || b[end-1] == 0xFF) {
		end--
	}
	if b[end-2] != 0xFF || b[end-1] != 0xD9 {
		return nil, 0, 0
	}
	b = b[:end]
	w, h := jpegFrameSize(b)
	if w == 0 || h == 0 {
		return nil, 0, 0
	}
	return b, w, h
}

// jpegFrameSize reads the frame header's size; 0 when the frame is one a
// browser cannot decode (lossless, hierarchical, arithmetic: a DNG's raw
// data, say) or there is none before the first scan.
func jpegFrameSize(b []byte) (w, h int) {
	off := 2
	for i := 0; i < maxJPEGSegments && off+4 <= len(b); i++ {
		if b[off] != 0xFF {
			return 0, 0
		}
		m := b[off+1]
		switch {
		case m == 0xFF:
			off++
			continue
		case m == 0x01 || (m >= 0xD0 && m <= 0xD7):
			off += 2
			continue
		case m == 0xC0 || m == 0xC1 || m == 0xC2:
			if off+9 > len(b) {
				return 0, 0
			}
			return int(binary.BigEndian.Uint16(b[off+7:])), int(binary.BigEndian.Uint16(b[off+5:]))
		case m >= 0xC3 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC, m == 0xDA, m == 0xD9, m == 0xD8:
			return 0, 0
		}
		off += 2 + int(binary.BigEndian.Uint16(b[off+2:]))
	}
	return 0, 0
}

// wholePNG checks a PNG's IHDR and that it ends with IEND.
func wholePNG(b []byte) ([]byte, int, int) {
	if len(b) < 8+25+12 || string(b[12:16]) != "IHDR" || string(b[len(b)-8:len(b)-4]) != "IEND" {
		return nil, 0, 0
	}
	w, h := int(binary.BigEndian.Uint32(b[16:])), int(binary.BigEndian.Uint32(b[20:]))
	if w <= 0 || h <= 0 || w > 1<<16 || h > 1<<16 {
		return nil, 0, 0
	}
	return b, w, h
}

// jpegPreviews adds the previews of the EXIF of the JPEG at start.
func jpegPreviews(in *input, start int64, s *spans) {
	if base, ok := jpegExifPayload(in, start); ok {
		tiffPreviews(in, base, s)
	}
}

// jpegExifPayload walks the marker segments of the JPEG at start, before
// the first scan, to the APP1 Exif segment and returns the offset of its
// TIFF header.
func jpegExifPayload(in *input, start int64) (int64, bool) {
	off := start + 2
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

// tiffPreviews adds the previews of the TIFF structure at base (the file
// for a TIFF-based RAW, an Exif payload elsewhere): along IFD0's chain and
// one level of SubIFDs. Offsets in it count from base.
func tiffPreviews(in *input, base int64, s *spans) {
	h := in.at(base, 8)
	if h == nil {
		return
	}
	var order binary.ByteOrder
	switch string(h[:2]) {
	case "II":
		order = binary.LittleEndian
	case "MM":
		order = binary.BigEndian
	default:
		return
	}
	ifd := int64(order.Uint32(h[4:]))
	for i := 0; i < maxPreviewIFDs && ifd >= 8; i++ {
		for _, sub := range ifdPreviews(in, order, base, ifd, s) {
			ifdPreviews(in, order, base, sub, s)
		}
		next, ok := nextIFD(in, order, base, ifd)
		if !ok || next == ifd {
			return
		}
		ifd = next
	}
}

// ifdPreviews adds the previews one IFD points at and returns its SubIFDs.
func ifdPreviews(in *input, order binary.ByteOrder, base, rel int64, s *spans) []int64 {
	cb := in.at(base+rel, 2)
	if cb == nil {
		return nil
	}
	count := int(order.Uint16(cb))
	if count > maxIFDEntries {
		return nil
	}
	tab := in.at(base+rel+2, count*12)
	if tab == nil {
		return nil
	}
	var (
		thumbOff, thumbLen, stripOff, stripLen, compression int64
		subs                                                []int64
	)
	for i := 0; i < count; i++ {
		e := tab[i*12 : i*12+12]
		v, isInt := inlineInt(order, e)
		switch tag := order.Uint16(e); {
		case tag == tagSubIFDs:
			subs = subIFDs(in, order, base, e)
		case tag == tagRW2JpgFrom && order.Uint16(e[2:]) == 7:
			s.add(base+int64(order.Uint32(e[8:])), int64(order.Uint32(e[4:])))
		case !isInt:
		case tag == tagThumbOffset:
			thumbOff = v
		case tag == tagThumbLength:
			thumbLen = v
		case tag == tagStripOffsets:
			stripOff = v
		case tag == tagStripCounts:
			stripLen = v
		case tag == tagCompression:
			compression = v
		}
	}
	if thumbOff > 0 {
		s.add(base+thumbOff, thumbLen)
	}
	if stripOff > 0 && (compression == 6 || compression == 7) {
		s.add(base+stripOff, stripLen)
	}
	return subs
}

// subIFDs reads the offsets of a SubIFDs entry: inline when there is one,
// else in an array it points at.
func subIFDs(in *input, order binary.ByteOrder, base int64, e []byte) []int64 {
	typ, n := order.Uint16(e[2:]), order.Uint32(e[4:])
	if typ != 4 && typ != 13 || n == 0 {
		return nil
	}
	if n == 1 {
		return []int64{int64(order.Uint32(e[8:]))}
	}
	arr := in.at(base+int64(order.Uint32(e[8:])), int(min(n, maxSubIFDs))*4)
	var out []int64
	for i := 0; i+4 <= len(arr); i += 4 {
		out = append(out, int64(order.Uint32(arr[i:])))
	}
	return out
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

// rafPreviews adds the JPEG a RAF's header points at (offset at 84,
// length at 88) and that JPEG's own thumbnail.
func rafPreviews(in *input, s *spans) {
	off, ok1 := in.u32be(84)
	n, ok2 := in.u32be(88)
	if !ok1 || !ok2 {
		return
	}
	s.add(int64(off), int64(n))
	jpegPreviews(in, int64(off), s)
}

// ciffPreviews adds a CRW's JpgFromRaw and ThumbnailImage.
func ciffPreviews(in *input, h []byte, s *spans) {
	order := binary.ByteOrder(binary.LittleEndian)
	if h[0] == 'M' {
		order = binary.BigEndian
	}
	walkCIFF(in, order, int64(order.Uint32(h[2:])), in.size, 0, func(tag uint16, at, size int64) {
		if tag == ciffJpgFromRaw || tag == ciffThumbnail {
			s.add(at, size)
		}
	})
}

// bmffPreviews walks boxes from off to end for cover art, a CR3's THMB and
// PRVW, and a HEIF's EXIF thumbnail or JPEG items.
func bmffPreviews(in *input, off, end int64, depth int, s *spans) {
	if depth >= maxBoxDepth {
		return
	}
	for i := 0; i < maxBoxes && off < end; i++ {
		b, ok := boxAt(in, off, end)
		if !ok {
			return
		}
		off = b.end
		switch b.typ {
		case boxMoov, boxUdta, boxIlst:
			bmffPreviews(in, b.data, b.end, depth+1, s)
		case boxMeta:
			if depth == 0 {
				heifPreviews(in, b, s)
			} else {
				bmffPreviews(in, metaPayloadIn(in, b), b.end, depth+1, s)
			}
		case boxCovr:
			coverArt(in, b, s)
		case boxUUID:
			switch u := in.at(b.data, 16); {
			case u == nil:
			case string(u) == canonUUID:
				bmffPreviews(in, b.data+16, b.end, depth+1, s)
			case string(u) == prvwUUID:
				bmffPreviews(in, b.data+24, b.end, depth+1, s)
			}
		case boxTHMB, boxPRVW:
			// version and flags, sizes, then the JPEG's length at 8 (THMB)
			// or 12 (PRVW) and the JPEG itself at 16.
			at := int64(8)
			if b.typ == boxPRVW {
				at = 12
			}
			if n, ok := in.u32be(b.data + at); ok {
				s.add(b.data+16, min(int64(n), b.end-b.data-16))
			}
		}
	}
}

// coverArt adds the images of a covr item: data boxes of type 13 (JPEG)
// or 14 (PNG), after 8 bytes of type and locale.
func coverArt(in *input, item box, s *spans) {
	off := item.data
	for i := 0; i < maxPreviewSpans && off < item.end; i++ {
		d, ok := boxAt(in, off, item.end)
		if !ok {
			return
		}
		off = d.end
		if d.typ == boxData && d.end-d.data > 8 {
			s.add(d.data+8, d.end-d.data-8)
		}
	}
}

// heifPreviews adds a HEIF's JPEG-coded items and its EXIF thumbnail.
func heifPreviews(in *input, meta box, s *spans) {
	var (
		loc       box
		exifID    uint32
		haveExif  bool
		jpegItems []uint32
	)
	off := meta.data + 4
	for i := 0; i < maxBoxes && off < meta.end; i++ {
		b, ok := boxAt(in, off, meta.end)
		if !ok {
			break
		}
		off = b.end
		switch b.typ {
		case boxIinf:
			iinfEach(in, b, func(e box) {
				id, typ, ok := infeItem(in, e)
				switch {
				case !ok:
				case typ == boxExif && !haveExif:
					exifID, haveExif = id, true
				case typ == boxJPEG && len(jpegItems) < maxPreviewSpans:
					jpegItems = append(jpegItems, id)
				}
			})
		case boxIloc:
			loc = b
		}
	}
	if loc.typ != boxIloc || !haveExif && len(jpegItems) == 0 {
		return
	}
	ilocEach(in, loc, func(id uint32, at, n int64, extents uint64) {
		switch {
		case haveExif && id == exifID:
			if skip, ok := in.u32be(at); ok && skip <= 64 {
				tiffPreviews(in, at+4+int64(skip), s)
			}
		case extents == 1 && slices.Contains(jpegItems, id):
			s.add(at, n)
		}
	})
}
