package meta

import "fmt"

// Two early digital cameras wrote their capture date at a fixed offset of
// a proprietary header instead of EXIF; ExifTool dates them from there.
//
//   - Sony DSC-F1 .PMP (1996-98): a 124-byte header ("\0\0\0\x7c" at 8,
//     the JPEG at 124) holding DateTimeOriginal as six bytes at 76
//     (year - 1900 or - 2000, month, day, hour, minute, second).
//   - Kyocera/Contax N Digital .RAW: "ARECOYK" ("KYOCERA" reversed) at 25,
//     and DateTimeOriginal as a reversed 20-byte EXIF string at 33.

const (
	tagPMP      = "Sony:DateTimeOriginal"
	tagKyocera  = "KyoceraRaw:DateTimeOriginal"
	pmpJPEGAt   = 124
	pmpDateAt   = 76
	kyoceraAt   = 25
	kyoceraDate = 33
)

func (p *parse) isPMP(h []byte) bool {
	return len(h) >= 12 && string(h[8:12]) == "\x00\x00\x00\x7c" && string(p.in.at(pmpJPEGAt, 3)) == "\xff\xd8\xff"
}

func isKyoceraRaw(h []byte) bool {
	return len(h) >= kyoceraAt+7 && string(h[kyoceraAt:kyoceraAt+7]) == "ARECOYK"
}

func (p *parse) readPMP() {
	b := p.in.at(pmpDateAt, 6)
	if b == nil {
		return
	}
	year := int(b[0]) + 1900
	if b[0] < 70 {
		year += 100
	}
	raw := fmt.Appendf(nil, "%04d:%02d:%02d %02d:%02d:%02d", year, b[1], b[2], b[3], b[4], b[5])
	p.offerText(rankMaker, SourceEXIF, tagPMP, raw, nil, nil)
}

func (p *parse) readKyoceraRaw() {
	b := p.in.at(kyoceraDate, 20)
	if b == nil {
		return
	}
	raw := make([]byte, 0, 20)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] != 0 && !(len(raw) == 0 && b[i] == ' ') {
			raw = append(raw, b[i])
		}
	}
	p.offerText(rankMaker, SourceEXIF, tagKyocera, raw, nil, nil)
}
