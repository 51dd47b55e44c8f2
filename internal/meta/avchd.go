package meta

import (
	"bytes"
	"encoding/binary"
	"time"
)

// Camcorder streams that carry their recording time inside the stream,
// not in a header: AVCHD (MPEG-TS/M2TS/MTS, H.264 SEI user data "MDPM")
// and DV (VAUX packs 0x62/0x63). Both are read from the first read of the
// file only: the first frame carries the date, and no further bytes are
// fetched for it.

const (
	maxTSPackets = 512
	maxMDPMTags  = 64
	maxVideoPES  = 16 << 10 // bytes of the video stream gathered to find the SEI
	dvBlock      = 80
)

// mdpmUUID is the user_data_unregistered UUID of Sony/Panasonic's MDPM.
var mdpmUUID = []byte{0x17, 0xee, 0x8c, 0x60, 0xf8, 0x4d, 0x11, 0xd9, 0x8c, 0xd6, 0x08, 0x00, 0x20, 0x0c, 0x9a, 0x66}

// readMTS gathers the payload of the first video stream's packets in the
// file's first read (188-byte TS packets, or 192 with M2TS's time code)
// and reads the MDPM date of its first SEI.
func (p *parse) readMTS(stride, sync int) {
	head := p.in.head
	var video []byte
	pid := -1
	for i := 0; i < maxTSPackets && (i+1)*stride <= len(head) && len(video) < maxVideoPES; i++ {
		pkt := head[i*stride+sync : (i+1)*stride]
		if pkt[0] != 0x47 {
			return
		}
		payload, start, id := tsPayload(pkt)
		switch {
		case payload == nil:
		case pid < 0 && start && len(payload) >= 4 && string(payload[:3]) == "\x00\x00\x01" && payload[3]&0xF0 == 0xE0:
			pid = id
			video = append(video, payload...)
		case id == pid:
			video = append(video, payload...)
		}
	}
	if i := bytes.Index(video, mdpmUUID); i >= 0 {
		p.readMDPM(video[i+len(mdpmUUID):])
	}
}

// tsPayload returns a TS packet's payload, whether it starts a PES, and its PID.
func tsPayload(pkt []byte) ([]byte, bool, int) {
	start := pkt[1]&0x40 != 0
	id := int(binary.BigEndian.Uint16(pkt[1:]) & 0x1FFF)
	at := 4
	switch pkt[3] & 0x30 >> 4 {
	case 1:
	case 3:
		at += 1 + int(pkt[4])
	default:
		return nil, false, id
	}
	if at >= len(pkt) {
		return nil, false, id
	}
	return pkt[at:], start, id
}

// readMDPM reads "MDPM", a tag count, then 5-byte entries: tag 0x18 is
// the time zone and BCD year and month, tag 0x19 BCD day, hour, minute,
// second. H.264's emulation-prevention bytes (00 00 03) are dropped first.
func (p *parse) readMDPM(b []byte) {
	b = unescapeNAL(b[:min(len(b), 5+maxMDPMTags*5+64)])
	if len(b) < 5 || string(b[:4]) != "MDPM" {
		return
	}
	var ym, dhms []byte
	n := int(b[4])
	for i, at := 0, 5; i < min(n, maxMDPMTags) && at+5 <= len(b); i, at = i+1, at+5 {
		switch b[at] {
		case 0x18:
			ym = b[at+1 : at+5]
		case 0x19:
			dhms = b[at+1 : at+5]
		}
	}
	if ym == nil || dhms == nil {
		return
	}
	var text [25]byte
	t := appendBCD(text[:0], ym[1], ym[2])
	t = appendBCD(append(t, ':'), ym[3])
	t = appendBCD(append(t, ':'), dhms[0])
	t = appendBCD(append(t, ' '), dhms[1])
	t = appendBCD(append(t, ':'), dhms[2])
	t = appendBCD(append(t, ':'), dhms[3])
	if tz := ym[0]; tz != 0xFF { // bit 5 sign, bits 1-4 hours, bit 0 half an hour
		sign := byte('+')
		if tz&0x20 != 0 {
			sign = '-'
		}
		mins := byte('0')
		if tz&0x01 != 0 {
			mins = '3'
		}
		h := tz >> 1 & 0x0F
		t = append(t, sign, '0'+h/10, '0'+h%10, ':', mins, '0')
	}
	p.offerText(rankOriginal, SourceContainer, tagH264, t, nil, nil)
}

// appendBCD appends the two decimal digits of each BCD byte; a byte that
// is not BCD appends "xx", which the date parser rejects.
func appendBCD(b []byte, vs ...byte) []byte {
	for _, v := range vs {
		if v>>4 > 9 || v&0x0F > 9 {
			b = append(b, 'x', 'x')
			continue
		}
		b = append(b, '0'+v>>4, '0'+v&0x0F)
	}
	return b
}

// unescapeNAL drops the 03 of every 00 00 03 in b.
func unescapeNAL(b []byte) []byte {
	if !bytes.Contains(b, []byte{0, 0, 3}) {
		return b
	}
	out := make([]byte, 0, len(b))
	zeros := 0
	for _, c := range b {
		if zeros >= 2 && c == 3 {
			zeros = 0
			continue
		}
		if c == 0 {
			zeros++
		} else {
			zeros = 0
		}
		out = append(out, c)
	}
	return out
}

