package meta

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// buildBigTIFF writes a BigTIFF (version 43) in order with ASCII tags in
// IFD0 and the Exif IFD; the Exif IFD pointer has type IFD8, as BigTIFF
// writers use. xmp, when set, goes into IFD0 tag 700.
func buildBigTIFF(order bigOrder, ifd0, exif []exifTag, xmp string) []byte {
	out := []byte("II")
	if order == binary.BigEndian {
		out = []byte("MM")
	}
	out = order.AppendUint16(out, 43)
	out = order.AppendUint16(out, 8)
	out = order.AppendUint16(out, 0)
	out = order.AppendUint64(out, 16)
	n0 := len(ifd0) + 1
	if xmp != "" {
		n0++
	}
	exifAt := 16 + 8 + n0*20 + 8
	dataAt := exifAt + 8 + len(exif)*20 + 8
	var data []byte
	entry := func(tag, typ uint16, v []byte) {
		out = order.AppendUint16(out, tag)
		out = order.AppendUint16(out, typ)
		out = order.AppendUint64(out, uint64(len(v)))
		if len(v) <= 8 {
			var inline [8]byte
			copy(inline[:], v)
			out = append(out, inline[:]...)
			return
		}
		out = order.AppendUint64(out, uint64(dataAt+len(data)))
		data = append(data, v...)
	}
	out = order.AppendUint64(out, uint64(n0))
	for _, t := range ifd0 {
		entry(t.tag, 2, append([]byte(t.val), 0))
	}
	if xmp != "" {
		entry(tagXMPPacket, 1, []byte(xmp))
	}
	out = order.AppendUint16(out, tagExifIFD)
	out = order.AppendUint16(out, 18) // IFD8
	out = order.AppendUint64(out, 1)
	out = order.AppendUint64(out, uint64(exifAt))
	out = order.AppendUint64(out, 0)
	out = order.AppendUint64(out, uint64(len(exif)))
	for _, t := range exif {
		entry(t.tag, 2, append([]byte(t.val), 0))
	}
	out = order.AppendUint64(out, 0)
	return append(out, data...)
}

// TestBigTIFF reads the Exif IFD and XMP of BigTIFFs in both byte orders
// (the generated ones from libtiff carry only IFD0), and stays bounded on
// damaged copies and on offsets past any real file.
func TestBigTIFF(t *testing.T) {
	r := NewReader(Options{Explain: true})
	for _, order := range []bigOrder{binary.LittleEndian, binary.BigEndian} {
		data := buildBigTIFF(order, []exifTag{{tagMake, "Shoebox"}, {tagDateTime, "2020:01:02 03:04:05"}},
			[]exifTag{{tagDTOriginal, "2019:07:04 15:30:00"}, {tagOffsetOrig, "+02:00"}}, "")
		info := r.Bytes("a.btf", data, fixedMtime)
		if got := info.Date.Wall.Format(time.DateTime); info.Format != "tiff" || got != "2019-07-04 15:30:00" ||
			info.Date.Tag != tagDTO || info.Date.Offset != 7200 || info.Make != "Shoebox" {
			t.Errorf("%v: %s %s %s %d %q; %+v", order, info.Format, got, info.Date.Tag, info.Date.Offset, info.Make, info.Candidates)
		}
		for _, v := range damaged(data) {
			if d := r.Bytes("a.btf", v, fixedMtime); d.Date.IsZero() || len(d.Candidates) > maxCandidates {
				t.Fatalf("damaged: %+v", d)
			}
		}
		xmp := buildBigTIFF(order, nil, nil, `<x:xmpmeta xmp:CreateDate="2018-05-06T07:08:09"/>`)
		if info := r.Bytes("b.tif", xmp, fixedMtime); info.Date.Tag != tagXMPCreate || info.Date.Wall.Year() != 2018 {
			t.Errorf("%v: XMP tag 700: %+v", order, info.Date)
		}
	}
	far := buildBigTIFF(binary.LittleEndian, nil, nil, "")
	binary.LittleEndian.PutUint64(far[8:], 1<<62) // IFD0 far past the file
	if info := r.Bytes("c.btf", far, fixedMtime); info.Date.Source != SourceModTime {
		t.Errorf("IFD0 past the end: %+v", info.Date)
	}
	wrong := buildBigTIFF(binary.LittleEndian, []exifTag{{tagDateTime, "2020:01:02 03:04:05"}}, nil, "")
	binary.LittleEndian.PutUint16(wrong[4:], 4) // offsets of 4 bytes: not BigTIFF
	if info := r.Bytes("d.btf", wrong, fixedMtime); info.Date.Source != SourceModTime {
		t.Errorf("bad offset size accepted: %+v", info.Date)
	}
}

