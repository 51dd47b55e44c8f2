package meta

import "encoding/binary"

// readPSD reads a Photoshop PSD or PSB: after the 26-byte header come the
// color mode data and the image resources, each behind a 32-bit length
// (PSB widens only later sections). The resources carry IPTC (0x0404),
// EXIF (0x0422) and XMP (0x0424).
func (p *parse) readPSD() {
	h := p.in.at(0, 30)
	if h == nil {
		p.warn("psd: truncated header")
		return
	}
	if v := binary.BigEndian.Uint16(h[4:]); v != 1 && v != 2 {
		p.warn("psd: unknown version")
		return
	}
	resAt := 30 + int64(binary.BigEndian.Uint32(h[26:]))
	n, ok := p.in.u32be(resAt)
	if !ok {
		p.warn("psd: no image resources")
		return
	}
	start := resAt + 4
	p.readIRB(start, min(start+int64(n), p.in.size), true)
}
