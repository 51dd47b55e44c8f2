package meta

import (
	"encoding/binary"
	"time"
)

const (
	maxRIFFChunks = 256
	maxRIFFDepth  = 3
)

// readRIFF reads WebP and AVI files; form is the RIFF form type.
func (p *parse) readRIFF(form string) string {
	end := min(p.in.size, 8+int64(binary.LittleEndian.Uint32(p.in.at(4, 4))))
	switch form {
	case "WEBP":
		p.walkRIFF(12, end, 0)
		return "webp"
	case "AVI ":
		p.walkRIFF(12, end, 0)
		return "avi"
	}
	return ""
}

func (p *parse) walkRIFF(off, end int64, depth int) {
	if depth > maxRIFFDepth {
		return
	}
	for i := 0; i < maxRIFFChunks && off+8 <= end; i++ {
		h := p.in.at(off, 12)
		if h == nil {
			h = p.in.at(off, 8)
			if h == nil {
				return
			}
		}
		id, size := string(h[:4]), int64(binary.LittleEndian.Uint32(h[4:]))
		data := off + 8
		if size > end-data {
			size = end - data
		}
		p.useChunk(id, h, data, size, depth)
		off = data + size + size&1
	}
}

func (p *parse) useChunk(id string, h []byte, data, size int64, depth int) {
	switch id {
	case "LIST":
		if len(h) >= 12 && string(h[8:12]) != "movi" {
			p.walkRIFF(data+4, data+size, depth+1)
		}
	case "EXIF": // WebP; some writers keep the JPEG "Exif\0\0" prefix
		at := data
		if b := p.in.at(at, 6); hasPrefix(b, exifHeader) {
			at += 6
		}
		p.readTIFF(at, false)
	case "XMP ":
		if b := p.in.at(data, int(min(size, maxXMPBytes))); b != nil {
			p.readXMP(b)
		}
	case "IDIT": // AVI: "Thu Jan 20 08:16:08 2022\n" or "2009/10/27 12:14:34"
		p.readIDIT(p.in.at(data, int(min(size, 64))))
	case "nctg": // Nikon AVI tags
		p.readNikonTags(p.in.at(data, int(min(size, 4096))))
	}
}

func (p *parse) readIDIT(b []byte) {
	if b == nil {
		return
	}
	p.offerCTime(rankOriginal, SourceEXIF, tagRIFF, b)
}

// offerCTime offers a date written as C's ctime ("Thu Jan 20 08:16:08
// 2022") or, failing that, as EXIF text.
func (p *parse) offerCTime(rk rank, src Source, tag string, b []byte) {
	t := trimText(b)
	if w, err := time.Parse("Mon Jan _2 15:04:05 2006", string(t)); err == nil {
		if reason := clockOf(w).check(p.maxYear); reason != "" {
			p.reject(tag, src, t, reason)
			return
		}
		p.offer(rk, Date{Wall: w, Source: src, Tag: tag}, t)
		return
	}
	p.offerText(rk, src, tag, t, nil, nil)
}

// readNikonTags reads Nikon's AVI tag list: 16-bit id, 16-bit size, value.
func (p *parse) readNikonTags(b []byte) {
	for len(b) >= 4 {
		id, n := binary.LittleEndian.Uint16(b), int(binary.LittleEndian.Uint16(b[2:]))
		if n > len(b)-4 {
			return
		}
		v := b[4 : 4+n]
		switch id {
		case 0x03:
			p.setMake(v)
		case 0x04:
			p.setModel(v)
		case 0x13:
			p.offerText(rankOriginal, SourceEXIF, tagNikonAVI, v, nil, nil)
		}
		b = b[4+n:]
	}
}
