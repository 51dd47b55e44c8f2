package meta

import (
	"encoding/binary"
	"time"
)

// readRAF reads a Fujifilm RAF: its header points at an embedded JPEG that
// carries the Exif.
func (p *parse) readRAF() {
	off, ok := p.in.u32be(84)
	if !ok || !p.readJPEG(int64(off)) {
		p.warn("raf: no embedded JPEG")
	}
}

// CIFF (Canon CRW) is a tree of heaps; each heap ends with the offset of its
// directory. Entries of types 0x28/0x30 are sub-heaps.
const (
	maxCIFFDepth   = 4
	maxCIFFEntries = 256
	ciffMakeModel  = 0x080a
	ciffTimeStamp  = 0x180e
)

// readCIFF reads a CIFF structure at base that ends at end; tag names the
// date field (CRW files and CIFF inside a JPEG APP0 differ).
func (p *parse) readCIFF(base, end int64, rk rank, tag string) {
	h := p.in.at(base, 14)
	if h == nil {
		return
	}
	c := ciff{p: p, order: binary.LittleEndian, rk: rk, tag: tag}
	if h[0] == 'M' {
		c.order = binary.BigEndian
	}
	c.heap(base+int64(c.order.Uint32(h[2:])), end, 0)
}

type ciff struct {
	p     *parse
	order binary.ByteOrder
	rk    rank
	tag   string
}

func (c *ciff) heap(start, end int64, depth int) {
	walkCIFF(c.p.in, c.order, start, end, depth, c.entry)
}

// walkCIFF calls visit with each value entry of the heap from start to end
// and of its sub-heaps, down to maxCIFFDepth.
func walkCIFF(in *input, order binary.ByteOrder, start, end int64, depth int, visit func(tag uint16, at, size int64)) {
	if depth > maxCIFFDepth || end-start < 4 {
		return
	}
	tail := in.at(end-4, 4)
	if tail == nil {
		return
	}
	dir := start + int64(order.Uint32(tail))
	cb := in.at(dir, 2)
	if cb == nil {
		return
	}
	n := min(int(order.Uint16(cb)), maxCIFFEntries)
	tab := in.at(dir+2, n*10)
	if tab == nil {
		return
	}
	for i := 0; i < n; i++ {
		e := tab[i*10:]
		tag := order.Uint16(e)
		size, off := int64(order.Uint32(e[2:])), int64(order.Uint32(e[6:]))
		if tag&0xC000 != 0 || off+size > end-start { // stored in the entry, or out of the heap
			continue
		}
		tag &= 0x3FFF
		if tag>>8&0x38 == 0x28 || tag>>8&0x38 == 0x30 {
			walkCIFF(in, order, start+off, start+off+size, depth+1, visit)
			continue
		}
		visit(tag, start+off, size)
	}
}

func (c *ciff) entry(tag uint16, at, size int64) {
	p, order := c.p, c.order
	switch {
	case tag == ciffMakeModel:
		b := p.in.at(at, int(min(size, maxStringLength)))
		if i := indexByte(b, 0); i >= 0 {
			p.setMake(b[:i])
			p.setModel(b[i+1:])
		}
	case tag == ciffTimeStamp && size >= 4:
		b := p.in.at(at, 4)
		if b == nil {
			return
		}
		// Seconds since 1970 of the camera's local clock, not of UTC.
		w := time.Unix(int64(order.Uint32(b)), 0).UTC()
		raw := []byte(w.Format("2006:01:02 15:04:05"))
		p.offerText(c.rk, SourceEXIF, c.tag, raw, nil, nil)
	}
}

// readMRW reads a Minolta MRW: blocks of 4-byte name and 32-bit length after
// an 8-byte header; the TTW block is a TIFF structure.
func (p *parse) readMRW() {
	end := int64(0)
	if n, ok := p.in.u32be(4); ok {
		end = 8 + int64(n)
	}
	for off, i := int64(8), 0; off+8 <= end && i < 16; i++ {
		h := p.in.at(off, 8)
		if h == nil {
			return
		}
		n := int64(binary.BigEndian.Uint32(h[4:]))
		if string(h[:4]) == "\x00TTW" {
			p.readTIFF(off+8, false)
			return
		}
		off += 8 + n
	}
}

// readReconyx reads the HyperFire maker note: six 16-bit words at byte 22,
// seconds first.
func (p *parse) readReconyx(note []byte) {
	if len(note) < 34 {
		return
	}
	w := func(i int) int { return int(binary.LittleEndian.Uint16(note[22+2*i:])) }
	c := clock{y: w(5), mo: w(3), d: w(4), h: w(2), mi: w(1), s: w(0)}
	raw := []byte(nil)
	if p.r.opt.Explain {
		raw = []byte(c.wall().Format("2006:01:02 15:04:05"))
	}
	if reason := c.check(p.maxYear); reason != "" {
		p.reject(tagReconyx, SourceEXIF, raw, reason)
		return
	}
	p.offer(rankMaker, Date{Wall: c.wall(), Source: SourceEXIF, Tag: tagReconyx}, raw)
}
