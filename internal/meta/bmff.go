package meta

import (
	"encoding/binary"
	"strings"
	"time"
)

// ISO base media (HEIC/AVIF/CR3/MOV/MP4/3GP) reading. Only box headers are
// read while walking, so mdat and sample tables are skipped, never loaded.

const (
	maxBoxes       = 512 // per container
	maxBoxDepth    = 6
	maxKeys        = 64
	maxILocItems   = 4096
	moovWindowSize = 256 << 10 // a moov this small is fetched in one read
)

func fourcc(s string) uint32 { return binary.BigEndian.Uint32([]byte(s)) }

var (
	boxMoov = fourcc("moov")
	boxMeta = fourcc("meta")
	boxMvhd = fourcc("mvhd")
	boxUdta = fourcc("udta")
	boxKeys = fourcc("keys")
	boxIlst = fourcc("ilst")
	boxData = fourcc("data")
	boxUUID = fourcc("uuid")
	boxIinf = fourcc("iinf")
	boxInfe = fourcc("infe")
	boxIloc = fourcc("iloc")
	boxHdlr = fourcc("hdlr")
	boxCMT1 = fourcc("CMT1")
	boxCMT2 = fourcc("CMT2")
	boxExif = fourcc("Exif")
	boxMime = fourcc("mime")
	boxXMP  = fourcc("XMP_")
	boxMak  = fourcc("\xa9mak")
	boxMod  = fourcc("\xa9mod")
	boxInf  = fourcc("\xa9inf")
	boxTAGS = fourcc("TAGS")
)

// canonUUID holds the CMT1..CMT4 TIFF blocks of a CR3.
const canonUUID = "\x85\xc0\xb6\x87\x82\x0f\x11\xe0\x81\x11\xf4\xce\x46\x2b\x6a\x48"

// makerAtoms are udta children only one maker's cameras write.
var makerAtoms = map[uint32]string{
	fourcc("CNCV"): "Canon", fourcc("CNTH"): "Canon", fourcc("CNMN"): "Canon",
	fourcc("NCDT"): "Nikon", fourcc("NCTG"): "Nikon",
	fourcc("PANA"): "Panasonic", fourcc("PENT"): "Pentax",
	fourcc("QVMI"): "Casio", fourcc("MVTG"): "Fujifilm", fourcc("OLYM"): "Olympus",
	fourcc("FIRM"): "GoPro", fourcc("GPMF"): "GoPro", fourcc("KMD "): "Kodak",
}

type box struct {
	typ      uint32
	at, data int64 // box start, payload start
	end      int64 // box end
}

// nextBox reads the box header at off inside a container ending at end.
func (p *parse) nextBox(off, end int64) (box, bool) { return boxAt(p.in, off, end) }

// boxAt reads the box header at off inside a container ending at end.
func boxAt(in *input, off, end int64) (box, bool) {
	h := in.at(off, 8)
	if h == nil || off+8 > end {
		return box{}, false
	}
	b := box{typ: binary.BigEndian.Uint32(h[4:]), at: off, data: off + 8}
	size := int64(binary.BigEndian.Uint32(h))
	switch size {
	case 0: // extends to the end of the container
		size = end - off
	case 1:
		ext := in.at(off+8, 8)
		if ext == nil {
			return box{}, false
		}
		size = int64(binary.BigEndian.Uint64(ext))
		b.data += 8
	}
	if size < b.data-off || size > end-off {
		return box{}, false
	}
	b.end = off + size
	return b, true
}

// bmffState collects what the boxes say until all are read.
type bmffState struct {
	depth     int
	keyRole   [maxKeys]uint8
	nKeys     int
	exifItem  uint32
	xmpItem   uint32
	haveExif  bool
	haveXMP   bool
	makerHint string
	mvhd      uint64 // seconds since 1904, 0 = none
}

const (
	roleNone uint8 = iota
	roleCreation
	roleMake
	roleModel
	roleContentID
)

// readBMFF walks the top-level boxes of an ISO base media file.
func (p *parse) readBMFF() {
	var st bmffState
	p.walkBoxes(&st, 0, p.in.size, false)
	p.offerMvhd(&st)
}

func (p *parse) walkBoxes(st *bmffState, off, end int64, inMoov bool) {
	if st.depth >= maxBoxDepth {
		return
	}
	st.depth++
	defer func() { st.depth-- }()
	for i := 0; i < maxBoxes && off < end; i++ {
		b, ok := p.nextBox(off, end)
		if !ok {
			if i == 0 || off+8 <= end {
				p.warn("isobmff: bad box header")
			}
			return
		}
		p.useBox(st, b, inMoov)
		off = b.end
	}
}

