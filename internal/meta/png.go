package meta

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"io"
	"strings"
	"time"
)

const (
	maxPNGChunks = 256
	// maxInflated bounds what one compressed text chunk may inflate to:
	// a zlib bomb stops there.
	maxInflated = maxXMPBytes
)

var (
	xmpKeyword      = []byte("XML:com.adobe.xmp")
	creationKeyword = []byte("Creation Time")
	// ImageMagick's stamps: date:create and date:modify are the change
	// and modification times of the file it converted, create-date and
	// modify-date the creation and modification dates it carried.
	dateKeyword       = []byte("date:create")
	dateModifyKeyword = []byte("date:modify")
	createDateKeyword = []byte("create-date")
	modifyDateKeyword = []byte("modify-date")
	rawProfileExif    = []byte("Raw profile type exif")
	rawProfileAPP1    = []byte("Raw profile type APP1")
	rawProfileXMP     = []byte("Raw profile type xmp")
	// ImageMagick copies EXIF fields into tEXt as "exif:<name>".
	magickDTO     = []byte("exif:DateTimeOriginal")
	magickCreated = []byte("exif:DateTimeDigitized")
)

// readPNG walks PNG chunks for eXIf, the text chunks (tEXt, zTXt, iTXt)
// that carry dates, XMP or ImageMagick's hex-encoded EXIF, and tIME.
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
		case "iTXt", "tEXt", "zTXt":
			p.readPNGText(typ, p.in.at(data, int(min(size, maxXMPBytes))))
		case "tIME":
			p.readPNGTime(p.in.at(data, 7))
		case "IEND":
			return
		}
		off = data + size + 4
	}
}

// readPNGText splits a text chunk into keyword and text, inflating
// compressed text, and reads the keywords that carry a date.
func (p *parse) readPNGText(typ string, b []byte) {
	if hasPrefix(b, rawProfileXMP) && len(b) > len(rawProfileXMP) && b[len(rawProfileXMP)] == 0 && p.datedAbove(rankXMPDateCreated) {
		return // EXIF dated it: XMP cannot win, so its inflating is spared
	}
	kw, text, ok := pngTextOf(typ, b, &p.r.zlib)
	if !ok {
		return
	}
	switch {
	case bytes.Equal(kw, xmpKeyword):
		p.readXMP(text)
	case bytes.Equal(kw, creationKeyword):
		p.readPNGCreation(rankPNGCreation, tagPNGCreation, text)
	case bytes.Equal(kw, createDateKeyword):
		p.readPNGCreation(rankPNGCreation, tagPNGCreateDate, text)
	case bytes.Equal(kw, modifyDateKeyword):
		p.readPNGCreation(rankModify, tagPNGModDate, text)
	case bytes.Equal(kw, dateModifyKeyword):
		p.readPNGCreation(rankConvModify, tagPNGDateModify, text)
	case bytes.Equal(kw, dateKeyword):
		p.readPNGCreation(rankConvCreate, tagPNGDate, text)
	case bytes.Equal(kw, rawProfileExif) || bytes.Equal(kw, rawProfileAPP1):
		p.readRawProfile(text)
	case bytes.Equal(kw, rawProfileXMP):
		if data := decodeRawProfile(text); data != nil {
			p.readXMP(data)
		}
	case bytes.Equal(kw, magickDTO):
		p.offerText(rankOriginal, SourcePNG, tagPNGExifDTO, text, nil, nil)
	case bytes.Equal(kw, magickCreated):
		p.offerText(rankDigitized, SourcePNG, tagPNGExifCreate, text, nil, nil)
	}
}

// pngTextOf returns a text chunk's keyword and (inflated) text. Only the
// keywords read above are inflated.
func pngTextOf(typ string, b []byte, z *inflater) (kw, text []byte, ok bool) {
	i := bytes.IndexByte(b, 0)
	if i <= 0 {
		return nil, nil, false
	}
	kw, rest := b[:i], b[i+1:]
	if !wantedKeyword(kw) {
		return nil, nil, false
	}
	switch typ {
	case "tEXt":
		return kw, rest, true
	case "zTXt": // compression method, zlib stream
		if len(rest) < 1 || rest[0] != 0 {
			return nil, nil, false
		}
		text, ok = z.inflate(rest[1:])
		return kw, text, ok
	}
	// iTXt: compression flag and method, language tag, translated keyword, text
	if len(rest) < 2 {
		return nil, nil, false
	}
	flag, method, rest := rest[0], rest[1], rest[2:]
	for n := 0; n < 2; n++ {
		j := bytes.IndexByte(rest, 0)
		if j < 0 {
			return nil, nil, false
		}
		rest = rest[j+1:]
	}
	if flag == 0 {
		return kw, rest, true
	}
	if method != 0 {
		return nil, nil, false
	}
	text, ok = z.inflate(rest)
	return kw, text, ok
}

func wantedKeyword(kw []byte) bool {
	for _, w := range [...][]byte{xmpKeyword, creationKeyword, dateKeyword, dateModifyKeyword, createDateKeyword, modifyDateKeyword,
		rawProfileExif, rawProfileAPP1, rawProfileXMP, magickDTO, magickCreated} {
		if bytes.Equal(kw, w) {
			return true
		}
	}
	return false
}

// inflater decompresses zlib streams for one Reader, reusing its
// decompressor (some 40 KB of tables and window) and output buffer from
// file to file: ImageMagick keeps XMP and EXIF in compressed text.
// What it returns is valid until its next call.
type inflater struct {
	src bytes.Reader
	zr  io.ReadCloser
	out bytes.Buffer
}

// maxKeptInflated bounds the output buffer a Reader keeps between files.
const maxKeptInflated = 256 << 10

