package archive

import (
	"path/filepath"
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
