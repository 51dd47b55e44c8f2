package meta

import (
	"encoding/binary"
	"time"
)

// FLIR thermal cameras and phone modules (FLIR One, Cat S60) write their
// own record in a JPEG's APP1 segments headed "FLIR\0", 1, the segment's
// index and the last index: put end to end, the segments' payloads are
// an FFF file. Its header gives the record directory (32-byte entries:
// type, subtype, version, id, offset, length); the CameraInfo record
// (type 0x20) holds at 0x384 the capture time: Unix seconds of UTC,
// milliseconds, and the zone as minutes west of UTC. ExifTool reads it
// as FLIR:DateTimeOriginal; some FLIR files carry no other date.

const (
	maxFLIRSegments   = 64
	maxFLIRRecords    = 64
	flirHeaderSize    = 8 // "FLIR\0", 1, index, last index
	flirCameraInfo    = 0x20
	flirDateAt        = 0x384
	tagFLIR           = "FLIR:DateTimeOriginal"
	fffDirEntrySize   = 32
	fffVersionLow     = 100 // a big-endian FFF reads its version (at 0x14) in 100..199
	fffVersionHigh    = 200
	fffHeaderMinBytes = 0x20
)

var flirHeader = []byte("FLIR\x00\x01")

// flirSegments are where the FFF file's pieces lie in the JPEG, by index.
type flirSegments struct {
	at, n [maxFLIRSegments]int64
	count int
}

func (s *flirSegments) add(p *parse, at, n int64) {
	h := p.in.at(at, flirHeaderSize)
	if h == nil || n <= flirHeaderSize {
		return
	}
	i := int(h[6])
	if i >= maxFLIRSegments || s.n[i] != 0 {
		return
	}
	s.at[i], s.n[i] = at+flirHeaderSize, n-flirHeaderSize
	s.count = max(s.count, i+1)
}

// bytes reads n bytes at offset off of the FFF file, across segments;
// nil when any piece is missing.
func (s *flirSegments) bytes(p *parse, off int64, n int) []byte {
	var out []byte
	for i := 0; i < s.count && n > 0; i++ {
		if s.n[i] == 0 {
			return nil
		}
		if off >= s.n[i] {
			off -= s.n[i]
			continue
		}
		k := min(int64(n), s.n[i]-off)
		b := p.in.at(s.at[i]+off, int(k))
		if b == nil {
			return nil
		}
		if out == nil && int(k) == n {
			return b
		}
		out = append(out, b...)
		n -= int(k)
		off = 0
	}
	if n > 0 {
		return nil
	}
	return out
}

// read offers the CameraInfo date, when nothing better dated the file.
func (s *flirSegments) read(p *parse) {
	if s.count == 0 || p.datedAbove(rankMaker) {
		return
	}
	h := s.bytes(p, 0, fffHeaderMinBytes)
	if h == nil || string(h[:4]) != "FFF\x00" {
		return
	}
	var order binary.ByteOrder = binary.LittleEndian
	if v := binary.BigEndian.Uint32(h[0x14:]); v >= fffVersionLow && v < fffVersionHigh {
		order = binary.BigEndian
	}
	dirAt, n := int64(order.Uint32(h[0x18:])), min(order.Uint32(h[0x1c:]), maxFLIRRecords)
	for i := range int64(n) {
		e := s.bytes(p, dirAt+i*fffDirEntrySize, fffDirEntrySize)
		if e == nil {
			return
		}
		if order.Uint16(e) == flirCameraInfo {
			s.readCameraInfo(p, int64(order.Uint32(e[12:])), int64(order.Uint32(e[16:])))
			return
		}
	}
}

// readCameraInfo reads the date of the CameraInfo record at off; the
// record's own byte order is the one in which its first field reads 2.
func (s *flirSegments) readCameraInfo(p *parse, off, size int64) {
	if size < flirDateAt+10 {
		return
	}
	bo := s.bytes(p, off, 2)
	b := s.bytes(p, off+flirDateAt, 10)
	if bo == nil || b == nil {
		return
	}
	var order binary.ByteOrder = binary.LittleEndian
	if binary.LittleEndian.Uint16(bo) != 2 {
		order = binary.BigEndian
	}
	secs, ms, west := int64(order.Uint32(b)), int64(order.Uint32(b[4:])&0xffff), int64(int16(order.Uint16(b[8:])))
	raw := []byte(nil)
	if west < -14*60 || west > 14*60 {
		west = 0 // no sane zone: the UTC clock stands, without offset
	}
	wall := time.Unix(secs-west*60, min(ms, 999)*int64(time.Millisecond)).UTC()
	if p.r.opt.Explain {
		raw = []byte(wall.Format("2006:01:02 15:04:05.000"))
	}
	if neverSet(secs) {
		p.reject(tagFLIR, SourceEXIF, raw, badEpoch)
		return
	}
	if reason := clockOf(wall).check(p.maxYear); reason != "" {
		p.reject(tagFLIR, SourceEXIF, raw, reason)
		return
	}
	p.offer(rankMaker, Date{Wall: wall, Offset: int(-west * 60), HasOffset: true, Source: SourceEXIF, Tag: tagFLIR}, raw)
}
