package meta

import "encoding/binary"

// Flash video (FLV) keeps its metadata in a script tag, "onMetaData": an
// AMF0 array of named values. Flash-era writers put the capture time in
// "creationdate", as C's ctime text ("Mon Jan 19 12:34:56 2009", the
// camera's clock, no zone); ffmpeg copies that key through. It is ranked
// like EXIF CreateDate, which ExifTool names it (Flash:CreateDate).

const (
	flvScriptTag   = 18
	maxAMFValues   = 64
	tagFlashCreate = "Flash:CreateDate"
)

func (p *parse) readFLV() {
	h := p.in.at(0, 9)
	if h == nil {
		return
	}
	at := int64(binary.BigEndian.Uint32(h[5:])) + 4 // header, then PreviousTagSize0
	tag := p.in.at(at, 11)
	if tag == nil || tag[0]&0x1F != flvScriptTag {
		return
	}
	size := int(tag[1])<<16 | int(tag[2])<<8 | int(tag[3])
	data := p.in.at(at+11, min(size, maxStringLength*64, int(p.in.size-at-11)))
	if v := amfString(data, "creationdate"); v != nil {
		p.offerCTime(rankDigitized, SourceContainer, tagFlashCreate, v)
	}
}

// amfString returns the string value named key in an AMF0 "onMetaData"
// ECMA array or object, nil when absent or when a value of a kind this
// reader does not skip comes first.
func amfString(b []byte, key string) []byte {
	const name = "\x02\x00\x0aonMetaData"
	if len(b) < len(name)+5 || string(b[:len(name)]) != name {
		return nil
	}
	b = b[len(name):]
	switch b[0] {
	case 0x08: // ECMA array: a 32-bit count, then the pairs
		b = b[5:]
	case 0x03: // object: the pairs
		b = b[1:]
	default:
		return nil
	}
	for i := 0; i < maxAMFValues && len(b) >= 3; i++ {
		n := int(binary.BigEndian.Uint16(b))
		if n == 0 || 2+n >= len(b) { // the end marker (empty name, 0x09), or cut
			return nil
		}
		k, v := string(b[2:2+n]), b[2+n:]
		val, rest, ok := amfValue(v)
		if !ok {
			return nil
		}
		if k == key && val != nil {
			return val
		}
		b = rest
	}
	return nil
}

// amfValue reads one AMF0 value: a string's bytes (nil for other kinds)
// and what follows; ok=false for kinds that are not skipped.
func amfValue(v []byte) (val, rest []byte, ok bool) {
	if len(v) == 0 {
		return nil, nil, false
	}
	switch v[0] {
	case 0x00: // number: a float64
		if len(v) < 9 {
			return nil, nil, false
		}
		return nil, v[9:], true
	case 0x01: // boolean
		if len(v) < 2 {
			return nil, nil, false
		}
		return nil, v[2:], true
	case 0x02: // string: 16-bit length
		if len(v) < 3 {
			return nil, nil, false
		}
		n := int(binary.BigEndian.Uint16(v[1:]))
		if 3+n > len(v) {
			return nil, nil, false
		}
		return v[3 : 3+n], v[3+n:], true
	case 0x0B: // date: float64 ms and a 16-bit zone
		if len(v) < 11 {
			return nil, nil, false
		}
		return nil, v[11:], true
	}
	return nil, nil, false
}