func (p *parse) useBox(st *bmffState, b box, inMoov bool) {
	switch {
	case b.typ == boxMoov:
		p.windowMoov(b)
		p.walkBoxes(st, b.data, b.end, true)
	case b.typ == boxMeta && !inMoov:
		p.readHEIFMeta(st, b)
	case b.typ == boxMeta:
		p.walkBoxes(st, p.metaPayload(b), b.end, true)
	case b.typ == boxUdta:
		p.walkBoxes(st, b.data, b.end, true)
	case b.typ == boxMvhd:
		p.readMvhd(st, b)
	case b.typ == boxKeys:
		p.readKeys(st, b)
	case b.typ == boxIlst:
		p.readIlst(st, b)
	case b.typ == boxUUID:
		if u := p.in.at(b.data, 16); u != nil && string(u) == canonUUID {
			p.walkBoxes(st, b.data+16, b.end, true)
		}
	case b.typ == boxCMT1:
		p.readTIFF(b.data, false)
	case b.typ == boxCMT2:
		p.readTIFF(b.data, true)
	case b.typ == boxXMP && inMoov:
		if x := p.in.at(b.data, int(min(b.end-b.data, maxXMPBytes))); x != nil {
			p.readXMP(x)
		}
	case b.typ == boxMak && inMoov:
		p.setMake(p.qtString(b))
	case b.typ == boxMod && inMoov:
		p.setModel(p.qtString(b))
	case b.typ == boxInf && inMoov:
		st.makerHint = hintFromText(p.qtString(b), st.makerHint)
	case b.typ == boxTAGS && inMoov: // Pentax: the make, NUL-padded, opens the box
		p.setMake(p.in.at(b.data, int(min(b.end-b.data, 24))))
	default:
		if m, ok := makerAtoms[b.typ]; ok && inMoov && st.makerHint == "" {
			st.makerHint = m
		}
	}
}

// windowMoov fetches a small moov that lies beyond the first read in one go,
// instead of one small read per box header.
func (p *parse) windowMoov(b box) {
	size := b.end - b.at
	if b.end <= int64(len(p.in.head)) || size > moovWindowSize {
		return
	}
	p.in.window(b.at, int(size))
}

// metaPayload finds where a meta box's children start: ISO meta is a full
// box (4 bytes of version and flags), QuickTime's is not.
func (p *parse) metaPayload(b box) int64 { return metaPayloadIn(p.in, b) }

func metaPayloadIn(in *input, b box) int64 {
	if h := in.at(b.data+4, 4); h != nil && binary.BigEndian.Uint32(h) == boxHdlr {
		return b.data
	}
	return b.data + 4
}

// qtString reads a QuickTime user-data string: 16-bit length, 16-bit
// language, text. Some writers store plain text instead.
func (p *parse) qtString(b box) []byte {
	n := b.end - b.data
	if n > maxStringLength {
		n = maxStringLength
	}
	v := p.in.at(b.data, int(n))
	if len(v) >= 4 {
		if l := int(binary.BigEndian.Uint16(v)); l > 0 && l <= len(v)-4 {
			return v[4 : 4+l]
		}
	}
	return v
}

func hintFromText(b []byte, prev string) string {
	if prev != "" || len(b) == 0 {
		return prev
	}
	return string(trimText(b))
}

func (p *parse) readMvhd(st *bmffState, b box) {
	h := p.in.at(b.data, 12)
	if h == nil {
		return
	}
	if h[0] == 1 {
		if v := p.in.at(b.data+4, 8); v != nil {
			st.mvhd = binary.BigEndian.Uint64(v)
		}
		return
	}
	st.mvhd = uint64(binary.BigEndian.Uint32(h[4:]))
}

// Keys and ilst: Apple's metadata, where keys names the entries that ilst
// holds by 1-based index.
func (p *parse) readKeys(st *bmffState, b box) {
	h := p.in.at(b.data, 8)
	if h == nil {
		return
	}
	n := int(binary.BigEndian.Uint32(h[4:]))
	off := b.data + 8
	for i := 0; i < n && i < maxKeys && off+8 <= b.end; i++ {
		e := p.in.at(off, 8)
		size := int64(binary.BigEndian.Uint32(e))
		if size < 8 || off+size > b.end {
			return
		}
		name := p.in.at(off+8, int(min(size-8, 64)))
		st.keyRole[i] = keyRole(name)
		st.nKeys = i + 1
		off += size
	}
}

func keyRole(name []byte) uint8 {
	switch string(name) {
	case "com.apple.quicktime.creationdate":
		return roleCreation
	case "com.apple.quicktime.make":
		return roleMake
	case "com.apple.quicktime.model":
		return roleModel
	case "com.apple.quicktime.content.identifier":
		return roleContentID
	}
	return roleNone
}

