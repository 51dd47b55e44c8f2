package meta

import "encoding/binary"

// A small, bounded TIFF/EXIF IFD reader: it visits only IFD0, the Exif IFD,
// Apple's maker note and the GPS IFD, reads only the tags that carry dates,
// make, model, ContentIdentifier and the GPS time stamp, and copies nothing
// but the strings it returns.

const (
	maxIFDEntries  = 512
	maxMakerNote   = 64 << 10
	maxTIFFVisits  = 4 // IFD0, Exif IFD, maker note, GPS IFD: a loop of pointers ends here
	tagMake        = 0x010F
	tagModel       = 0x0110
	tagDateTime    = 0x0132
	tagXMPPacket   = 0x02BC
	tagExifIFD     = 0x8769
	tagDTOriginal  = 0x9003
	tagDTDigitized = 0x9004
	tagOffset      = 0x9010
	tagOffsetOrig  = 0x9011
	tagOffsetDigit = 0x9012
	tagSubSec      = 0x9290
	tagSubSecOrig  = 0x9291
	tagSubSecDigit = 0x9292
	tagMakerNote   = 0x927C
	tagAppleCID    = 0x0011
	tagDNGVersion  = 0xC612
)

type ifdKind uint8

const (
	ifdZero ifdKind = iota
	ifdExif
	ifdApple
	ifdGPS
)

// tiff is one TIFF structure inside the file; offsets in it are relative to base.
type tiff struct {
	p      *parse
	base   int64
	order  binary.ByteOrder
	big    bool // BigTIFF: 8-byte counts and offsets, 20-byte entries
	visits int
	// date fields, kept until both IFDs are read so sub-seconds and offsets
	// can join the date they belong to
	dto, digitized, modify, ifd0DTO []byte
	subOrig, subDigit, sub          []byte
	offOrig, offDigit, off          []byte
	exifAt, gpsAt                   int64
	gps                             gpsFix
}

// entry is one IFD entry; at is the absolute file offset of its value.
type entry struct {
	tag, typ uint16
	count    uint32
	at       int64
	size     int64
}

// typeSize is the byte size of each TIFF field type; 16..18 are
// BigTIFF's LONG8, SLONG8 and IFD8.
var typeSize = [...]int64{0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4, 0, 0, 8, 8, 8}

const (
	bigTIFFVersion = 43
	maxIFDOffset   = 1 << 40 // no real file is larger; keeps BigTIFF offsets far from overflow
)

// readTIFF parses a TIFF header at base. exifFirst says the first IFD is the
// Exif IFD itself (Canon CR3 CMT2).
func (p *parse) readTIFF(base int64, exifFirst bool) bool {
	h := p.in.at(base, 8)
	if h == nil {
		return false
	}
	t := tiff{p: p, base: base}
	switch {
	case h[0] == 'I' && h[1] == 'I':
		t.order = binary.LittleEndian
	case h[0] == 'M' && h[1] == 'M':
		t.order = binary.BigEndian
	default:
		return false
	}
	// 42 is TIFF; Olympus ORF uses "RO"/"SR" and Panasonic RW2 uses 0x55;
	// 43 is BigTIFF, whose header goes on with the offset size (8), a zero
	// and an 8-byte offset of IFD0.
	first := int64(t.order.Uint32(h[4:]))
	switch t.order.Uint16(h[2:]) {
	case 42, 0x4F52, 0x5352, 0x5253, 0x55:
	case bigTIFFVersion:
		b := p.in.at(base+8, 8)
		if b == nil || t.order.Uint16(h[4:]) != 8 || t.order.Uint16(h[6:]) != 0 {
			return false
		}
		t.big, first = true, int64(min(t.order.Uint64(b), maxIFDOffset))
	default:
		return false
	}
	if exifFirst {
		t.walk(first, ifdExif)
	} else {
		t.walk(first, ifdZero)
		if t.exifAt > 0 {
			t.walk(t.exifAt, ifdExif)
		}
		if t.gpsAt > 0 {
			t.walk(t.gpsAt, ifdGPS)
		}
	}
	t.offerDates()
	return true
}

func (t *tiff) offerDates() {
	p := t.p
	if t.dto != nil {
		t.offerCapture(rankOriginal, tagDTO, t.dto, t.subOrig, t.offOrig)
	}
	if t.ifd0DTO != nil {
		t.offerCapture(rankOriginal, tagIFD0DTO, t.ifd0DTO, t.subOrig, t.offOrig)
	}
	if t.digitized != nil {
		t.offerCapture(rankDigitized, tagCreate, t.digitized, t.subDigit, t.offDigit)
	}
	if t.modify != nil {
		p.offerText(rankModify, SourceEXIF, tagModify, t.modify, t.sub, t.off)
	}
}

// walk reads one IFD at rel (relative to base) and the tags of kind it cares about.
func (t *tiff) walk(rel int64, kind ifdKind) {
	if t.visits >= maxTIFFVisits || rel < 8 {
		return
	}
	t.visits++
	at := t.base + rel
	countSize, entrySize := int64(2), 12
	if t.big {
		countSize, entrySize = 8, 20
	}
	cb := t.p.in.at(at, int(countSize))
	if cb == nil {
		return
	}
	n := maxIFDEntries
	if c := t.uint(cb); c < maxIFDEntries {
		n = int(c)
	}
	tab := t.p.in.at(at+countSize, n*entrySize)
	for tab == nil && n > 0 { // a truncated table: read what is there
		n /= 2
		tab = t.p.in.at(at+countSize, n*entrySize)
	}
	for i := 0; i < n; i++ {
		e := t.entry(tab[i*entrySize:(i+1)*entrySize], at+countSize+int64(i*entrySize))
		t.use(e, kind)
	}
}