// TestSigmaX3FVersion4 reads a Quattro-style X3F: version 4.1 with its
// 0x300-byte header; the directory at the file's end is read as in v2.
func TestSigmaX3FVersion4(t *testing.T) {
	jpeg := buildJPEG(buildTIFF(nil, []exifTag{{tagDTOriginal, "2016:05:04 03:02:01"}}), 0)
	v2 := buildX3F("1088955000", jpeg)
	v4 := append([]byte("FOVb\x01\x00\x04\x00"), make([]byte, 0x300-8)...)
	body := v2[64 : len(v2)-4] // sections and directory of the v2 file, moved past the bigger header
	shift := uint32(len(v4) - 64)
	v4 = append(v4, body...)
	dirAt := binary.LittleEndian.Uint32(v2[len(v2)-4:]) + shift
	dir := int(dirAt) + 12
	for i := 0; i < 2; i++ { // two sections: PROP, IMA2
		off := binary.LittleEndian.Uint32(v4[dir+i*12:])
		binary.LittleEndian.PutUint32(v4[dir+i*12:], off+shift)
	}
	v4 = binary.LittleEndian.AppendUint32(v4, dirAt)
	r := NewReader(Options{Explain: true})
	info := r.Bytes("SDIM0001.X3F", v4, fixedMtime)
	if got := info.Date.Wall.Format(time.DateTime); info.Format != "x3f" || got != "2016-05-04 03:02:01" || info.Date.Tag != tagDTO {
		t.Errorf("x3f v4: %s %s %s; %+v", info.Format, got, info.Date.Tag, info.Candidates)
	}
}

// TestCanonCRM names a Canon raw movie by its extension (its brand is
// CR3's) as a video, dated from the same CMT boxes.
func TestCanonCRM(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "CanonRaw.cr3"))
	if err != nil {
		t.Fatal(err)
	}
	r := NewReader(Options{})
	cr3, crm := r.Bytes("a.cr3", data, fixedMtime), r.Bytes("A001C001.CRM", data, fixedMtime)
	if crm.Format != "crm" || crm.Kind != KindVideo || !crm.Date.Source.FromFile() || crm.Date.Wall != cr3.Date.Wall {
		t.Errorf("crm: %s %s %+v (cr3 %+v)", crm.Format, crm.Kind, crm.Date, cr3.Date)
	}
}

// TestExtendedXMPBounds: chunks of another GUID are ignored, a chunk whose
// offset is past the stated length is dropped, and a stated length over
// maxXMPBytes allocates no more than that.
func TestExtendedXMPBounds(t *testing.T) {
	ext := []byte(`<x:xmpmeta><exif:DateTimeOriginal>2011:12:13 14:15:16</exif:DateTimeOriginal></x:xmpmeta>`)
	guid := bytes.Repeat([]byte("A"), 32)
	other := bytes.Repeat([]byte("B"), 32)
	chunk := func(g []byte, full, off uint32, part []byte) []byte {
		body := append(append([]byte(nil), xmpExtHeader...), g...)
		body = binary.BigEndian.AppendUint32(body, full)
		body = binary.BigEndian.AppendUint32(body, off)
		body = append(body, part...)
		return append(binary.BigEndian.AppendUint16([]byte{0xFF, 0xE1}, uint16(len(body)+2)), body...)
	}
	jpeg := func(segs ...[]byte) []byte {
		out := []byte{0xFF, 0xD8}
		for _, s := range segs {
			out = append(out, s...)
		}
		return append(out, 0xFF, 0xD9)
	}
	r := NewReader(Options{Explain: true})
	n := uint32(len(ext))
	good := jpeg(chunk(guid, n, 40, ext[40:]), chunk(guid, n, 0, ext[:40]))
	if info := r.Bytes("a.jpg", good, fixedMtime); info.Date.Tag != tagXMPDTO || info.Date.Wall.Year() != 2011 {
		t.Errorf("two chunks: %+v", info.Date)
	}
	mixed := jpeg(chunk(guid, n, 40, ext[40:]), chunk(other, n, 0, ext[:40]))
	if info := r.Bytes("b.jpg", mixed, fixedMtime); info.Date.Source != SourceModTime {
		t.Errorf("a chunk of another GUID was joined: %+v", info.Date)
	}
	past := jpeg(chunk(guid, 10, 0, ext[:10]), chunk(guid, 10, 40, ext[40:]))
	if info := r.Bytes("c.jpg", past, fixedMtime); info.Date.Source != SourceModTime {
		t.Errorf("a chunk past the stated length was used: %+v", info.Date)
	}
	huge := jpeg(chunk(guid, 1<<31, 0, ext))
	allocs := testing.AllocsPerRun(5, func() { r.Bytes("d.jpg", huge, fixedMtime) })
	if info := r.Bytes("d.jpg", huge, fixedMtime); info.Date.Tag != tagXMPDTO || allocs > 10 {
		t.Errorf("huge stated length: %+v, %v allocs", info.Date, allocs)
	}
}