// readDV scans the DIF blocks of the file's first read for the VAUX
// recording date (pack 0x62: time zone, day, month, two-digit year) and
// time (pack 0x63: frames, second, minute, hour), all BCD.
func (p *parse) readDV() {
	head := p.in.head
	var date, clock []byte
	for at := 0; at+dvBlock <= len(head) && (date == nil || clock == nil); at += dvBlock {
		blk := head[at : at+dvBlock]
		if blk[0]>>5 != 2 { // VAUX section
			continue
		}
		for k := 3; k+5 <= 3+15*5; k += 5 {
			switch {
			case blk[k] == 0x62 && date == nil && blk[k+2] != 0xFF:
				date = blk[k+1 : k+5]
			case blk[k] == 0x63 && clock == nil && blk[k+4] != 0xFF:
				clock = blk[k+1 : k+5]
			}
		}
	}
	if date == nil || clock == nil {
		return
	}
	century := byte(0x20)
	if date[3] >= 0x25 {
		century = 0x19
	}
	var text [19]byte
	t := appendBCD(text[:0], century, date[3])
	t = appendBCD(append(t, ':'), date[2]&0x1F)
	t = appendBCD(append(t, ':'), date[1]&0x3F)
	t = appendBCD(append(t, ' '), clock[3]&0x3F)
	t = appendBCD(append(t, ':'), clock[2]&0x7F)
	t = appendBCD(append(t, ':'), clock[1]&0x7F)
	p.offerText(rankOriginal, SourceContainer, tagDV, t, nil, nil)
}

// readX3F reads a Sigma X3F (version 2): its directory, found through
// the file's last four bytes, lists sections; a JPEG preview (IMA2 of
// format 18) carries EXIF, and the PROP section's TIME is the capture
// time as Unix seconds of the camera's clock.
func (p *parse) readX3F() {
	last := p.in.at(p.in.size-4, 4)
	if last == nil {
		return
	}
	dirAt := binary.LittleEndian.Uint32(last)
	dir := p.in.at(int64(dirAt), 12)
	if dir == nil || string(dir[:4]) != "SECd" {
		p.warn("x3f: no section directory")
		return
	}
	n := min(int(binary.LittleEndian.Uint32(dir[8:])), maxX3FSections)
	tab := p.in.at(int64(dirAt)+12, n*12)
	for i := 0; i+12 <= len(tab); i += 12 {
		off, size := int64(binary.LittleEndian.Uint32(tab[i:])), int64(binary.LittleEndian.Uint32(tab[i+4:]))
		switch string(tab[i+8 : i+12]) {
		case "IMA2", "IMAG":
			if h := p.in.at(off, 28); h != nil && string(h[:4]) == "SECi" && binary.LittleEndian.Uint32(h[12:]) == 18 {
				p.readJPEG(off + 28)
			}
		case "PROP":
			p.readX3FProps(p.in.at(off, int(min(size, maxX3FProps))))
		}
	}
}

const (
	maxX3FSections = 32
	maxX3FProps    = 64 << 10
)

// readX3FProps reads the PROP section: a header, a table of (name, value)
// offsets in UTF-16 characters, then the characters.
func (p *parse) readX3FProps(b []byte) {
	if len(b) < 24 || string(b[:4]) != "SECp" || binary.LittleEndian.Uint32(b[12:]) != 0 {
		return
	}
	n := int(binary.LittleEndian.Uint32(b[8:]))
	chars := 24 + int64(n)*8
	if n > len(b)/8 || chars > int64(len(b)) {
		return
	}
	for i := 0; i < n; i++ {
		name := utf16At(b, chars, binary.LittleEndian.Uint32(b[24+i*8:]))
		value := utf16At(b, chars, binary.LittleEndian.Uint32(b[28+i*8:]))
		switch name {
		case "TIME":
			p.offerUnixClock(value)
		case "CAMMANUF":
			p.setMake([]byte(value))
		case "CAMMODEL":
			p.setModel([]byte(value))
		}
	}
}

// utf16At reads the NUL-terminated UTF-16LE string (ASCII only, at most
// 64 characters) starting at character index i of the table at base.
func utf16At(b []byte, base int64, i uint32) string {
	at := base + int64(i)*2
	var s []byte
	for ; at+2 <= int64(len(b)) && len(s) < 64; at += 2 {
		c := binary.LittleEndian.Uint16(b[at:])
		if c == 0 {
			break
		}
		if c > 0x7E || c < 0x20 {
			return ""
		}
		s = append(s, byte(c))
	}
	return string(s)
}

// offerUnixClock offers decimal Unix seconds that count the camera's
// local clock (its wall time read as if UTC).
func (p *parse) offerUnixClock(v string) {
	secs := int64(0)
	for i := 0; i < len(v); i++ {
		if !isDigit(v[i]) || i > 12 {
			p.reject(tagX3F, SourceEXIF, []byte(v), badSyntax)
			return
		}
		secs = secs*10 + int64(v[i]-'0')
	}
	raw := []byte(time.Unix(secs, 0).UTC().Format("2006:01:02 15:04:05"))
	p.offerText(rankMaker, SourceEXIF, tagX3F, raw, nil, nil)
}
