package meta

import (
	"bytes"
	"encoding/binary"
	"time"
)

const maxPNGChunks = 256

var xmpKeyword = []byte("XML:com.adobe.xmp\x00")

// readPNG walks PNG chunks for eXIf, XMP (iTXt) and the tEXt "Creation Time".
// Image data chunks are skipped by their length, never read.
func (p *parse) readPNG() {
	off := int64(len(pngMagic))
	for i := 0; i < maxPNGChunks; i++ {
		h := p.in.at(off, 8)
		if h == nil {
			return
		}
		size, typ := int64(binary.BigEndian.Uint32(h)), string(h[4:8])
		data := off + 8
		switch typ {
		case "eXIf":
			p.readTIFF(data, false)
		case "iTXt", "tEXt":
			p.readPNGText(typ, p.in.at(data, int(min(size, maxXMPBytes))))
		case "IEND":
			return
		}
		off = data + size + 4
	}
}

func (p *parse) readPNGText(typ string, b []byte) {
	switch {
	case b == nil:
	case typ == "iTXt" && bytes.HasPrefix(b, xmpKeyword):
		rest := b[len(xmpKeyword):]
		if len(rest) >= 2 && rest[0] == 0 { // uncompressed only
			p.readXMP(rest)
		}
	case typ == "tEXt" && bytes.HasPrefix(b, []byte("Creation Time\x00")):
		p.readPNGCreation(b[len("Creation Time\x00"):])
	}
}

// readPNGCreation reads the free-form "Creation Time": RFC 1123 by the spec,
// EXIF style in practice.
func (p *parse) readPNGCreation(v []byte) {
	for _, layout := range []string{time.RFC1123, time.RFC1123Z, "2 Jan 2006 15:04:05 -0700"} {
		if t, err := time.Parse(layout, string(trimText(v))); err == nil {
			_, off := t.Zone()
			p.offer(rankXMPDateCreated, Date{Wall: wallOf(t), Offset: off, HasOffset: true, Source: SourceXMP, Tag: tagPNGCreation}, v)
			return
		}
	}
	p.offerText(rankXMPDateCreated, SourceXMP, tagPNGCreation, v, nil, nil)
}
