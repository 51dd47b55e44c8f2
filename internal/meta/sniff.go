package meta

import (
	"bytes"
	"encoding/binary"
	"unicode"
	"unicode/utf8"
)

// kindOf maps a format to its kind.
var kindOf = map[string]Kind{
	"jpeg": KindPhoto, "heic": KindPhoto, "heif": KindPhoto, "avif": KindPhoto, "png": KindPhoto,
	"webp": KindPhoto, "tiff": KindPhoto, "gif": KindPhoto, "bmp": KindPhoto, "jxl": KindPhoto,
	"cr2": KindPhoto, "cr3": KindPhoto, "crw": KindPhoto, "nef": KindPhoto, "nrw": KindPhoto,
	"arw": KindPhoto, "srf": KindPhoto, "sr2": KindPhoto, "dng": KindPhoto, "raf": KindPhoto,
	"orf": KindPhoto, "rw2": KindPhoto, "pef": KindPhoto, "srw": KindPhoto, "kdc": KindPhoto,
	"dcr": KindPhoto, "k25": KindPhoto, "3fr": KindPhoto, "erf": KindPhoto, "mef": KindPhoto,
	"mos": KindPhoto, "iiq": KindPhoto, "gpr": KindPhoto, "x3f": KindPhoto, "mrw": KindPhoto,
	"fff": KindPhoto, "psd": KindPhoto, "pmp": KindPhoto, "raw": KindPhoto, "crm": KindVideo,
	"mov": KindVideo, "mp4": KindVideo, "m4v": KindVideo, "3gp": KindVideo, "avi": KindVideo,
	"mts": KindVideo, "mpg": KindVideo, "mkv": KindVideo, "wmv": KindVideo, "flv": KindVideo,
	"dv": KindVideo, "webm": KindVideo,
	"xmp": KindSidecar, "aae": KindSidecar, "thm": KindSidecar, "json": KindSidecar,
}

// formatOfExt is the fallback when the content is not recognised.
var formatOfExt = map[string]string{
	"jpg": "jpeg", "jpeg": "jpeg", "jpe": "jpeg", "tif": "tiff", "tiff": "tiff", "heic": "heic",
	"heif": "heif", "hif": "heic", "m2ts": "mts", "mts": "mts", "mpeg": "mpg", "mpg": "mpg",
	"qt": "mov", "3g2": "3gp", "btf": "tiff", "tf8": "tiff", "psb": "psd",
}

// rawByExt names TIFF-based raw formats whose content says only "TIFF".
var rawByExt = map[string]bool{
	"nef": true, "nrw": true, "arw": true, "srf": true, "sr2": true, "pef": true, "srw": true,
	"kdc": true, "dcr": true, "k25": true, "3fr": true, "erf": true, "mef": true, "mos": true,
	"iiq": true, "gpr": true, "dng": true, "cr2": true, "fff": true,
}

// rawFormats are the camera RAW formats: a RAW and a JPEG of one stem are
// one shot (the pipeline pairs them).
var rawFormats = map[string]bool{
	"cr2": true, "cr3": true, "crw": true, "nef": true, "nrw": true, "arw": true, "srf": true, "sr2": true,
	"dng": true, "raf": true, "orf": true, "rw2": true, "pef": true, "srw": true, "mrw": true, "kdc": true,
	"dcr": true, "k25": true, "3fr": true, "fff": true, "erf": true, "mef": true, "mos": true, "iiq": true,
	"gpr": true, "x3f": true, "raw": true,
}

// contentOnly are formats known by their content alone: ".raw" and ".pmp"
// name other things too, so an unrecognised file with that extension stays
// "other" instead of being taken for a damaged photo.
var contentOnly = map[string]bool{"raw": true, "pmp": true}

// IsRaw reports whether format (an Info.Format) is a camera RAW format.
func IsRaw(format string) bool { return rawFormats[format] }

var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// run identifies the format from the first bytes and reads its metadata.
func (p *parse) run() {
	h := p.in.at(0, int(min(p.in.size, 64)))
	p.info.Format = p.sniff(h)
	if p.info.Format == "" {
		p.info.Format = p.fallbackFormat()
	}
	p.info.Kind = kindOf[p.info.Format]
}

// classifyByName decides the kind of a file whose content could not be
// read from its extension alone: an unreadable IMG_0001.JPG is still a photo
// the user expects sorted, so it must reach the transfer and be reported
// failed there, not be waved through as "not media".
func (p *parse) classifyByName() {
	p.info.Format = p.fallbackFormat()
	p.info.Kind = kindOf[p.info.Format]
}

