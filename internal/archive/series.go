package archive

import (
	"path/filepath"
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
	format := formatOf(path)
	if format == "" {
		return "", false
	}
	dir, base := filepath.Split(path)
	stem := base[:len(base)-len(extOf(base))]
	i := strings.LastIndexByte(stem, '-')
	if i <= 0 || !partNumber(stem[i+1:]) {
		return "", false
	}
	return dir + stem[:i], true
}

// extOf is an archive name's extension, ".tar.gz" whole.
func extOf(base string) string {
	if strings.HasSuffix(strings.ToLower(base), ".tar.gz") {
		return base[len(base)-len(".tar.gz"):]
	}
	return filepath.Ext(base)
}

// partNumber reports whether s is a part number: three digits or more.
func partNumber(s string) bool {
	if len(s) < 3 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
