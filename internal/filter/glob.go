package filter

import (
	"path"
	"strings"
)

// Match reports whether the slash path rel matches pattern. A pattern
// without "/" is matched against every path element, so "*.png" and
// "Trash" catch files in any folder; one with "/" is matched against the
// whole path, element by element, where "**" matches any number of
// elements (also none). Matching ignores case: the filesystems photos come
// from mostly do. A malformed pattern matches nothing; CheckPattern reports
// it beforehand.
func Match(pattern, rel string) bool {
	pattern, rel = strings.ToLower(pattern), strings.ToLower(rel)
	elems := strings.Split(rel, "/")
	if !strings.Contains(pattern, "/") {
		for _, e := range elems {
			if ok, _ := path.Match(pattern, e); ok {
				return true
			}
		}
		return false
	}
	return matchElems(strings.Split(strings.Trim(pattern, "/"), "/"), elems)
}

// matchElems matches pattern elements against path elements; "**" tries
// every split, which is bounded by the path's depth for each "**".
func matchElems(pat, elems []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 1 && pat[1] == "**" {
				pat = pat[1:]
			}
			for i := 0; i <= len(elems); i++ {
				if matchElems(pat[1:], elems[i:]) {
					return true
				}
			}
			return false
		}
		if len(elems) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], elems[0]); !ok {
			return false
		}
		pat, elems = pat[1:], elems[1:]
	}
	return len(elems) == 0
}

// CheckPattern reports a malformed glob (an unclosed "[").
func CheckPattern(pattern string) error {
	for _, e := range strings.Split(pattern, "/") {
		if _, err := path.Match(e, ""); err != nil {
			return err
		}
	}
	return nil
}
