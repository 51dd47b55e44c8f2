package layout

import (
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Expand returns the destination directory (slash-separated, relative,
// "" when the template has a single segment) and file name, with every
// segment made safe by SafeName.
func (t *Template) Expand(f Fields) (dir, file string) {
	dir, file, _ = t.ExpandNoted(f)
	return dir, file
}

// Escape tells which template segment gave a name shoebox keeps for itself
// (see Reserved), and what it became instead.
type Escape struct {
	Segment string // the template segment, as written: "{make}"
	Raw     string // what it expanded to: ".shoebox"
	Safe    string // the name used: "_.shoebox"
}

// ExpandNoted is Expand, also returning the first segment that had to be
// escaped because it named something of shoebox's own (nil when none).
func (t *Template) ExpandNoted(f Fields) (dir, file string, esc *Escape) {
	// Both buffers live on the stack for ordinary names: the two result
	// strings are the only allocations.
	var rawBuf, outBuf [512]byte
	out := outBuf[:0]
	last := len(t.segments) - 1
	for i, seg := range t.segments {
		raw := t.expandSegment(rawBuf[:0], seg, &f)
		if i == last {
			raw = t.fitFileName(rawBuf[:0], raw, seg, f)
			dir = string(out)
			name, escaped := appendSafe(out[:0], raw)
			file = string(name)
			if escaped && esc == nil {
				esc = &Escape{Segment: segmentText(seg), Raw: string(raw), Safe: file}
			}
			return dir, file, esc
		}
		if i > 0 {
			out = append(out, '/')
		}
		start := len(out)
		var escaped bool
		out, escaped = appendSafe(out, raw)
		if escaped && esc == nil {
			esc = &Escape{Segment: segmentText(seg), Raw: string(raw), Safe: string(out[start:])}
		}
	}
	return "", "", nil // unreachable: Parse guarantees one segment
}

// fitFileName shortens {name}, rather than the end of the file name, when
// the name is too long, so a {counter} or literal after it survives.
// SafeName's replacements never lengthen a long name, so the shortened
// raw name needs no further cut.
func (t *Template) fitFileName(dst, raw []byte, seg []part, f Fields) []byte {
	excess := len(raw) - maxSafe
	if excess <= 0 || !hasKind(seg, tokName) {
		return raw
	}
	keep := max(len(f.Name)-excess, 0)
	for keep > 0 && !utf8.RuneStart(f.Name[keep]) {
		keep--
	}
	f.Name = f.Name[:keep]
	return t.expandSegment(dst, seg, &f)
}

func (t *Template) expandSegment(dst []byte, seg []part, f *Fields) []byte {
	for _, pt := range seg {
		dst = pt.appendTo(dst, f)
	}
	return dst
}

func (pt part) appendTo(dst []byte, f *Fields) []byte {
	tm := f.Time
	switch pt.kind {
	case literal:
		return append(dst, pt.text...)
	case tokYear:
		return appendPadded(dst, tm.Year(), 4)
	case tokYY:
		return appendPadded(dst, tm.Year()%100, 2)
	case tokMonth:
		return appendPadded(dst, int(tm.Month()), 2)
	case tokDay:
		return appendPadded(dst, tm.Day(), 2)
	case tokHour:
		return appendPadded(dst, tm.Hour(), 2)
	case tokMinute:
		return appendPadded(dst, tm.Minute(), 2)
	case tokSecond:
		return appendPadded(dst, tm.Second(), 2)
	case tokDate:
		dst = appendPadded(dst, tm.Year(), 4)
		dst = append(dst, '-')
		dst = appendPadded(dst, int(tm.Month()), 2)
		dst = append(dst, '-')
		return appendPadded(dst, tm.Day(), 2)
	case tokCounter:
		return appendPadded(dst, f.Counter, pt.width)
	}
	return appendCased(dst, pt.textValue(f, tm), pt.mod)
}

func (pt part) textValue(f *Fields, tm time.Time) string {
	switch pt.kind {
	case tokMonthName:
		return tm.Month().String()
	case tokMon:
		return tm.Month().String()[:3]
	case tokName:
		return f.Name
	case tokExt:
		return f.Ext
	case tokMake:
		return orUnknown(f.Make)
	case tokModel:
		return orUnknown(f.Model)
	case tokKind:
		return orUnknown(f.Kind)
	case tokFolder:
		return orUnknown(folderUp(f.Dir, f.Root, max(pt.width, 1)))
	case tokSource:
		return orUnknown(folderName(f.Root))
	case tokAlbum:
		return orUnknown(albumName(f))
	}
	return ""
}

// albumName is the album {album} names: the title recorded in the album's
// metadata.json when there is one (Takeout spells the folder's name only
// approximately), else the album folder's name; "" outside an album.
func albumName(f *Fields) string {
	folder := TakeoutAlbum(f.Dir)
	if folder != "" && f.Album != "" {
		return f.Album
	}
	return folder
}

// folderUp names the n-th folder up from dir (1: dir itself), never
// climbing above the source root: past it the value is "" (shown as
// "unknown").
func folderUp(dir, root string, n int) string {
	dir, root = filepath.Clean(dir), filepath.Clean(root)
	for ; n > 1; n-- {
		if dir == root || filepath.Dir(dir) == dir {
			return ""
		}
		dir = filepath.Dir(dir)
	}
	return folderName(dir)
}

// folderName is a folder's own name; "." and ".." are named by the real
// folder they stand for, and a filesystem root has none.
func folderName(dir string) string {
	base := filepath.Base(dir)
	if base == "." || base == ".." {
		if abs, err := filepath.Abs(dir); err == nil {
			base = filepath.Base(abs)
		}
	}
	if base == string(filepath.Separator) || base == "." || filepath.VolumeName(base) == base {
		return ""
	}
	return base
}

// orUnknown trims the space and NUL padding that EXIF strings often carry
// and names an absent value, so "{make}/" never yields an empty folder.
func orUnknown(s string) string {
	s = strings.Trim(s, " \t\x00")
	if s == "" {
		return "unknown"
	}
	return s
}

func appendCased(dst []byte, s string, mod modifier) []byte {
	if mod == asIs {
		return append(dst, s...)
	}
	if !isASCII(s) {
		// Casing turns invalid bytes into U+FFFD; make them "_" first, as
		// SafeName would.
		if !utf8.ValidString(s) {
			s = string(appendCleanRunes(nil, []byte(s)))
		}
		if mod == lower {
			return append(dst, strings.ToLower(s)...)
		}
		return append(dst, strings.ToUpper(s)...)
	}
	// ASCII is cased in place in dst, sparing an allocation per expansion.
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case mod == lower && 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case mod == upper && 'a' <= c && c <= 'z':
			c -= 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// appendPadded writes n in decimal, zero-padded to width digits; a minus
// sign, if any, comes first.
func appendPadded(dst []byte, n, width int) []byte {
	if n < 0 {
		dst = append(dst, '-')
		n = -n
	}
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], int64(n), 10)
	for i := len(d); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, d...)
}
