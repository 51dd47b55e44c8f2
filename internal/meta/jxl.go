package meta

// readJXL reads a JPEG XL file in its ISO BMFF container: an "Exif" box
// (a 32-bit offset to the TIFF header, then the TIFF structure, as in
// HEIF) and an "xml " box (XMP). A bare codestream (FF 0A) carries no
// metadata, nor can the Brotli-compressed "brob" boxes be read without a
// Brotli decoder, which the standard library lacks: both fall back to the
// file name or mtime.
func (p *parse) readJXL() {
	for off, i := int64(0), 0; i < maxBoxes && off < p.in.size; i++ {
		b, ok := p.nextBox(off, p.in.size)
		if !ok {
			if i == 0 {
				p.warn("jxl: bad box header")
			}
			return
		}
		switch b.typ {
		case boxExif:
			p.readExifItem(b.data)
		case boxXMLJXL:
			if x := p.in.at(b.data, int(min(b.end-b.data, maxXMPBytes))); x != nil {
				p.readXMP(x)
			}
		case boxJXLCodestream, boxJXLPartial:
			// Metadata boxes come before the image in files that have
			// them; the codestream is never read.
			if p.dated() {
				return
			}
		}
		off = b.end
	}
}

var (
	boxXMLJXL        = fourcc("xml ")
	boxJXLCodestream = fourcc("jxlc")
	boxJXLPartial    = fourcc("jxlp")
)