// TestPSDResourcesNotFollowedFromTIFF: a TIFF's Photoshop resources
// (tag 0x8649) are read for IPTC only; their EXIF block is not walked, so
// a block pointing back at the TIFF cannot recurse.
func TestPSDResourcesNotFollowedFromTIFF(t *testing.T) {
	tiff := buildTIFF([]exifTag{{tagMake, "x"}}, nil)
	irb := append([]byte("8BIM\x04\x22\x00\x00"), binary.BigEndian.AppendUint32(nil, uint32(len(tiff)))...)
	irb = append(irb, tiff...)
	r := NewReader(Options{Explain: true})
	p := r.newParse("a.tif", &input{head: irb, size: int64(len(irb))}, fixedMtime)
	p.readIRB(0, int64(len(irb)), false)
	if p.info.Make != "" {
		t.Errorf("the EXIF block of a non-PSD resource list was read")
	}
	p.readIRB(0, int64(len(irb)), true)
	if p.info.Make != "x" {
		t.Errorf("the EXIF block of a PSD was not read")
	}
}

// TestFLVMetadata covers AMF layouts ffmpeg does not write: an object
// instead of an ECMA array, and an unknown value kind before the key.
func TestFLVMetadata(t *testing.T) {
	str := func(s string) []byte {
		return append(binary.BigEndian.AppendUint16([]byte{0x02}, uint16(len(s))), s...)
	}
	key := func(s string) []byte { return append(binary.BigEndian.AppendUint16(nil, uint16(len(s))), s...) }
	flv := func(meta []byte) []byte {
		out := []byte("FLV\x01\x01\x00\x00\x00\x09\x00\x00\x00\x00")
		out = append(out, flvScriptTag, byte(len(meta)>>16), byte(len(meta)>>8), byte(len(meta)), 0, 0, 0, 0, 0, 0, 0)
		return append(out, meta...)
	}
	onMeta := str("onMetaData")
	obj := append(append(append(append([]byte(nil), onMeta...), 0x03), key("width")...), 0x00, 0, 0, 0, 0, 0, 0, 0, 0)
	obj = append(append(append(obj, key("creationdate")...), str("Tue Mar 03 10:00:00 2015")...), 0, 0, 9)
	r := NewReader(Options{Explain: true})
	if info := r.Bytes("a.flv", flv(obj), fixedMtime); info.Date.Tag != tagFlashCreate || info.Date.Wall.Year() != 2015 {
		t.Errorf("object: %+v", info.Date)
	}
	strange := append(append(append([]byte(nil), onMeta...), 0x03), key("x")...)
	strange = append(append(append(strange, 0x0A, 0, 0, 0, 0), key("creationdate")...), str("Tue Mar 03 10:00:00 2015")...)
	if info := r.Bytes("b.flv", flv(strange), fixedMtime); info.Date.Source != SourceModTime {
		t.Errorf("read past an unknown AMF kind: %+v", info.Date)
	}
}

// bigOrder is a byte order that can append (both of encoding/binary's can).
type bigOrder interface {
	binary.ByteOrder
	binary.AppendByteOrder
}

// TestEveryRawFormatIsRaw: each TIFF-based RAW name the sniffer can return
// is one IsRaw (the pipeline's RAW+JPEG pairing) knows.
func TestEveryRawFormatIsRaw(t *testing.T) {
	for ext := range rawByExt {
		if ext != "tiff" && !IsRaw(ext) {
			t.Errorf("%s is sniffed as a RAW name but IsRaw says no", ext)
		}
		if kindOf[ext] != KindPhoto {
			t.Errorf("%s is not a photo", ext)
		}
	}
	if IsRaw("jpeg") || IsRaw("tiff") {
		t.Error("jpeg or tiff taken for RAW")
	}
}

