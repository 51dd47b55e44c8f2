package layout

import (
	"sync"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// folders pools case folders: a cases.Caser keeps state and must not be
// shared between goroutines, and building one per call is costly.
var folders = sync.Pool{New: func() any { c := cases.Fold(); return &c }}

// FoldKey returns the key two names collide under on case-insensitive,
// normalization-insensitive filesystems (NTFS, exFAT, APFS, SMB shares):
// Unicode NFC, then full case folding, then NFC again because folding can
// undo composition. "IMG_1.JPG" and "img_1.jpg" share a key; so do the NFC
// and NFD spellings of "é". Full folding (ß ~ ss) is stricter than any
// filesystem, which at worst adds a needless suffix: the safe side.
func FoldKey(name string) string {
	if ascii, lowerAlready := asciiInfo(name); ascii {
		if lowerAlready {
			return name
		}
		return asciiLower(name)
	}
	c := folders.Get().(*cases.Caser)
	defer folders.Put(c)
	return norm.NFC.String(c.String(norm.NFC.String(name)))
}

func asciiInfo(s string) (ascii, lowerAlready bool) {
	lowerAlready = true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return false, false
		}
		if 'A' <= c && c <= 'Z' {
			lowerAlready = false
		}
	}
	return true, lowerAlready
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