// inflate decompresses a zlib stream, keeping at most maxInflated bytes;
// a damaged stream yields what came out before the damage.
func (z *inflater) inflate(b []byte) ([]byte, bool) {
	z.src.Reset(b)
	if z.zr == nil {
		zr, err := zlib.NewReader(&z.src)
		if err != nil {
			return nil, false
		}
		z.zr = zr
	} else if err := z.zr.(zlib.Resetter).Reset(&z.src, nil); err != nil {
		return nil, false
	}
	if z.out.Cap() > maxKeptInflated {
		z.out = bytes.Buffer{}
	}
	z.out.Reset()
	_, _ = io.Copy(&z.out, io.LimitReader(z.zr, maxInflated))
	return z.out.Bytes(), z.out.Len() > 0
}

// readPNGCreation reads a free-form date: RFC 1123 by the PNG spec for
// "Creation Time", ISO 8601 (RFC 3339) from ImageMagick and most other
// writers, EXIF style in practice.
func (p *parse) readPNGCreation(rk rank, tag string, v []byte) {
	v = trimText(v)
	if len(v) > 0 && !isDigit(v[0]) {
		for _, layout := range rfc1123Layouts {
			if t, err := time.Parse(layout, string(v)); err == nil {
				p.offerRFC1123(rk, tag, t, v, layout)
				return
			}
		}
	}
	p.offerText(rk, SourcePNG, tag, v, nil, nil)
}

// rfc1123Layouts are the forms of RFC 1123 (and RFC 822) dates seen in
// PNG text, with and without the weekday, the seconds, a numeric zone.
var rfc1123Layouts = [...]string{
	time.RFC1123, time.RFC1123Z, "Mon, _2 Jan 2006 15:04:05 MST", "Mon, _2 Jan 2006 15:04:05 -0700",
	"_2 Jan 2006 15:04:05 -0700", "_2 Jan 2006 15:04:05 MST", "Mon, _2 Jan 2006 15:04 MST", "Mon, _2 Jan 2006 15:04 -0700",
	"Mon, _2 Jan 2006 15:04:05", "_2 Jan 2006 15:04:05",
}

// offerRFC1123 offers a date parsed with layout; a zone named by letters
// other than GMT, UT, UTC or Z (EST, CEST: ambiguous) gives no offset.
func (p *parse) offerRFC1123(rk rank, tag string, t time.Time, raw []byte, layout string) {
	d := Date{Wall: wallOf(t), Source: SourcePNG, Tag: tag}
	if reason := clockOf(d.Wall).check(p.maxYear); reason != "" {
		p.reject(tag, SourcePNG, raw, reason)
		return
	}
	name, off := t.Zone()
	switch {
	case strings.HasSuffix(layout, "0700"):
		d.Offset, d.HasOffset = off, true
	case strings.HasSuffix(layout, "MST"):
		d.HasOffset = name == "GMT" || name == "UT" || name == "UTC" || name == "Z"
	}
	p.offer(rk, d, raw)
}

// readPNGTime reads tIME, the image's last modification in UTC: ranked
// like EXIF ModifyDate, below every capture field.
func (p *parse) readPNGTime(b []byte) {
	if b == nil {
		return
	}
	y := int(binary.BigEndian.Uint16(b))
	c := clock{y: y, mo: int(b[2]), d: int(b[3]), h: int(b[4]), mi: int(b[5]), s: int(b[6]), hasOff: true}
	raw := []byte(nil)
	if p.r.opt.Explain {
		raw = fmtClock(c)
	}
	if reason := c.check(p.maxYear); reason != "" {
		p.reject(tagPNGTime, SourcePNG, raw, reason)
		return
	}
	p.offer(rankModify, Date{Wall: c.wall(), HasOffset: true, Source: SourcePNG, Tag: tagPNGTime}, raw)
}

// fmtClock writes c as "YYYY:MM:DD HH:MM:SS" for explain.
func fmtClock(c clock) []byte {
	return []byte(time.Date(c.y, time.Month(c.mo), c.d, c.h, c.mi, c.s, 0, time.UTC).Format("2006:01:02 15:04:05"))
}

// readRawProfile reads ImageMagick's hex-encoded profile text
// ("\nexif\n    1234\n4578696600…"): the bytes are "Exif\0\0" and a TIFF
// block (an APP1 profile starts the same way), read from memory.
func (p *parse) readRawProfile(text []byte) {
	data := decodeRawProfile(text)
	if data == nil {
		return
	}
	tiffAt := int64(0)
	if hasPrefix(data, exifHeader) {
		tiffAt = int64(len(exifHeader))
	}
	saved := p.in
	p.in = &input{head: data, size: int64(len(data))}
	p.readTIFF(tiffAt, false)
	p.in = saved
}

// decodeRawProfile turns the profile text into bytes: a name line, a
// decimal length, then hex digits broken into lines. At most maxBlockBytes.
func decodeRawProfile(text []byte) []byte {
	fields := bytes.Fields(text[:min(len(text), 256)])
	if len(fields) < 3 {
		return nil
	}
	n := 0
	for _, c := range fields[1] {
		if !isDigit(c) || n > maxBlockBytes {
			return nil
		}
		n = n*10 + int(c-'0')
	}
	start := bytes.Index(text, fields[1]) + len(fields[1])
	out := make([]byte, 0, min(n, maxBlockBytes, len(text)/2)) // never more than the text can hold
	var hi byte
	half := false
	for _, c := range text[start:] {
		if len(out) == cap(out) {
			break
		}
		v, ok := hexValue(c)
		if !ok {
			continue
		}
		if half {
			out = append(out, hi<<4|v)
		} else {
			hi = v
		}
		half = !half
	}
	return out
}

func hexValue(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
