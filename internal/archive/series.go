package archive

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Series names the series an archive is a part of: Google Takeout (and
// other exports split for size) number their parts, takeout-…-001.zip,
// takeout-…-002.zip, and put a photo in one part and its JSON in another.
// Parts of one series, in one folder, are one tree: the series is the
// folder and the name without its part number and extension
// ("DIR/takeout-20240101T000000Z"). ok is false for an archive that is not
// numbered so, whose tree is its own.
func Series(path string) (series string, ok bool) {
	series, _, ok = Part(path)
	return series, ok
}

// Part is Series with the part's number (1 for -001).
func Part(path string) (series string, n int, ok bool) {
	if formatOf(path) == "" {
		return "", 0, false
	}
	dir, base := filepath.Split(path)
	stem := base[:len(base)-len(extOf(base))]
	i := strings.LastIndexByte(stem, '-')
	if i <= 0 || !partNumber(stem[i+1:]) {
		return "", 0, false
	}
	n, err := strconv.Atoi(stem[i+1:])
	if err != nil {
		return "", 0, false
	}
	return dir + stem[:i], n, true
}

// MissingParts returns, for the parts of each series among paths, the
// numbers missing below the highest given (part 3 when 1, 2 and 4 are
// given), by series, sorted. A part after the last given cannot be known
// to be missing.
func MissingParts(paths []string) map[string][]int {
	given := map[string]map[int]bool{}
	for _, p := range paths {
		if series, n, ok := Part(p); ok {
			if given[series] == nil {
				given[series] = map[int]bool{}
			}
			given[series][n] = true
		}
	}
	missing := map[string][]int{}
	for series, parts := range given {
		// One numbered archive alone is a part only when named as
		// Takeout names them: trip-100.zip may be a folder's hundredth.
		if len(parts) < 2 && !strings.HasPrefix(strings.ToLower(filepath.Base(series)), "takeout-") {
			continue
		}
		top := 0
		for n := range parts {
			top = max(top, n)
		}
		for n := 1; n < top && len(missing[series]) < maxListed; n++ {
			if !parts[n] {
				missing[series] = append(missing[series], n)
			}
		}
	}
	return missing
}

// maxListed bounds the missing parts listed for one series.
const maxListed = 20

// extOf is an archive name's extension, ".tar.gz" whole.
func extOf(base string) string {
	if strings.HasSuffix(strings.ToLower(base), ".tar.gz") {
		return base[len(base)-len(".tar.gz"):]
	}
	return filepath.Ext(base)
}

// partNumber reports whether s is a part number: three digits, as
// Takeout numbers its parts (-001). Four digits are more often a year
// (trip-2019.zip) than a part.
func partNumber(s string) bool {
	if len(s) != 3 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// SeriesParts are the archives in path's folder that are parts of the
// series path is a part of, path included, by part number: what
// `shoebox sort takeout-*.zip` would be given. Just path when it is no
// part, or its folder cannot be listed.
func SeriesParts(path string) []string {
	series, _, ok := Part(path)
	if !ok {
		return []string{path}
	}
	ents, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return []string{path}
	}
	byNumber := map[int]string{}
	var numbers []int
	for _, e := range ents {
		other := filepath.Join(filepath.Dir(path), e.Name())
		if s, n, ok := Part(other); ok && s == series && e.Type().IsRegular() && other != path {
			if _, seen := byNumber[n]; !seen {
				numbers = append(numbers, n)
			}
			byNumber[n] = other
		}
	}
	_, own, _ := Part(path)
	byNumber[own] = path // the archive asked about, whatever its siblings' formats
	if !slices.Contains(numbers, own) {
		numbers = append(numbers, own)
	}
	slices.Sort(numbers)
	out := make([]string, 0, len(numbers))
	for _, n := range numbers {
		out = append(out, byNumber[n])
	}
	return out
}

// Beside are the members in the same folder as m: in m's archive, and in
// the other parts of its series that s holds (a photo in part 1, its JSON
// in part 2), m included, in the order of s's archives.
func (s *Set) Beside(m *Member) []*Member {
	series, isPart := Series(m.Archive)
	var out []*Member
	for _, a := range s.Archives() {
		if a != m.a {
			if other, ok := Series(a.Path); !isPart || !ok || other != series {
				continue
			}
		}
		dir := pathDir(m.Name)
		for _, o := range a.order {
			if pathDir(o.Name) == dir {
				out = append(out, o)
			}
		}
	}
	return out
}