func (p *parse) readIlst(st *bmffState, b box) {
	off := b.data
	for i := 0; i < maxBoxes && off < b.end; i++ {
		item, ok := p.nextBox(off, b.end)
		if !ok {
			return
		}
		off = item.end
		role := roleNone
		if idx := int(item.typ); idx >= 1 && idx <= st.nKeys {
			role = st.keyRole[idx-1]
		} else if item.typ == boxMak {
			role = roleMake
		} else if item.typ == boxMod {
			role = roleModel
		}
		if role != roleNone {
			p.useIlstValue(role, p.ilstData(item))
		}
	}
}

// ilstData returns the value of the first data box of an ilst item.
func (p *parse) ilstData(item box) []byte {
	d, ok := p.nextBox(item.data, item.end)
	if !ok || d.typ != boxData || d.end-d.data < 8 {
		return nil
	}
	return p.in.at(d.data+8, int(min(d.end-d.data-8, maxStringLength)))
}

func (p *parse) useIlstValue(role uint8, v []byte) {
	switch role {
	case roleCreation:
		p.offerText(rankKeys, SourceQuickTime, tagKeys, v, nil, nil)
	case roleMake:
		p.setMake(v)
	case roleModel:
		p.setModel(v)
	case roleContentID:
		if p.info.ContentID == "" {
			p.info.ContentID = cleanString(v)
		}
	}
}

// Seconds from the QuickTime epoch (1904-01-01) to the Unix epoch.
const qtEpochOffset = 2082844800

// cameraMakers write local time into mvhd, against the standard's UTC.
var cameraMakers = []string{
	"canon", "nikon", "panasonic", "sony", "fujifilm", "olympus", "om digital",
	"casio", "kodak", "pentax", "ricoh", "gopro", "samsung techwin", "leica",
	"sigma", "minolta", "konica", "sanyo", "jvc", "dji",
}

// isCameraMaker reports whether make names a dedicated camera maker.
func isCameraMaker(make string) bool {
	m := strings.ToLower(make)
	for _, c := range cameraMakers {
		if strings.Contains(m, c) {
			return true
		}
	}
	return false
}

// offerMvhd turns the mvhd creation time into a wall clock; see the package
// doc for the rule on which makers write local time.
func (p *parse) offerMvhd(st *bmffState) {
	if st.mvhd == 0 || st.mvhd > 1<<40 {
		return
	}
	secs := int64(st.mvhd) - qtEpochOffset
	utc := time.Unix(secs, 0).UTC()
	raw := []byte(nil)
	if p.r.opt.Explain {
		raw = []byte(utc.Format("2006:01:02 15:04:05"))
	}
	reason := clockOf(utc).check(p.maxYear)
	if utc.Year() == 1904 { // counted from mvhd's own zero: a clock never set (no MP4 was shot in 1904)
		reason = badEpoch
	}
	if reason != "" {
		p.reject(tagMvhd, SourceQuickTime, raw, reason)
		return
	}
	maker := p.info.Make
	if maker == "" {
		maker = st.makerHint
	}
	if isCameraMaker(maker) {
		p.offer(rankMvhd, Date{Wall: utc, Source: SourceQuickTime, Tag: tagMvhd}, raw)
		return
	}
	local := utc.In(p.r.opt.VideoTZ)
	_, off := local.Zone()
	p.offer(rankMvhd, Date{Wall: wallOf(local), Offset: off, HasOffset: true, Source: SourceQuickTime, Tag: tagMvhd}, raw)
}

// HEIF meta: iinf names the Exif and XMP items, iloc says where they are.
func (p *parse) readHEIFMeta(st *bmffState, meta box) {
	var loc box
	off := meta.data + 4
	for i := 0; i < maxBoxes && off < meta.end; i++ {
		b, ok := p.nextBox(off, meta.end)
		if !ok {
			break
		}
		switch b.typ {
		case boxIinf:
			p.readIinf(st, b)
		case boxIloc:
			loc = b
		}
		off = b.end
	}
	if loc.typ == boxIloc && (st.haveExif || st.haveXMP) {
		p.readIloc(st, loc)
	}
}

func (p *parse) readIinf(st *bmffState, b box) {
	iinfEach(p.in, b, func(e box) { p.readInfe(st, e) })
}