// uint reads a 2-, 4- or 8-byte unsigned integer in the TIFF's byte order.
func (t *tiff) uint(b []byte) uint64 {
	switch len(b) {
	case 2:
		return uint64(t.order.Uint16(b))
	case 4:
		return uint64(t.order.Uint32(b))
	case 8:
		return t.order.Uint64(b)
	}
	return 0
}

// entry decodes the IFD entry b found at file offset at. A value that fits
// in the entry's last field (4 bytes, 8 in BigTIFF) is stored there.
func (t *tiff) entry(b []byte, at int64) entry {
	e := entry{tag: t.order.Uint16(b), typ: t.order.Uint16(b[2:])}
	var count, offset uint64
	field := int64(4)
	if t.big {
		count, offset, field = t.order.Uint64(b[4:]), t.order.Uint64(b[12:]), 8
	} else {
		count, offset = uint64(t.order.Uint32(b[4:])), uint64(t.order.Uint32(b[8:]))
	}
	e.count = uint32(min(count, 1<<31))
	if int(e.typ) < len(typeSize) {
		e.size = typeSize[e.typ] * int64(e.count)
	}
	if e.size <= field {
		e.at = at + 4 + field
	} else {
		e.at = t.base + int64(min(offset, maxIFDOffset))
	}
	return e
}

// ifdPointer reads an entry that holds the offset of a sub-IFD: one LONG
// or IFD, or in BigTIFF also one LONG8 or IFD8. It returns 0 otherwise.
func (t *tiff) ifdPointer(e entry) int64 {
	if e.count != 1 || (e.size != 4 && e.size != 8) {
		return 0
	}
	return int64(min(t.uint(t.value(e, e.size)), maxIFDOffset))
}

// value returns up to max bytes of e's value, nil when unreadable.
func (t *tiff) value(e entry, max int64) []byte {
	n := e.size
	if n > max {
		n = max
	}
	if n <= 0 {
		return nil
	}
	return t.p.in.at(e.at, int(n))
}

func (t *tiff) use(e entry, kind ifdKind) {
	switch kind {
	case ifdZero:
		t.useIFD0(e)
	case ifdExif:
		t.useExif(e)
	case ifdGPS:
		t.useGPS(e)
	case ifdApple:
		if e.tag == tagAppleCID && t.p.info.ContentID == "" {
			t.p.info.ContentID = cleanString(t.value(e, 64))
		}
	}
}

func (t *tiff) useIFD0(e entry) {
	switch e.tag {
	case tagMake:
		t.p.setMake(t.value(e, 64))
	case tagModel:
		t.p.setModel(t.value(e, 64))
	case tagDateTime:
		t.modify = t.value(e, 64)
	case tagDTOriginal: // Kodak and some NEF put it in IFD0
		t.ifd0DTO = t.value(e, 64)
	case tagSubSec:
		t.sub = t.value(e, 16)
	case tagOffset:
		t.off = t.value(e, 16)
	case tagExifIFD:
		t.exifAt = t.ifdPointer(e)
	case tagGPSIFD:
		t.gpsAt = t.ifdPointer(e)
	case tagDNGVersion:
		t.p.isDNG = true
	case tagXMPPacket:
		if b := t.value(e, maxXMPBytes); b != nil {
			t.p.readXMP(b)
		}
	case tagIPTCNAA:
		b := t.value(e, maxIPTCBytes)
		t.p.iptc.noteCurrent(b)
		t.p.readIPTC(b)
	case tagPhotoshopIRB:
		t.p.readIRB(e.at, e.at+min(e.size, maxIPTCBytes), false)
	}
}

func (t *tiff) useExif(e entry) {
	switch e.tag {
	case tagDTOriginal:
		t.dto = t.value(e, 64)
	case tagDTDigitized:
		t.digitized = t.value(e, 64)
	case tagSubSec:
		t.sub = t.value(e, 16)
	case tagSubSecOrig:
		t.subOrig = t.value(e, 16)
	case tagSubSecDigit:
		t.subDigit = t.value(e, 16)
	case tagOffset:
		t.off = t.value(e, 16)
	case tagOffsetOrig:
		t.offOrig = t.value(e, 16)
	case tagOffsetDigit:
		t.offDigit = t.value(e, 16)
	case tagMake: // a few cameras write them here instead of IFD0
		t.p.setMake(t.value(e, 64))
	case tagModel:
		t.p.setModel(t.value(e, 64))
	case tagMakerNote:
		t.appleMakerNote(e)
	}
}

// appleMakerNote reads Apple's "Apple iOS" maker note: a big-endian IFD at
// offset 14 whose offsets count from the start of the note.
func (t *tiff) appleMakerNote(e entry) {
	h := t.value(e, 40)
	if len(h) >= 34 && h[0] == 0x01 && h[1] == 0xF1 {
		t.p.readReconyx(h)
		return
	}
	if len(h) < 16 || string(h[:9]) != "Apple iOS" || h[12] != 'M' || h[13] != 'M' {
		return
	}
	note := tiff{p: t.p, base: e.at, order: binary.BigEndian, visits: t.visits}
	note.walk(14, ifdApple)
	t.visits = note.visits
}
