package fsx

import (
	"os"
	"path/filepath"
	"strings"
)

// OneEntry reports whether a and b, whose infos ai and bi came from the
// same kind of stat, are one directory entry reached through two paths (a
// symbolic link to a folder on the way, a bind mount, another spelling of
// a case-insensitive name) rather than two files, or two hard links of
// one file. Removing "the other one" of one entry removes both, and one
// entry is no second copy of itself. stat reads a folder, links followed.
// What cannot be told is one entry: that refuses rather than risks.
func OneEntry(stat func(string) (os.FileInfo, error), a string, ai os.FileInfo, b string, bi os.FileInfo) bool {
	if !os.SameFile(ai, bi) {
		return false
	}
	if Nlink(b, bi) < 2 {
		return true
	}
	if !strings.EqualFold(filepath.Base(a), filepath.Base(b)) {
		return false // two names: two hard links
	}
	da, errA := stat(filepath.Dir(a))
	db, errB := stat(filepath.Dir(b))
	return errA != nil || errB != nil || os.SameFile(da, db)
}
