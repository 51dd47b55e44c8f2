package plan

import (
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/shoebox-photos/shoebox/internal/layout"
)

// Copy is one of several byte-identical files.
type Copy struct {
	Path      string
	Wall      time.Time // capture time; zero when unknown
	ModTime   time.Time // the file's modification time; zero when unknown
	InLibrary bool      // already in the destination library
}

// Keeper picks which of byte-identical files the library keeps; the others
// are duplicates of it. The rule, in order:
//  1. a copy already in the library (importing it again would only add a twin);
//  2. the camera's own name (DCIM-style: IMG_1234, DSC_0001, P1000123,
//     GOPR0001, PXL_20231010_123456789) over any other: the copy a
//     camera wrote, not one a person or a program renamed;
//  3. a name that does not look like a copy ("IMG_1 copy.JPG", "IMG_1 (2).JPG",
//     "Copy of IMG_1.JPG", "dup of IMG_1.JPG", "IMG_1-edited.JPG") over one that does;
//  4. a copy in a Google Takeout album over one in a year folder
//     ("Photos from 2019"): Takeout puts an album's photo in both, and
//     only the album copy can name its album ({album});
//  5. the earliest known capture time (identical bytes differ in date
//     only when one is dated by its file time or name: the earlier is the original's);
//  6. the oldest modification time (a copy's is when it was copied);
//  7. the shortest path, then the smallest in byte order, so the choice
//     never depends on scan order.
func Keeper(copies []Copy) int {
	best := 0
	for i := 1; i < len(copies); i++ {
		if Better(copies[i], copies[best]) {
			best = i
		}
	}
	return best
}

// Better reports whether a should be kept rather than b, by Keeper's rule;
// it lets a caller pick the keeper of a stream without holding it.
func Better(a, b Copy) bool {
	better, _ := compare(a, b)
	return better
}

// Why says which of Keeper's rules keeps a rather than b, in words for
// the user ("the camera's own name"); "" when a is not the better one.
func Why(a, b Copy) string {
	better, why := compare(a, b)
	if !better {
		return ""
	}
	return why
}

// compare applies Keeper's rules in order: whether a wins, and by which.
func compare(a, b Copy) (bool, string) {
	if a.InLibrary != b.InLibrary {
		return a.InLibrary, "already in the library"
	}
	if ca, cb := CameraName(a.Path), CameraName(b.Path); ca != cb {
		return ca, "the camera's own name"
	}
	if ca, cb := looksLikeCopy(a.Path), looksLikeCopy(b.Path); ca != cb {
		return cb, "not named like a copy"
	}
	if aa, ab := layout.TakeoutAlbum(filepath.Dir(a.Path)), layout.TakeoutAlbum(filepath.Dir(b.Path)); (aa == "") != (ab == "") {
		return aa != "", "in a Takeout album"
	}
	if !a.Wall.Equal(b.Wall) {
		switch {
		case a.Wall.IsZero():
			return false, "a known capture date"
		case b.Wall.IsZero():
			return true, "a known capture date"
		}
		return a.Wall.Before(b.Wall), "the earlier capture date"
	}
	// To the second: filesystems keep mtimes at different precisions, so
	// a copy that kept its original's time may differ from it below that.
	if ma, mb := a.ModTime.Truncate(time.Second), b.ModTime.Truncate(time.Second); !ma.Equal(mb) {
		switch {
		case a.ModTime.IsZero():
			return false, "the older modification time"
		case b.ModTime.IsZero():
			return true, "the older modification time"
		}
		return ma.Before(mb), "the older modification time"
	}
	if len(a.Path) != len(b.Path) {
		return len(a.Path) < len(b.Path), "the shorter path"
	}
	return a.Path < b.Path, "the first path in order"
}

// cameraStem matches the names cameras and phones give their files: the
// DCF rule's four characters and four digits (IMG_1234, DSC_0001,
// _DSC0001, DSCF0001, P1000123, GOPR0001, GX010001, DJI_0001), and the
// phones' date-and-time names (IMG_20190704_153000, PXL_20231010_123456789).
var cameraStem = regexp.MustCompile(`^(?i:[a-z0-9_]{4}[0-9]{4}|(img|vid|pxl|mvimg)_[0-9]{8}_[0-9]{6,9}(_[a-z0-9]+)?)$`)

// CameraName reports whether path's base name is one a camera gave.
func CameraName(path string) bool {
	base := filepath.Base(path)
	return cameraStem.MatchString(strings.TrimSuffix(base, filepath.Ext(base)))
}

// looksLikeCopy spots the names file managers and editors give duplicates.
func looksLikeCopy(path string) bool {
	base := strings.ToLower(filepath.Base(path))
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	for _, prefix := range []string{"copy of ", "dup of ", "duplicate of "} {
		if strings.HasPrefix(stem, prefix) {
			return true
		}
	}
	for _, suffix := range []string{" copy", "_copy", "-copy", "-edited", "_edited", " edited"} {
		if strings.HasSuffix(stem, suffix) {
			return true
		}
	}
	if strings.Contains(stem, " copy ") {
		return true
	}
	// "IMG_1 (2)" and "IMG_1(2)": a counter in parentheses at the end.
	if i := strings.LastIndexByte(stem, '('); i > 0 && strings.HasSuffix(stem, ")") {
		for _, c := range stem[i+1 : len(stem)-1] {
			if c < '0' || c > '9' {
				return false
			}
		}
		return len(stem)-i > 2
	}
	return false
}
