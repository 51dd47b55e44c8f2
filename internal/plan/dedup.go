package plan

import "time"

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
//  3. the shortest path (the least nested, most "original" location);
//  4. the smallest path in byte order, so the choice never depends on scan order.
func Keeper(copies []Copy) int {
	best := 0
	for i := 1; i < len(copies); i++ {
		if better(copies[i], copies[best]) {
			best = i
		}
	}
	return best
}

func better(a, b Copy) bool {
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
	if len(a.Path) != len(b.Path) {
		return len(a.Path) < len(b.Path)
	}
	return a.Path < b.Path
}
