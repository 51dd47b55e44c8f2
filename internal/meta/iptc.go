package meta

import (
	"crypto/md5"
	"encoding/binary"
)

// IPTC-IIM dates, as Photo Mechanic, Photoshop and newsroom tools write
// them: record 2, DateCreated (2:55, "CCYYMMDD") with TimeCreated (2:60,
// "HHMMSS±HHMM"), and DigitalCreationDate/Time (2:62, 2:63). They live in
// a JPEG's APP13 "Photoshop 3.0" image resources (block 0x0404) and in
// TIFF tag 0x83BB (or the Photoshop resources of tag 0x8649).

const (
	maxIRBBlocks    = 64
	maxIPTCRecords  = 256
	maxIPTCBytes    = 64 << 10
	irbIPTC         = 0x0404
	irbEXIF         = 0x0422 // "EXIF data 1": a TIFF structure
	irbXMP          = 0x0424
	irbIPTCDigest   = 0x0425 // MD5 of the IPTC block as Photoshop last wrote it with the XMP
	tagIPTCNAA      = 0x83BB
	tagPhotoshopIRB = 0x8649
)

var photoshopHeader = []byte("Photoshop 3.0\x00")

// readAPP13 reads the Photoshop image resources of a JPEG APP13 segment.
func (p *parse) readAPP13(at, n int64) {
	hl := int64(len(photoshopHeader))
	if n <= hl || !hasPrefix(p.in.at(at, len(photoshopHeader)), photoshopHeader) {
		return
	}
	p.readIRB(at+hl, at+min(n, maxIPTCBytes), false)
}

// readIRB walks the Photoshop image resource blocks between file offsets
// at and end ("8BIM", id, padded Pascal name, size, data padded to even)
// for the IPTC block and, when withExif (a PSD's own resources: a TIFF's
// or JPEG's would only repeat their Exif, and could point back at
// themselves), the EXIF and XMP blocks. Only block headers are read on
// the way; a thumbnail block is skipped, never loaded.
func (p *parse) readIRB(at, end int64, withExif bool) {
	for i := 0; i < maxIRBBlocks && at+12 <= end; i++ {
		h := p.in.at(at, 7)
		if h == nil || !isIRBSignature(h[:4]) {
			return
		}
		id := binary.BigEndian.Uint16(h[4:])
		sizeAt := at + 6 + (int64(h[6])+2)&^1 // the name's length byte and text, padded to even
		sb := p.in.at(sizeAt, 4)
		if sb == nil {
			return
		}
		size, data := int64(binary.BigEndian.Uint32(sb)), sizeAt+4
		if size > end-data {
			return
		}
		switch {
		case id == irbIPTC:
			b := p.in.at(data, int(min(size, maxIPTCBytes)))
			p.iptc.noteCurrent(b)
			p.readIPTC(b)
		case id == irbIPTCDigest && size == md5.Size:
			if b := p.in.at(data, md5.Size); b != nil && !p.iptc.hasStored {
				p.iptc.hasStored = true
				copy(p.iptc.stored[:], b)
			}
		case id == irbEXIF && withExif:
			p.readTIFF(data, false)
		case id == irbXMP && withExif:
			if b := p.in.at(data, int(min(size, maxXMPBytes))); b != nil {
				p.readXMP(b)
			}
		}
		at = data + size + size&1
	}
}

// isIRBSignature accepts Photoshop's "8BIM" and the few other writers'
// signatures ExifTool accepts too.
func isIRBSignature(b []byte) bool {
	switch string(b) {
	case "8BIM", "MeSa", "PHUT", "AgHg", "DCSR":
		return true
	}
	return false
}

// readIPTC reads IPTC-IIM datasets (0x1C, record, dataset, length, value)
// and offers the creation dates of record 2.
func (p *parse) readIPTC(b []byte) {
	var date, clock, digDate, digClock []byte
	for i := 0; i < maxIPTCRecords && len(b) >= 5 && b[0] == 0x1C; i++ {
		rec, ds := b[1], b[2]
		n, hdr := int64(binary.BigEndian.Uint16(b[3:])), int64(5)
		if n&0x8000 != 0 { // extended dataset: the next n&0x7fff bytes hold the length
			k := n & 0x7fff
			if k > 4 || int64(len(b)) < 5+k {
				return
			}
			n = 0
			for _, c := range b[5 : 5+k] {
				n = n<<8 | int64(c)
			}
			hdr += k
		}
		if n > int64(len(b))-hdr {
			return
		}
		v := b[hdr : hdr+n]
		if rec == 2 {
			switch ds {
			case 55:
				date = v
			case 60:
				clock = v
			case 62:
				digDate = v
			case 63:
				digClock = v
			}
		}
		b = b[hdr+n:]
	}
	// MWG: DateCreated is the equivalent of DateTimeOriginal,
	// DigitalCreationDate of CreateDate.
	p.offerIPTC(rankIPTC, tagIPTCCreated, date, clock)
	p.offerIPTC(rankIPTCDigital, tagIPTCDigital, digDate, digClock)
}

// noteCurrent keeps the first IPTC block read, for the MWG digest check
// (order.go); it is hashed only when a digest is stored beside it.
func (d *iptcDigest) noteCurrent(b []byte) {
	if d.block == nil {
		d.block = b
	}
}

// offerIPTC joins an IPTC date ("CCYYMMDD") and time ("HHMMSS±HHMM",
// optional) into "CCYY:MM:DD HH:MM:SS±HH:MM" and offers it.
func (p *parse) offerIPTC(rk rank, tag string, date, clock []byte) {
	date = trimText(date)
	if len(date) == 0 {
		return
	}
	if len(date) != 8 {
		p.reject(tag, SourceIPTC, date, badSyntax)
		return
	}
	var buf [25]byte
	t := append(buf[:0], date[:4]...)
	t = append(append(append(append(t, ':'), date[4:6]...), ':'), date[6:8]...)
	if c := trimText(clock); len(c) >= 6 {
		t = append(append(append(append(append(append(t, ' '), c[:2]...), ':'), c[2:4]...), ':'), c[4:6]...)
		if len(c) == 11 && (c[6] == '+' || c[6] == '-') {
			t = append(append(append(t, c[6:9]...), ':'), c[9:11]...)
		}
	}
	p.offerText(rk, SourceIPTC, tag, t, nil, nil)
}

// maxAFCPEntries bounds an AFCP directory.
const maxAFCPEntries = 16

// readAFCP reads the IPTC of an AXS File Concatenation Protocol trailer
// (newsroom tools append it to a JPEG): the file ends with "AXS!" or
// "AXS*", the header's offset and four zero bytes; the header lists
// entries (tag, size, absolute offset). It costs one read at the file's
// end, so it is only done when the JPEG's own segments carried no date.
func (p *parse) readAFCP() {
	tail := p.in.at(p.in.size-12, 12)
	if tail == nil || (string(tail[:4]) != "AXS!" && string(tail[:4]) != "AXS*") {
		return
	}
	at := int64(binary.BigEndian.Uint32(tail[4:]))
	h := p.in.at(at, 12)
	if h == nil || string(h[:3]) != "AXS" {
		return
	}
	n := int(binary.BigEndian.Uint16(h[6:]))
	dir := p.in.at(at+12, min(n, maxAFCPEntries)*12)
	for i := 0; i+12 <= len(dir); i += 12 {
		if string(dir[i:i+4]) == "IPTC" {
			size, off := binary.BigEndian.Uint32(dir[i+4:]), binary.BigEndian.Uint32(dir[i+8:])
			p.readIPTC(p.in.at(int64(off), int(min(size, maxIPTCBytes))))
		}
	}
}
