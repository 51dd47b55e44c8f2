package plan

import (
	"path/filepath"
	"strings"
	"time"
)

// Copy is one of several byte-identical files.
type Copy struct {
	Path      string
	Wall      time.Time // capture time; zero when unknown
	InLibrary bool      // already in the destination library
}

// Keeper picks which of byte-identical files the library keeps; the others
// are duplicates of it. The rule, in order:
//  1. a copy already in the library (importing it again would only add a twin);
//  2. the earliest known capture time (a later date is usually an edit or a re-save);
//  3. a name that does not look like a copy ("IMG_1 copy.JPG", "IMG_1 (2).JPG",
//     "Copy of IMG_1.JPG") over one that does;
//  4. the shortest path (the least nested, most "original" location);
//  5. the smallest path in byte order, so the choice never depends on scan order.
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
	if a.InLibrary != b.InLibrary {
		return a.InLibrary
	}
	if !a.Wall.Equal(b.Wall) {
		switch {
		case a.Wall.IsZero():
			return false
		case b.Wall.IsZero():
			return true
		}
		return a.Wall.Before(b.Wall)
	}
	if ca, cb := looksLikeCopy(a.Path), looksLikeCopy(b.Path); ca != cb {
		return cb
	}
	if len(a.Path) != len(b.Path) {
		return len(a.Path) < len(b.Path)
	}
	return a.Path < b.Path
}

// looksLikeCopy spots the names file managers give duplicates.
func looksLikeCopy(path string) bool {
	base := strings.ToLower(filepath.Base(path))
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	if strings.HasPrefix(stem, "copy of ") || strings.HasSuffix(stem, " copy") || strings.Contains(stem, " copy ") || strings.HasSuffix(stem, "_copy") {
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
