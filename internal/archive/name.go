package archive

import (
	"errors"
	"strings"
)

// Why a member's name is refused. Each is wrapped with the member's name by
// whoever reports it.
var (
	ErrNameEmpty     = errors.New("its name is empty")
	ErrNameNUL       = errors.New("its name holds a NUL byte")
	ErrNameAbsolute  = errors.New("its name is an absolute path")
	ErrNameDrive     = errors.New("its name starts with a drive letter or a Windows device path")
	ErrNameTraversal = errors.New("its name climbs out of the archive with '..'")
	ErrNameLong      = errors.New("its name is longer than 4096 bytes")
)

// maxNameLen bounds a member name: no filesystem holds a longer path.
const maxNameLen = 4096

// CleanName turns a member's name as stored in an archive into the
// slash-separated relative path shoebox knows it by, or refuses it. A
// backslash is taken for a separator (zips made on Windows by old tools
// store them), "." and empty segments are dropped, and anything that could
// name a place outside the archive's own tree is refused rather than
// mended: "../x", "/x", "C:x", "\\server\x", and NUL, which no filesystem
// holds. A name ending in a slash is a folder: dir is true and the caller
// skips it.
//
// The path is only ever a source's name (its folder and base feed the
// template, which makes every segment safe): nothing is created at it, so
// refusing these is about telling the user, not about containment alone.
func CleanName(name string) (clean string, dir bool, err error) {
	switch {
	case name == "":
		return "", false, ErrNameEmpty
	case len(name) > maxNameLen:
		return "", false, ErrNameLong
	case strings.IndexByte(name, 0) >= 0:
		return "", false, ErrNameNUL
	}
	slashed := strings.ReplaceAll(name, `\`, "/")
	switch {
	case strings.HasPrefix(slashed, "/"):
		return "", false, ErrNameAbsolute
	case hasDrive(slashed):
		return "", false, ErrNameDrive
	}
	dir = strings.HasSuffix(slashed, "/")
	var segs []string
	for _, s := range strings.Split(slashed, "/") {
		switch s {
		case "", ".":
			continue
		case "..":
			return "", false, ErrNameTraversal
		}
		segs = append(segs, s)
	}
	if len(segs) == 0 {
		if dir {
			return "", true, nil
		}
		return "", false, ErrNameEmpty
	}
	return strings.Join(segs, "/"), dir, nil
}

// hasDrive reports a leading "C:" (absolute or drive-relative on Windows)
// or a colon in the first segment at all: on Windows "a:b" is an
// alternate data stream, and no camera names a folder so.
func hasDrive(s string) bool {
	first, _, _ := strings.Cut(s, "/")
	return strings.IndexByte(first, ':') >= 0
}
