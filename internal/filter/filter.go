// Package filter decides which photos and videos an import leaves out:
// by path (--include, --exclude, --ext, --max-depth), by size (--min-size,
// --max-size), by kind (--kind) and by capture date (--since, --until,
// --skip-unknown).
// A file left out is counted and reported with the reason, never silently
// dropped; a file with no capture date never passes a date filter.
package filter

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// Filter is the set of rules an import applies. The zero value admits
// everything.
type Filter struct {
	Include, Exclude []string // globs on the slash path relative to the source root; "**" spans folders
	Files            *Listed  // --files-from: only these files; nil admits all
	Exts             []string // lower-case extensions with their dot; empty admits all
	Kinds            []string // "photo", "video"; empty admits both
	MaxDepth         int      // 1: only files directly in the source root; 0: no limit
	MinSize, MaxSize int64    // bytes; 0: no limit
	Since, Until     time.Time
	SkipUnknown      bool // --skip-unknown: a file with no date stays where it is, not in the unknown folder
	// Until is exclusive: a day given as "2021-12-31" is stored as the
	// first instant of the next day.
}

// File is what a rule looks at.
type File struct {
	Path, Root string // as scanned
	Size       int64
	Kind       string    // "photo", "video"
	Taken      time.Time // capture wall clock; zero when the file has no date
}

// Active reports whether any rule is set.
func (f *Filter) Active() bool {
	return f != nil && (len(f.Include)+len(f.Exclude)+len(f.Exts)+len(f.Kinds) > 0 || f.Files != nil ||
		f.MaxDepth > 0 || f.MinSize > 0 || f.MaxSize > 0 || !f.Since.IsZero() || !f.Until.IsZero() || f.SkipUnknown)
}

// Reject returns why file is left out, or "" when it is admitted.
func (f *Filter) Reject(file File) string {
	if why := f.RejectBeforeDating(file); why != "" || !f.Active() {
		return why
	}
	return f.byDate(file)
}

// RejectBeforeDating applies every rule but the date rules: what can be
// decided before a file's date is final.
func (f *Filter) RejectBeforeDating(file File) string {
	if !f.Active() {
		return ""
	}
	rel := Relative(file.Path, file.Root)
	if f.Files != nil && !f.Files.Has(file.Path, rel) {
		return "not listed in --files-from"
	}
	if why := f.byPath(rel); why != "" {
		return why
	}
	return f.byShape(file, rel)
}

func (f *Filter) byPath(rel string) string {
	if len(f.Include) > 0 && !anyMatch(f.Include, rel) {
		return "matches no --include pattern"
	}
	for _, p := range f.Exclude {
		if Match(p, rel) {
			return fmt.Sprintf("matches --exclude %q", p)
		}
	}
	if f.MaxDepth > 0 && strings.Count(rel, "/")+1 > f.MaxDepth {
		return fmt.Sprintf("deeper than --max-depth %d", f.MaxDepth)
	}
	return ""
}

func (f *Filter) byShape(file File, rel string) string {
	if len(f.Exts) > 0 && !contains(f.Exts, strings.ToLower(path.Ext(rel))) {
		return "extension not in --ext"
	}
	if len(f.Kinds) > 0 && !contains(f.Kinds, file.Kind) {
		return fmt.Sprintf("a %s, not --kind %s", file.Kind, strings.Join(f.Kinds, ","))
	}
	if f.MinSize > 0 && file.Size < f.MinSize {
		return fmt.Sprintf("smaller than --min-size (%d bytes)", file.Size)
	}
	if f.MaxSize > 0 && file.Size > f.MaxSize {
		return fmt.Sprintf("larger than --max-size (%d bytes)", file.Size)
	}
	return ""
}

func (f *Filter) byDate(file File) string {
	if f.SkipUnknown && file.Taken.IsZero() {
		return "no capture date: left where it is (--skip-unknown)"
	}
	if f.Since.IsZero() && f.Until.IsZero() {
		return ""
	}
	taken := wallUTC(file.Taken)
	switch {
	case file.Taken.IsZero():
		return "no capture date, so a date filter (--since/--until) cannot admit it"
	case !f.Since.IsZero() && taken.Before(f.Since):
		return "taken before --since " + f.Since.Format("2006-01-02 15:04:05")
	case !f.Until.IsZero() && !taken.Before(f.Until):
		return "taken after --until"
	}
	return ""
}

// wallUTC reads a wall clock's fields as UTC, the way the bounds were
// parsed: a capture date is compared as the camera showed it.
func wallUTC(t time.Time) time.Time {
	y, mo, d := t.Date()
	h, mi, sec := t.Clock()
	return time.Date(y, mo, d, h, mi, sec, t.Nanosecond(), time.UTC)
}

// Relative is path's slash-separated path below root (its base name when
// root is the file itself).
func Relative(p, root string) string {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return filepath.Base(p)
	}
	return filepath.ToSlash(rel)
}

func anyMatch(patterns []string, rel string) bool {
	for _, p := range patterns {
		if Match(p, rel) {
			return true
		}
	}
	return false
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
