package meta

import (
	"bytes"
	"encoding/binary"
	"time"
)

const maxJPEGSegments = 256

var (
	exifHeader = []byte("Exif\x00\x00")
	xmpHeader  = []byte("http://ns.adobe.com/xap/1.0/\x00")
	// xmpExtHeader opens the APP1 segments of extended XMP.
	xmpExtHeader = []byte("http://ns.adobe.com/xmp/extension/\x00")
)

// readJPEG walks the marker segments of a JPEG that starts at start, up to
// the first scan, reading APP1 Exif and XMP.
func (p *parse) readJPEG(start int64) bool {
	if b := p.in.at(start, 2); b == nil || b[0] != 0xFF || b[1] != 0xD8 {
		return false
	}
	off := start + 2
	var ext extendedXMP
	var flir flirSegments
	defer flir.read(p) // after the extended XMP, which may date the file better
	defer ext.read(p)
	for i := 0; i < maxJPEGSegments; i++ {
		b := p.in.at(off, 4)
		if b == nil || b[0] != 0xFF {
			if i == 0 {
				p.warn("jpeg: no marker after SOI")
			}
			return true
		}
		marker := b[1]
		switch {
		case marker == 0xFF: // fill byte
			off++
			continue
		case marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7):
			off += 2
			continue
		case marker == 0xDA || marker == 0xD9: // start of scan or end: no more metadata
			return true
		}
		length := int64(binary.BigEndian.Uint16(b[2:]))
		if length < 2 {
			p.warn("jpeg: bad segment length")
			return true
		}
		switch marker {
		case 0xE0:
			p.readAPP0(off+4, length-2)
		case 0xE1:
			p.readAPP1(off+4, length-2, &ext, &flir)
		case 0xEC:
			p.readAPP12(off+4, length-2)
		case 0xED:
			p.readAPP13(off+4, length-2)
		}
		off += 2 + length
	}
	return true
}

func (p *parse) readAPP1(at, n int64, ext *extendedXMP, flir *flirSegments) {
	h := p.in.at(at, min(int(n), len(xmpExtHeader)))
	switch {
	case hasPrefix(h, exifHeader):
		if !p.readTIFF(at+int64(len(exifHeader)), false) {
			p.warn("jpeg: unreadable Exif header")
		}
	case hasPrefix(h, []byte("QVCI")):
		p.readQVCI(at, n)
	case hasPrefix(h, xmpHeader):
		if b := p.in.at(at+int64(len(xmpHeader)), int(n)-len(xmpHeader)); b != nil {
			p.readXMP(b)
		}
	case hasPrefix(h, xmpExtHeader):
		ext.add(p, at+int64(len(xmpExtHeader)), n-int64(len(xmpExtHeader)))
	case hasPrefix(h, flirHeader):
		flir.add(p, at, n)
	}
}

// extendedXMP gathers a JPEG's extended XMP: XMP too large for one
// segment continues in APP1 segments headed by the extension namespace, a
// 32-character GUID, the full length and this chunk's offset in it. The
// chunks are put together (in their stated order, whatever the segment
// order) so that a property cut between two is read whole; only the
// first GUID seen is kept, and at most maxXMPBytes. Extended XMP is often
// large (phones keep depth maps in it), so it is skipped when the EXIF
// before it already gave a date that XMP cannot beat.
type extendedXMP struct {
	guid  []byte
	limit int64  // the stated full length, at most maxXMPBytes
	buf   []byte // grown to the end of the furthest chunk seen
}

func (x *extendedXMP) add(p *parse, at, n int64) {
	if p.datedAbove(rankXMPOriginal) {
		return
	}
	h := p.in.at(at, 40)
	if n <= 40 || h == nil {
		return
	}
	guid, full, off := h[:32], int64(binary.BigEndian.Uint32(h[32:])), int64(binary.BigEndian.Uint32(h[36:]))
	switch {
	case x.guid == nil:
		x.guid, x.limit = append([]byte(nil), guid...), min(full, maxXMPBytes)
	case !bytes.Equal(x.guid, guid):
		return
	}
	n = min(n-40, x.limit-off)
	if n <= 0 {
		return
	}
	b := p.in.at(at+40, int(n))
	if b == nil {
		return
	}
	if end := int(off + n); end > len(x.buf) {
		x.buf = append(x.buf, make([]byte, end-len(x.buf))...)
	}
	copy(x.buf[off:], b)
}

func (x *extendedXMP) read(p *parse) {
	if len(x.buf) > 0 {
		p.readXMP(x.buf)
	}
}

func hasPrefix(b, prefix []byte) bool {
	return len(b) >= len(prefix) && string(b[:len(prefix)]) == string(prefix)
}

// readAPP0 reads the CIFF heap that early Canon PowerShots put in APP0.
func (p *parse) readAPP0(at, n int64) {
	if h := p.in.at(at, 14); h != nil && string(h[6:14]) == "HEAPJPGM" {
		p.readCIFF(at, at+n, rankMaker, tagCIFFJPEG)
	}
}

// readQVCI reads Casio's QVCI segment: "YYYY.MM.DD.HH.MM.SS" at byte 0x4d.
func (p *parse) readQVCI(at, n int64) {
	if n < 0x4d+19 {
		return
	}
	b := p.in.at(at+0x4d, 19)
	if b == nil {
		return
	}
	var d [19]byte
	copy(d[:], b)
	d[10], d[13], d[16] = ' ', ':', ':'
	p.offerText(rankMaker, SourceEXIF, tagCasio, d[:], nil, nil)
}

// readAPP12 reads Olympus/Agfa "[picture info]" text: TimeDate= is Unix
// seconds of the camera's local clock.
func (p *parse) readAPP12(at, n int64) {
	b := p.in.at(at, int(min(n, 4096)))
	i := bytes.Index(b, []byte("TimeDate="))
	if i < 0 {
		return
	}
	secs, j := int64(0), i+len("TimeDate=")
	for ; j < len(b) && j < i+20 && isDigit(b[j]); j++ {
		secs = secs*10 + int64(b[j]-'0')
	}
	raw := []byte(time.Unix(secs, 0).UTC().Format("2006:01:02 15:04:05"))
	p.offerText(rankMaker, SourceEXIF, tagPictureInfo, raw, nil, nil)
}
