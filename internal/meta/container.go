package meta

import (
	"bytes"
	"encoding/binary"
	"time"
)

// Video containers whose date is one binary field in their header:
// Matroska/WebM (Segment Info DateUTC) and ASF/WMV/WMA (File Properties
// Creation Date). Both hold UTC, so they are shown in --video-tz like a
// phone's mvhd.

const (
	maxEBMLElements = 64
	maxEBMLDepth    = 2
	maxASFObjects   = 32
	ebmlHeader      = 0x1A45DFA3
	ebmlSegment     = 0x18538067
	ebmlInfo        = 0x1549A966
	ebmlDateUTC     = 0x4461
	ebmlCluster     = 0x1F43B675
	asfEpochOffset  = 11644473600 // seconds from 1601-01-01 to 1970-01-01
)

var (
	matroskaEpoch = time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	asfHeaderGUID = []byte{0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9, 0x00, 0xAA, 0x00, 0x62, 0xCE, 0x6C}
	asfFileProps  = []byte{0xA1, 0xDC, 0xAB, 0x8C, 0x47, 0xA9, 0xCF, 0x11, 0x8E, 0xE4, 0x00, 0xC0, 0x0C, 0x20, 0x53, 0x65}
)

// offerUTC offers a container time stored in UTC, in the --video-tz zone.
func (p *parse) offerUTC(rk rank, tag string, utc time.Time) {
	raw := []byte(nil)
	if p.r.opt.Explain {
		raw = []byte(utc.Format("2006:01:02 15:04:05Z"))
	}
	if reason := clockOf(utc).check(p.maxYear); reason != "" {
		p.reject(tag, SourceContainer, raw, reason)
		return
	}
	local := utc.In(p.r.opt.VideoTZ)
	_, off := local.Zone()
	p.offer(rk, Date{Wall: wallOf(local), Offset: off, HasOffset: true, Source: SourceContainer, Tag: tag}, raw)
}

// ebmlElement is one Matroska element: its ID (marker bits kept), where its
// data starts, and its size (-1 when unknown: it runs to its parent's end).
type ebmlElement struct {
	id   uint32
	data int64
	size int64
}

// readEBMLElement reads the element header at off.
func (p *parse) readEBMLElement(off int64) (ebmlElement, bool) {
	b := p.in.at(off, int(min(12, p.in.size-off)))
	if len(b) < 2 {
		return ebmlElement{}, false
	}
	idLen := vintLength(b[0])
	if idLen == 0 || idLen > 4 || idLen >= len(b) {
		return ebmlElement{}, false
	}
	var id uint32
	for _, c := range b[:idLen] {
		id = id<<8 | uint32(c)
	}
	sizeLen := vintLength(b[idLen])
	if sizeLen == 0 || idLen+sizeLen > len(b) {
		return ebmlElement{}, false
	}
	size := int64(b[idLen] & (0xFF >> sizeLen))
	allOnes := size == int64(0xFF>>sizeLen)
	for _, c := range b[idLen+1 : idLen+sizeLen] {
		size = size<<8 | int64(c)
		allOnes = allOnes && c == 0xFF
	}
	if allOnes {
		size = -1
	}
	return ebmlElement{id: id, data: off + int64(idLen+sizeLen), size: size}, true
}

// vintLength is the length of an EBML variable-size integer from its
// first byte (1 to 8), 0 when the byte is zero.
func vintLength(b byte) int {
	for n := 1; n <= 8; n++ {
		if b&(0x80>>(n-1)) != 0 {
			return n
		}
	}
	return 0
}

// readMatroska walks the EBML header, the Segment, and its Info element
// for DateUTC (signed nanoseconds since 2001-01-01 UTC). Children are
// skipped by their size, never read; the walk stops at the first Cluster
// (media data), where Info has always come before.
func (p *parse) readMatroska() {
	off := int64(0)
	for i := 0; i < 4 && off < p.in.size; i++ {
		e, ok := p.readEBMLElement(off)
		if !ok {
			return
		}
		if e.id == ebmlSegment {
			p.walkEBML(e.data, p.end(e), 0)
			return
		}
		if e.size < 0 {
			return
		}
		off = e.data + e.size
	}
}

// end is where an element stops, within the file.
func (p *parse) end(e ebmlElement) int64 {
	if e.size < 0 || e.size > p.in.size-e.data {
		return p.in.size
	}
	return e.data + e.size
}

func (p *parse) walkEBML(off, end int64, depth int) {
	for i := 0; i < maxEBMLElements && off < end; i++ {
		e, ok := p.readEBMLElement(off)
		if !ok {
			return
		}
		switch {
		case e.id == ebmlCluster:
			return
		case e.id == ebmlInfo && depth < maxEBMLDepth:
			p.walkEBML(e.data, p.end(e), depth+1)
		case e.id == ebmlDateUTC && e.size == 8:
			if b := p.in.at(e.data, 8); b != nil {
				ns := int64(binary.BigEndian.Uint64(b))
				if neverSet(ns / 1e9) {
					p.reject(tagMatroska, SourceContainer, []byte(matroskaEpoch.Format("2006:01:02 15:04:05Z")), badEpoch)
				} else {
					p.offerUTC(rankMvhd, tagMatroska, matroskaEpoch.Add(time.Duration(ns)))
				}
			}
		}
		if e.size < 0 {
			return
		}
		off = e.data + e.size
	}
}

// readASF walks the top-level objects of an ASF header for the File
// Properties object, whose Creation Date counts 100 ns from 1601 in UTC.
func (p *parse) readASF() {
	h := p.in.at(0, 30)
	if h == nil || !bytes.Equal(h[:16], asfHeaderGUID) {
		return
	}
	end := min(p.in.size, int64(binary.LittleEndian.Uint64(h[16:])))
	off := int64(30)
	for i := 0; i < maxASFObjects && off+24 <= end; i++ {
		o := p.in.at(off, 24)
		if o == nil {
			return
		}
		size := binary.LittleEndian.Uint64(o[16:])
		if bytes.Equal(o[:16], asfFileProps) {
			if b := p.in.at(off+48, 8); b != nil {
				p.offerASFDate(binary.LittleEndian.Uint64(b))
			}
			return
		}
		if size < 24 || size > uint64(end-off) {
			return
		}
		off += int64(size)
	}
}

func (p *parse) offerASFDate(ticks uint64) {
	secs := int64(ticks / 1e7)
	if ticks == 0 || ticks > 1<<62 {
		p.reject(tagASF, SourceContainer, []byte("0"), badZero)
		return
	}
	if neverSet(secs) {
		p.reject(tagASF, SourceContainer, []byte("1601:01:01"), badEpoch)
		return
	}
	p.offerUTC(rankMvhd, tagASF, time.Unix(secs-asfEpochOffset, int64(ticks%1e7)*100).UTC())
}
