package layout

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

const (
	// nameMax is NAME_MAX on every filesystem we target, in bytes.
	nameMax = 255
	// headroom is kept free in every name so that the planner can add a
	// conflict suffix ("-9999") and the transfer a 24-byte temp suffix
	// without ever crossing nameMax.
	headroom = len("-9999") + 24
	// maxSafe is the longest name SafeName returns.
	maxSafe = nameMax - headroom
	// maxExt is the longest suffix still treated as an extension worth
	// keeping when a name is shortened; anything longer is just text.
	maxExt = 16
)

// SafeName makes one path segment safe on FAT/exFAT/SMB/NTFS: it replaces
// < > : " / \ | ? * and control characters with "_", replaces invalid
// UTF-8 bytes with "_", strips trailing dots and spaces, suffixes "_" to
// reserved device names (CON, PRN, AUX, NUL, COM0-9, LPT0-9, also with an
// extension), never returns "", "." or "..", escapes with a leading "_"
// any name shoebox keeps for itself (see Reserved), and shortens the stem
// at a rune boundary, keeping the extension, so the result plus "-9999"
// and a 24-byte temp suffix still fits in 255 bytes. SafeName is
// idempotent. Every segment of every planned destination passes through
// it, which is what makes the Reserved rule hold everywhere.
func SafeName(seg string) string {
	safe, _ := SafeSegment(seg)
	return safe
}

// SafeSegment is SafeName, also saying whether the segment was a name
// shoebox keeps for itself and had to be escaped, so the caller can warn.
func SafeSegment(seg string) (safe string, escaped bool) {
	if isSafe(seg) {
		return seg, false
	}
	out, escaped := appendSafe(nil, []byte(seg))
	return string(out), escaped
}

// isSafe is the fast path: most names need no change at all.
func isSafe(s string) bool {
	if s == "" || len(s) > maxSafe {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || forbidden(c) {
			return false
		}
	}
	return !endsBadly(s) && !reserved(s) && !Reserved(s)
}

func forbidden(c byte) bool {
	return c < 0x20 || c == 0x7f || strings.IndexByte(`<>:"/\|?*`, c) >= 0
}

func endsBadly(s string) bool {
	c := s[len(s)-1]
	return c == '.' || c == ' '
}

// appendSafe appends the safe form of seg to dst, and says whether it had
// to escape a name shoebox keeps for itself.
func appendSafe(dst, seg []byte) ([]byte, bool) {
	start := len(dst)
	dst = appendCleanRunes(dst, seg)
	dst = dst[:start+len(trimTrailing(dst[start:]))]
	// The reserved-name "_" goes in before shortening so that the result
	// never exceeds maxSafe and a second pass changes nothing.
	if n := reservedLen(string(dst[start:])); n > 0 {
		dst = insertAt(dst, start+n, '_')
	}
	// Checked on the cleaned name, the one that would be created.
	escaped := Reserved(string(dst[start:]))
	if escaped {
		dst = insertAt(dst, start, escapePrefix[0])
	}
	dst = dst[:start+len(shorten(dst[start:]))]
	if len(dst) == start {
		return append(dst, '_'), escaped
	}
	return dst, escaped
}

// insertAt inserts c into b at index i.
func insertAt(b []byte, i int, c byte) []byte {
	b = append(b, 0)
	copy(b[i+1:], b[i:])
	b[i] = c
	return b
}

// appendCleanRunes copies seg, turning invalid UTF-8 bytes and characters
// that Windows filesystems refuse into "_".
func appendCleanRunes(dst, seg []byte) []byte {
	for i := 0; i < len(seg); {
		c := seg[i]
		if c < utf8.RuneSelf {
			if forbidden(c) {
				c = '_'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(seg[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, '_')
		} else {
			dst = append(dst, seg[i:i+size]...)
		}
		i += size
	}
	return dst
}

func trimTrailing(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '.' || b[len(b)-1] == ' ') {
		b = b[:len(b)-1]
	}
	return b
}

// shorten cuts name in place to maxSafe bytes, keeping a short extension
// and never splitting a rune.
func shorten(name []byte) []byte {
	if len(name) <= maxSafe {
		return name
	}
	ext := extOf(name)
	stem := name[:len(name)-len(ext)]
	keep := maxSafe - len(ext)
	for keep > 0 && !utf8.RuneStart(stem[keep]) {
		keep--
	}
	stem = trimTrailing(stem[:keep])
	n := copy(name[len(stem):], ext)
	return name[:len(stem)+n]
}

// extOf returns the extension worth keeping: a final ".xyz" that is short
// and is not the whole name.
func extOf(name []byte) []byte {
	for i := len(name) - 1; i > 0 && len(name)-i <= maxExt; i-- {
		if name[i] == '.' {
			return name[i:]
		}
	}
	return nil
}

// reservedLen returns the length of the reserved device name that starts
// name ("CON" in "con.txt" or "CON .jpg"), or 0. Windows refuses these
// names whatever follows the first dot.
func reservedLen(name string) int {
	base, _, _ := strings.Cut(name, ".")
	base = strings.TrimRight(base, " ")
	if !isReservedBase(base) {
		return 0
	}
	return len(base)
}

func reserved(name string) bool { return reservedLen(name) > 0 }

// isReservedBase reports whether b is a Windows device name: CON, PRN,
// AUX, NUL, COM and LPT with a digit (the superscripts ¹ ² ³ count as
// digits there too, Windows 10 and 11), and CONIN$ and CONOUT$, which
// CreateFile opens as the console.
func isReservedBase(b string) bool {
	for _, r := range [...]string{"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"} {
		if strings.EqualFold(b, r) {
			return true
		}
	}
	if len(b) < 4 || !(strings.EqualFold(b[:3], "COM") || strings.EqualFold(b[:3], "LPT")) {
		return false
	}
	switch d := b[3:]; d {
	case "¹", "²", "³":
		return true
	default:
		return len(d) == 1 && d[0] >= '0' && d[0] <= '9'
	}
}

// WithSuffix inserts a conflict counter: ("IMG_1", ".jpg", 2) -> "IMG_1-2.jpg".
// The result obeys the Reserved rule like every other planned name, so a
// counter can never push a name into shoebox's own names. (It is not
// passed through SafeName, whose shortening could cut the counter off: the
// stem and extension are already safe, and the headroom SafeName keeps
// leaves room for the counter.)
func WithSuffix(stem, ext string, n int) string {
	name := stem + "-" + strconv.Itoa(n) + ext
	if Reserved(name) {
		return escapePrefix + name
	}
	return name
}