// sniff returns the format named by h's magic bytes after reading the file,
// or "" when the content is unknown.
func (p *parse) sniff(h []byte) string {
	switch {
	case len(h) < 4:
		return ""
	case h[0] == 0xFF && h[1] == 0xD8 && h[2] == 0xFF:
		p.readJPEG(0)
		if !p.dated() {
			p.readAFCP()
		}
		if p.ext == "thm" {
			return "thm"
		}
		return "jpeg"
	case string(h[:4]) == "II*\x00" || string(h[:4]) == "MM\x00*" ||
		string(h[:4]) == "II+\x00" || string(h[:4]) == "MM\x00+": // TIFF, BigTIFF
		p.readTIFF(0, false)
		return p.tiffFlavour(h)
	case string(h[:4]) == "IIRO" || string(h[:4]) == "MMOR" || string(h[:4]) == "IIRS":
		p.readTIFF(0, false)
		return "orf"
	case string(h[:4]) == "IIU\x00":
		p.readTIFF(0, false)
		return "rw2"
	case len(h) >= 16 && string(h[:16]) == "FUJIFILMCCD-RAW ":
		p.readRAF()
		return "raf"
	case len(h) >= 14 && (string(h[:2]) == "II" || string(h[:2]) == "MM") && string(h[6:14]) == "HEAPCCDR":
		p.readCIFF(0, p.in.size, rankOriginal, tagCIFF)
		return "crw"
	case string(h[:4]) == "\x00MRM":
		p.readMRW()
		return "mrw"
	case bytes.HasPrefix(h, pngMagic):
		p.readPNG()
		return "png"
	case len(h) >= 12 && string(h[:4]) == "RIFF":
		return p.readRIFF(string(h[8:12]))
	case len(h) >= 12 && string(h[4:8]) == "ftyp":
		f := ftypFormat(p.in.at(8, int(min(int64(binary.BigEndian.Uint32(h)), 256)-8)))
		p.readBMFF()
		if f == "cr3" && p.ext == "crm" { // Canon's raw movie shares CR3's brand and boxes
			return "crm"
		}
		return f
	case len(h) >= 8 && isQuickTimeAtom(string(h[4:8])):
		p.readBMFF()
		return "mov"
	}
	return p.sniffOther(h)
}

func isQuickTimeAtom(t string) bool {
	switch t {
	case "moov", "mdat", "wide", "free", "skip", "pnot":
		return true
	}
	return false
}

// sniffOther recognises sidecars and video containers we do not parse.
func (p *parse) sniffOther(h []byte) string {
	t := bytes.TrimLeft(h, "\xef\xbb\xbf \t\r\n")
	switch {
	case bytes.HasPrefix(t, []byte("<?xpacket")) || bytes.HasPrefix(t, []byte("<x:xmpmeta")) ||
		(bytes.HasPrefix(t, []byte("<?xml")) && p.ext == "xmp"):
		p.readXMP(p.in.at(0, int(min(p.in.size, maxXMPBytes))))
		return "xmp"
	case bytes.HasPrefix(t, []byte("<?xml")) && p.ext == "aae":
		return "aae"
	case bytes.HasPrefix(t, []byte("{")) && p.ext == "json":
		return "json"
	case h[0] == 0x47 && p.byteAt(188) == 0x47:
		p.readMTS(188, 0)
		return "mts"
	case p.byteAt(4) == 0x47 && p.byteAt(196) == 0x47:
		p.readMTS(192, 4)
		return "mts"
	case string(h[:3]) == "\x1f\x07\x00" && (h[3] == 0x3f || h[3] == 0xbf):
		p.readDV()
		return "dv"
	case string(h[:4]) == "FOVb":
		p.readX3F()
		return "x3f"
	case string(h[:4]) == "\x00\x00\x01\xba" || string(h[:4]) == "\x00\x00\x01\xb3":
		return "mpg"
	case string(h[:4]) == "\x1a\x45\xdf\xa3":
		p.readMatroska()
		if p.ext == "webm" {
			return "webm"
		}
		return "mkv"
	case string(h[:4]) == "\x30\x26\xb2\x75":
		p.readASF()
		if p.ext == "wma" { // audio only: not for a photo library
			return "wma"
		}
		return "wmv"
	case string(h[:3]) == "FLV":
		p.readFLV()
		return "flv"
	case string(h[:4]) == "GIF8":
		p.readGIF()
		return "gif"
	case string(h[:4]) == "8BPS":
		p.readPSD()
		return "psd"
	case string(h[:2]) == "BM" && p.ext == "bmp":
		return "bmp"
	case len(h) >= 12 && string(h[4:12]) == "JXL \r\n\x87\n":
		p.readJXL()
		return "jxl"
	case string(h[:2]) == "\xff\x0a": // a bare JPEG XL codestream: no metadata
		return "jxl"
	case p.isPMP(h):
		p.readPMP()
		return "pmp"
	case isKyoceraRaw(h):
		p.readKyoceraRaw()
		return "raw"
	}
	return ""
}