// iinfEach calls fn with each infe box of the iinf box b.
func iinfEach(in *input, b box, fn func(e box)) {
	h := in.at(b.data, 8)
	if h == nil {
		return
	}
	off := b.data + 6
	if h[0] != 0 {
		off = b.data + 8
	}
	for i := 0; i < maxILocItems && off < b.end; i++ {
		e, ok := boxAt(in, off, b.end)
		if !ok {
			return
		}
		off = e.end
		if e.typ == boxInfe {
			fn(e)
		}
	}
}

// infeItem reads an item's id and type from its infe box (version 2 or 3).
func infeItem(in *input, e box) (id, typ uint32, ok bool) {
	h := in.at(e.data, 16)
	if h == nil || h[0] < 2 {
		return 0, 0, false
	}
	id, rest := uint32(binary.BigEndian.Uint16(h[4:])), h[8:12]
	if h[0] >= 3 {
		id, rest = binary.BigEndian.Uint32(h[4:]), h[10:14]
	}
	return id, binary.BigEndian.Uint32(rest), true
}

func (p *parse) readInfe(st *bmffState, e box) {
	id, typ, ok := infeItem(p.in, e)
	if !ok {
		return
	}
	switch typ {
	case boxExif:
		if !st.haveExif {
			st.exifItem, st.haveExif = id, true
		}
	case boxMime:
		tail := p.in.at(e.data, int(min(e.end-e.data, 128)))
		if tail != nil && strings.Contains(string(tail), "rdf+xml") && !st.haveXMP {
			st.xmpItem, st.haveXMP = id, true
		}
	}
}

// ilocReader reads iloc's variable-width fields.
type ilocReader struct {
	b   []byte
	pos int
	bad bool
}

func (r *ilocReader) uint(width int) uint64 {
	if width == 0 {
		return 0
	}
	if r.pos+width > len(r.b) || (width != 2 && width != 4 && width != 8) {
		r.bad = true
		return 0
	}
	v := uint64(0)
	for _, c := range r.b[r.pos : r.pos+width] {
		v = v<<8 | uint64(c)
	}
	r.pos += width
	return v
}

func (p *parse) readIloc(st *bmffState, b box) {
	ilocEach(p.in, b, func(id uint32, at, n int64, extents uint64) {
		switch {
		case st.haveExif && id == st.exifItem:
			p.readExifItem(at)
		case st.haveXMP && id == st.xmpItem:
			p.readXMPItem(at, uint64(n))
		}
	})
}

// ilocEach calls fn with each item of the iloc box b that is stored in the
// file itself (construction method 0): its id, where its first extent
// starts and how long it is, and how many extents it has.
func ilocEach(in *input, b box, fn func(id uint32, at, n int64, extents uint64)) {
	body := in.at(b.data, int(min(b.end-b.data, maxBlockBytes)))
	if len(body) < 8 {
		return
	}
	r := ilocReader{b: body, pos: 4}
	version := body[0]
	sizes := r.uint(2)
	offSize, lenSize := int(sizes>>12&0xF), int(sizes>>8&0xF)
	baseSize, idxSize := int(sizes>>4&0xF), int(sizes&0xF)
	if version == 0 {
		idxSize = 0
	}
	idWidth := 2
	if version >= 2 {
		idWidth = 4
	}
	count := r.uint(idWidth)
	for i := uint64(0); i < count && i < maxILocItems && !r.bad; i++ {
		id := uint32(r.uint(idWidth))
		method := uint64(0)
		if version >= 1 {
			method = r.uint(2) & 0xF
		}
		r.uint(2) // data reference index
		base := r.uint(baseSize)
		extents := r.uint(2)
		var first, firstLen uint64
		for x := uint64(0); x < extents && !r.bad; x++ {
			r.uint(idxSize)
			o, l := r.uint(offSize), r.uint(lenSize)
			if x == 0 {
				first, firstLen = o, l
			}
		}
		if r.bad || method != 0 || extents == 0 || base+first > 1<<62 || firstLen > 1<<62 {
			continue
		}
		fn(id, int64(base+first), int64(firstLen), extents)
	}
}

// readExifItem reads a HEIF Exif item: a 32-bit offset to the TIFF header
// (past "Exif\0\0"), then the TIFF structure.
func (p *parse) readExifItem(at int64) {
	skip, ok := p.in.u32be(at)
	if !ok || skip > 64 {
		p.warn("heif: unreadable Exif item")
		return
	}
	if !p.readTIFF(at+4+int64(skip), false) {
		p.warn("heif: unreadable Exif item")
	}
}

func (p *parse) readXMPItem(at int64, n uint64) {
	if n == 0 || n > maxXMPBytes {
		n = maxXMPBytes
	}
	if x := p.in.at(at, int(min(int64(n), p.in.size-at))); x != nil {
		p.readXMP(x)
	}
}