// TestGIFXMPAtTheEnd: a GIF larger than the first read whose XMP
// extension follows the image data is dated from one read of its tail;
// the same GIF within the first read is walked block by block.
func TestGIFXMPAtTheEnd(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(genDir, "gif-xmp.gif"))
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, gifXMPExt)
	end := i + bytes.Index(data[i:], []byte("<?xpacket end")) // the packet, then the magic trailer
	end += bytes.Index(data[end:], []byte{0x01, 0xFF, 0xFE}) + 258
	ext := bytes.Clone(data[i:end])
	rest := append(bytes.Clone(data[:i]), data[end:len(data)-1]...) // without the XMP, without the trailer byte
	// A comment extension of ~100 KiB pushes the XMP past the first read.
	var pad []byte
	for len(pad) < 100<<10 {
		pad = append(pad, 255)
		pad = append(pad, bytes.Repeat([]byte{'x'}, 255)...)
	}
	big := append(append(append(append(rest, 0x21, 0xFE), pad...), 0), ext...)
	big = append(big, 0x3B)
	path := writeTemp(t, "big.gif", big)
	r := NewReader(Options{Explain: true})
	info := r.File(path, int64(len(big)), fixedMtime)
	if info.Format != "gif" || info.Date.Tag != tagXMPCreate || info.Date.Wall.Year() != 2007 {
		t.Errorf("XMP at the end: %s %+v %+v", info.Format, info.Date, info.Candidates)
	}
	if n := r.state.in.read; n > int64(headSize+gifTailBytes) {
		t.Errorf("read %d bytes", n)
	}
}

// buildPMP returns a Sony DSC-F1 PMP: the 124-byte header with the six
// date bytes at 76, then a JPEG.
func buildPMP(date [6]byte) []byte {
	b := make([]byte, pmpJPEGAt)
	copy(b, "\x10\x12\x00\x09\x10\x00\x05\x00\x00\x00\x00\x7c")
	copy(b[pmpDateAt:], date[:])
	return append(b, buildJPEG(nil, 0)...)
}

// buildKyoceraRaw returns a Contax N Digital RAW header: strings stored
// reversed, "KYOCERA" at 25 and the date at 33.
func buildKyoceraRaw(date string) []byte {
	b := make([]byte, 166)
	rev := func(s string) []byte {
		r := []byte(s)
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return r
	}
	copy(b[kyoceraAt:], rev("KYOCERA"))
	copy(b[kyoceraDate:kyoceraDate+20], rev(date))
	return b
}

func TestFixedHeaderCameraDates(t *testing.T) {
	r := NewReader(Options{Explain: true})
	for _, c := range []struct {
		name, format, tag string
		data              []byte
		want              string // "" = file time
	}{
		{"a.pmp", "pmp", tagPMP, buildPMP([6]byte{98, 9, 1, 20, 19, 57}), "1998-09-01 20:19:57"},
		{"b.PMP", "pmp", tagPMP, buildPMP([6]byte{3, 2, 28, 23, 0, 1}), "2003-02-28 23:00:01"},
		{"c.pmp", "pmp", tagPMP, buildPMP([6]byte{98, 2, 30, 20, 19, 57}), ""}, // Feb 30
		{"d.raw", "raw", tagKyocera, buildKyoceraRaw("2005:07:16 18:14:30 "), "2005-07-16 18:14:30"},
		{"e.raw", "raw", tagKyocera, buildKyoceraRaw("2001:12:31 23:59:59"), "2001-12-31 23:59:59"},
		{"f.raw", "raw", tagKyocera, buildKyoceraRaw("0000:00:00 00:00:00"), ""},
		{"g.raw", "raw", tagKyocera, buildKyoceraRaw("2005:07:16 18:14:30")[:40], ""}, // cut in the date
	} {
		info := r.Bytes(c.name, c.data, fixedMtime)
		if info.Format != c.format || info.Kind != KindPhoto {
			t.Errorf("%s: %s %s", c.name, info.Format, info.Kind)
		}
		if c.want == "" {
			if info.Date.Source != SourceModTime {
				t.Errorf("%s: dated %v by %s, want the file time", c.name, info.Date.Wall, info.Date.Tag)
			}
			continue
		}
		if got := info.Date.Wall.Format(time.DateTime); got != c.want || info.Date.Tag != c.tag {
			t.Errorf("%s: %s by %s, want %s by %s", c.name, got, info.Date.Tag, c.want, c.tag)
		}
	}
	// Other files named .raw or .pmp are not photos.
	for _, name := range []string{"audio.raw", "x.pmp"} {
		if info := r.Bytes(name, bytes.Repeat([]byte{7}, 300), fixedMtime); info.Kind != KindOther || info.Warning != "" {
			t.Errorf("%s: %s %s %q", name, info.Format, info.Kind, info.Warning)
		}
	}
}
