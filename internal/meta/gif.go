package meta

import "bytes"

// GIF carries no date field of its own; ExifTool and Adobe write XMP into
// an application extension ("XMP DataXMP") whose packet is stored raw,
// followed by a 258-byte "magic trailer" that lets GIF decoders skip it as
// sub-blocks. Blocks are walked only within the first read (skipping LZW
// sub-blocks beyond it would cost a read per 255 bytes): ExifTool writes
// XMP before the image data. A writer that appends it after the image
// puts it at the file's end, so a larger GIF whose first read had none
// gets one more read of its last gifTailBytes.

const (
	maxGIFBlocks = 256
	gifTailBytes = 64 << 10
)

var (
	gifXMPApp = []byte("XMP DataXMP")
	gifXMPExt = []byte("\x21\xff\x0bXMP DataXMP")
)

func (p *parse) readGIF() {
	if !p.readGIFHead() && p.in.size > int64(len(p.in.head)) {
		n := min(p.in.size, gifTailBytes)
		tail := p.in.at(p.in.size-n, int(n))
		if i := bytes.LastIndex(tail, gifXMPExt); i >= 0 {
			p.readXMP(tail[i+len(gifXMPExt):])
		}
	}
}

// readGIFHead walks the blocks in the first read; it reports whether it
// found the XMP extension.
func (p *parse) readGIFHead() bool {
	b := p.in.head
	if len(b) < 13 {
		return false
	}
	off := 13
	if b[10]&0x80 != 0 { // global color table
		off += 3 << (b[10]&7 + 1)
	}
	for i := 0; i < maxGIFBlocks && off < len(b); i++ {
		switch b[off] {
		case 0x21: // extension: label, then sub-blocks
			if off+2 > len(b) {
				return false
			}
			if b[off+1] == 0xFF && off+3+len(gifXMPApp) <= len(b) && b[off+2] == 11 &&
				bytes.Equal(b[off+3:off+3+len(gifXMPApp)], gifXMPApp) {
				at := off + 3 + len(gifXMPApp)
				p.readXMP(b[at:min(len(b), at+maxXMPBytes)])
				return true
			}
			off = skipSubBlocks(b, off+2)
		case 0x2C: // image descriptor, local color table, LZW code size, data
			if off+10 > len(b) {
				return false
			}
			flags := b[off+9]
			off += 10
			if flags&0x80 != 0 {
				off += 3 << (flags&7 + 1)
			}
			off = skipSubBlocks(b, off+1)
		default: // 0x3B trailer, or damage
			return false
		}
	}
	return false
}

// skipSubBlocks returns the offset after the sub-blocks starting at off
// (each a length byte and that many bytes, ended by a zero length), or
// len(b) when they run past it.
func skipSubBlocks(b []byte, off int) int {
	for off < len(b) {
		n := int(b[off])
		if n == 0 {
			return off + 1
		}
		off += 1 + n
	}
	return len(b)
}