func (p *parse) byteAt(off int64) byte {
	if b := p.in.at(off, 1); b != nil {
		return b[0]
	}
	return 0
}

// fallbackFormat names a file by its extension when its content is unknown.
func (p *parse) fallbackFormat() string {
	f := formatByExt(p.ext)
	if f != "" && kindOf[f] != KindSidecar && p.in.size > 0 {
		if p.looksLikeText() {
			// A web page or a note saved under a photo's name: no camera
			// writes text, so it is not media (left alone, with this reason).
			p.warn("its content is text, not " + f)
			return ""
		}
		p.warn("content does not look like " + f)
	}
	return f
}

// formatByExt is the format an extension (lower case, without the dot)
// names, "" when none does or when only the content can tell (.raw).
func formatByExt(ext string) string {
	if f, ok := formatOfExt[ext]; ok {
		return f
	}
	if _, known := kindOf[ext]; known && !contentOnly[ext] {
		return ext
	}
	return ""
}

// KindByName is the kind a file's name alone gives it, as a file whose
// content cannot be read is classified: KindPhoto for IMG_0001.JPG,
// KindSidecar for IMG_0001.xmp, KindOther for notes.txt or card.raw
// (only content says what a .raw is). It reads nothing, for a count of
// photos and videos by extension (sort --eject's look at the card).
func KindByName(name string) Kind { return kindOf[formatByExt(lowerExt(name))] }

// textSniff is how much of a file looksLikeText reads.
const textSniff = 512

// looksLikeText reports whether the file begins and ends with text: valid UTF-8
// (a rune cut at the end of the sample allowed) of printable characters
// and white space, no NUL. A damaged photo does not: its bytes are binary,
// or zeros where a card lost them. An unreadable file is not text either
// (it stays the photo its name says, to fail at the transfer, reported).
func (p *parse) looksLikeText() bool {
	head := p.in.at(0, int(min(p.in.size, textSniff)))
	if !isText(head, p.in.size > textSniff, false) {
		return false
	}
	if p.in.size <= textSniff {
		return true
	}
	// The end too: a photo behind a text prefix (HTTP headers saved with
	// it, curl -i) ends in binary, and is no text file.
	n := min(p.in.size-textSniff, textSniff)
	return isText(p.in.at(p.in.size-n, int(n)), false, true)
}

// isText reports whether b is printable UTF-8 text; cutEnd (cutStart)
// allows a rune cut at its end (start) by the sample's bounds.
func isText(b []byte, cutEnd, cutStart bool) bool {
	if len(b) == 0 {
		return false
	}
	if cutStart {
		for i := 0; i < utf8.UTFMax && i < len(b) && !utf8.RuneStart(b[0]); i++ {
			b = b[1:]
		}
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return cutEnd && !utf8.FullRune(b[i:])
		case r == '\t' || r == '\n' || r == '\r' || r == '\f', unicode.Is(unicode.Cf, r): // Cf: a BOM, ZWJ, RLM, soft hyphen
		case !unicode.IsPrint(r) && !unicode.IsSpace(r):
			return false
		}
		i += size
	}
	return true
}

// tiffFlavour tells TIFF-based raw formats apart: Canon marks CR2 in the
// header, DNG carries DNGVersion; the rest say only "TIFF", so the extension
// decides among raw names.
func (p *parse) tiffFlavour(h []byte) string {
	switch {
	case len(h) >= 10 && string(h[8:10]) == "CR":
		return "cr2"
	case rawByExt[p.ext]:
		return p.ext
	case p.isDNG:
		return "dng"
	}
	return "tiff"
}

// ftypFormat names an ISO base media file by its ftyp brands.
func ftypFormat(b []byte) string {
	if len(b) < 4 {
		return "mp4"
	}
	major := string(b[:4])
	compat := func(want string) bool {
		for i := 8; i+4 <= len(b); i += 4 {
			if string(b[i:i+4]) == want {
				return true
			}
		}
		return false
	}
	switch {
	case major == "crx ":
		return "cr3"
	case major == "avif" || major == "avis":
		return "avif"
	case major == "heic" || major == "heix" || major == "heim" || major == "heis" || major == "hevc" || major == "hevx":
		return "heic"
	case major == "mif1" || major == "msf1":
		switch {
		case compat("avif"):
			return "avif"
		case compat("heic") || compat("heix"):
			return "heic"
		}
		return "heif"
	case major == "qt  ":
		return "mov"
	case major[:3] == "3gp" || major[:3] == "3g2":
		return "3gp"
	case major == "M4V " || major == "M4VH" || major == "M4VP":
		return "m4v"
	case major == "M4A " || major == "M4B " || major == "M4P ":
		return "m4a"
	}
	return "mp4"
}
