package layout

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The names shoebox creates inside a library, defined here, beside the
// rule that keeps every planned destination away from them.
const (
	// StateDirName is the folder holding a library's state: run store,
	// journals, index, config, lock, undo scratch (DEST/.shoebox).
	StateDirName = ".shoebox"
	// TempMarker is in the name of every temp file the executor writes
	// beside a destination: ".<name>.shoebox-tmp-<16 hex digits>".
	TempMarker = ".shoebox-tmp-"
)

// escapePrefix is put before a reserved segment. Every reserved form
// starts with a dot (or is an 8.3 alias starting "sh"), so one leading "_"
// takes the segment out of the reserved space, keeps it visible and
// readable, and a second pass leaves it alone.
const escapePrefix = "_"

// Reserved reports whether a path segment is, or would be taken by some
// filesystem for, a name shoebox keeps for itself: its state folder or one
// of its temp files. Names are compared as the filesystems users have
// compare them, and then some: case-insensitively (full folding, so "ſ" is
// "s"), across NFC/NFD and compatibility forms (fullwidth letters), without
// the invisible characters HFS+ ignores, and without the trailing dots and
// spaces Windows and exFAT drop (and the leading spaces some tools drop).
// A segment is reserved when, so compared, it
//   - starts with a dot and contains ".shoebox": the state folder, every
//     temp file (".<name>.shoebox-tmp-<hex>"), and any future name of
//     shoebox's own, whatever conflict suffix is added to it; or
//   - is an 8.3 short name (FAT, NTFS) that Windows could give to
//     ".shoebox" ("SHOEBO~1", "SH1F2A~3"): opening it would open the
//     state folder.
func Reserved(seg string) bool {
	if !mayBeReserved(seg) {
		return false
	}
	k := reservedKey(seg)
	return (strings.HasPrefix(k, ".") && strings.Contains(k, StateDirName)) || shortAliasOfState(k)
}

// IsStateDirName reports whether a path segment names a library's state
// folder as some filesystem would open it: ".shoebox" compared as Reserved
// compares (any case, trailing dots and spaces, other Unicode forms) or an
// 8.3 alias of it. Narrower than Reserved: a folder such as
// ".shoebox-archive" is a user's, and a library may be made in it.
func IsStateDirName(seg string) bool {
	if !mayBeReserved(seg) {
		return false
	}
	k := reservedKey(seg)
	return k == StateDirName || shortAliasOfState(k)
}

// mayBeReserved is the fast path: a reserved key either contains "~" (an
// 8.3 alias) or starts with a dot, so only names with a tilde, or whose
// first character that the key keeps is a dot in some form (".", "．",
// "․"), need the full comparison.
func mayBeReserved(seg string) bool {
	if strings.ContainsRune(seg, '~') || strings.ContainsRune(seg, '～') {
		return true
	}
	for _, r := range seg {
		if r == ' ' || dropIgnorable(r) < 0 {
			continue
		}
		if r < utf8.RuneSelf {
			return r == '.'
		}
		k := strings.TrimLeft(norm.NFKC.String(string(r)), " ")
		if k != "" {
			return k[0] == '.'
		}
		// A space in another form (U+00A0, U+3000): dropped from the key's start.
	}
	return false
}

// reservedKey is seg as the most forgiving filesystem would compare it.
func reservedKey(seg string) string {
	seg = strings.Map(dropIgnorable, seg)
	k := norm.NFKC.String(FoldKey(norm.NFKC.String(seg)))
	k = strings.TrimLeft(k, " ")
	return strings.TrimRightFunc(k, droppedAtEnd)
}

// dropIgnorable removes format characters (zero-width space and joiners,
// direction marks, BOM) and variation selectors, which HFS+ ignores in
// names and which are invisible to the user anyway.
func dropIgnorable(r rune) rune {
	if unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Variation_Selector, r) {
		return -1
	}
	return r
}

// droppedAtEnd: Windows and exFAT strip trailing dots and spaces; SMB
// servers mapping names for Macs store U+F028 and U+F029 as a trailing
// space and dot.
func droppedAtEnd(r rune) bool {
	return r == '.' || r == ' ' || r == '\uF028' || r == '\uF029'
}

// shortAliasOfState reports whether the folded name k is an 8.3 alias
// a filesystem may generate for ".shoebox": NTFS and FAT drop the leading
// dot and keep up to six characters of "shoebox" (or two and four hex
// digits of a hash) before "~N"; Wine (and Samba, in its fashion) keep
// at most four characters, the dot made "_", and put hash characters
// after the "~" ("_SHO~E2X"). The executor also refuses, by identity, any folder that is
// the state folder, whatever its name: this rule lets the planner give
// such a segment a safe name instead of failing the file.
func shortAliasOfState(k string) bool {
	base, tail, ok := strings.Cut(k, "~")
	if !ok || base == "" || tail == "" || len(base)+1+len(tail) > 8 {
		return false
	}
	if strings.HasPrefix("_sho", base) && allAlnum(tail) {
		return true
	}
	if !AllDigits(tail) {
		return false
	}
	if strings.HasPrefix("shoebox", base) {
		return true
	}
	return len(base) == 6 && strings.HasPrefix(base, "sh") && allHex(base[2:])
}

func allAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z') {
			return false
		}
	}
	return true
}

// AllDigits reports whether s is a non-empty run of ASCII digits (a
// counter, an 8.3 alias's number).
func AllDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func allHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
