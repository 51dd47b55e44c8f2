//go:build linux || darwin

package eject

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/scan"
)

// A card may be removed only when every photo and video on it is in the
// library. What the run met and left on the card it says itself
// (Request.Left: left out by a filter, imported before and since deleted
// in the library …). What it never met is found by a look at the whole
// volume: every file whose name says photo or video (meta.KindByName,
// the classification of a file that cannot be read) that is not under a
// source, or is under one but where the scan does not go (hidden names
// and system clutter without --hidden, another shoebox library). Files
// that are no photo or video by name (text, settings, .THM and .xmp
// sidecars), empty files and a Mac's ._ AppleDouble files keep nothing.
// The look never follows a link, never enters another mount, and stops
// after walkCap entries, the card then staying mounted.

// walkCap bounds the look at a volume: a card holds thousands of files;
// a disk of millions is not checked whole, so it is not unmounted.
var walkCap = 1_000_000

// volume is a mounted filesystem, as the look at it needs it.
type volume struct {
	point string          // its mount point, links resolved
	inner map[string]bool // mount points below point, never entered (nil: the device check alone)
}

// source is one SRC on the volume: as given, and its real path.
type source struct{ given, real string }

// staysOn decides whether a volume may go: it returns the photos and
// videos on it that are in no library (Stays.Keeps false: every one is),
// from what the run left on the sources there and a look at the volume.
func staysOn(v volume, srcs []source, req Request) Stays {
	var t tally
	dev, err := devOf(v.point)
	if err != nil {
		return Stays{Unchecked: fmt.Sprintf("could not look at it: %v", err)}
	}
	for _, l := range req.Left {
		if p, ok := withinAny(l.Path, srcs); ok {
			t.add(p, l.Why)
		} else if _, ok := withinAny(l.Path, given(req.Sources)); !ok {
			t.add(l.Path, l.Why) // under no source as named: on every volume, to be safe
		}
	}
	t.walk(v, dev, srcs, req.Hidden)
	return t.stays()
}

// withinAny maps a path the run named to its real path under the first
// of srcs it is in.
func withinAny(path string, srcs []source) (string, bool) {
	for _, s := range srcs {
		if p, ok := within(path, s); ok {
			return p, true
		}
	}
	return "", false
}

// given is the sources as named, for matching only.
func given(sources []string) []source {
	out := make([]source, len(sources))
	for i, s := range sources {
		out[i] = source{given: s}
	}
	return out
}

// within maps a path the run named under a SRC (as given, or made
// absolute) to its real path.
func within(path string, s source) (string, bool) {
	base := s.given
	if filepath.IsAbs(path) && !filepath.IsAbs(base) {
		abs, err := filepath.Abs(base)
		if err != nil {
			return "", false
		}
		base = abs
	}
	rel, err := filepath.Rel(filepath.Clean(base), filepath.Clean(path))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.Join(s.real, rel), true
}

// tally counts what stays, keeping the first Listed paths by name.
type tally struct {
	count     int
	paths     []string // sorted, at most Listed
	whys      map[string]bool
	entries   int
	unchecked string
}

func (t *tally) add(path, why string) {
	t.count++
	if t.whys == nil {
		t.whys = map[string]bool{}
	}
	t.whys[why] = true
	i := sort.SearchStrings(t.paths, path)
	if i >= Listed {
		return
	}
	t.paths = append(t.paths, "")
	copy(t.paths[i+1:], t.paths[i:])
	t.paths[i] = path
	if len(t.paths) > Listed {
		t.paths = t.paths[:Listed]
	}
}

func (t *tally) stays() Stays {
	s := Stays{Count: t.count, Paths: t.paths, Unchecked: t.unchecked}
	for w := range t.whys {
		s.Whys = append(s.Whys, w)
	}
	sort.Strings(s.Whys)
	return s
}

// Why a photo or video the run never met stays.
const (
	whyOutside = "outside the folders sorted"
	whyHidden  = "hidden, which sort skips without --hidden"
	whyClutter = "in a system folder, which sort skips without --hidden"
	whyLibrary = "in another shoebox library, which sort does not enter"
)

// walk looks at the whole volume for photos and videos the run never met.
func (t *tally) walk(v volume, dev uint64, srcs []source, hidden bool) {
	// visit looks at dir and below; false: the cap is reached, stop.
	var visit func(dir string, inLibrary bool) bool
	visit = func(dir string, inLibrary bool) bool {
		ents, err := os.ReadDir(dir)
		if err != nil {
			if filepath.Dir(dir) == v.point && filepath.Base(dir) == "lost+found" {
				return true // fsck's folder on ext4, root's alone: no camera writes there
			}
			if t.unchecked == "" {
				t.unchecked = fmt.Sprintf("could not read %s: %v", dir, unwrap(err))
			}
			return true // the rest is still looked at, and counted
		}
		isLib := false
		for _, e := range ents {
			if e.Name() == layout.StateDirName && e.IsDir() && fsx.IsLibrary(dir) {
				isLib = true
			}
		}
		// A library given as a source is walked by the scan, so only one
		// below a source (or outside every one) is another library.
		if isLib && !isRoot(dir, srcs) {
			inLibrary = true
		}
		for _, e := range ents {
			if t.entries++; t.entries > walkCap {
				t.unchecked = fmt.Sprintf("the look at it stopped after %d files and folders", walkCap)
				return false
			}
			p := filepath.Join(dir, e.Name())
			switch {
			case e.Type()&fs.ModeSymlink != 0:
				continue // never followed: what it leads to is looked at where it is, or is elsewhere
			case e.IsDir():
				if v.inner[p] || isLib && e.Name() == layout.StateDirName || !sameDev(p, dev) {
					continue // another mount, or shoebox's own state folder
				}
				if !visit(p, inLibrary) {
					return false
				}
			case e.Type().IsRegular():
				if why := unmet(p, e, srcs, hidden, inLibrary); why != "" {
					t.add(p, why)
				}
			}
		}
		return true
	}
	visit(v.point, false)
}

// unmet says why the run never met a photo or video at p ("" when it is
// none, or when the run met it and said what became of it).
func unmet(p string, e fs.DirEntry, srcs []source, hidden, inLibrary bool) string {
	k := meta.KindByName(e.Name())
	if k != meta.KindPhoto && k != meta.KindVideo || strings.HasPrefix(e.Name(), "._") {
		return ""
	}
	if fi, err := e.Info(); err != nil || fi.Size() == 0 {
		return "" // gone since, or empty: nothing to lose
	}
	for _, s := range srcs {
		rel, ok := below(p, s.real)
		if !ok {
			continue
		}
		if !hidden {
			for _, part := range strings.Split(rel, string(filepath.Separator)) {
				switch {
				case strings.HasPrefix(part, "."):
					return whyHidden
				case scan.IsClutter(part):
					return whyClutter
				}
			}
		}
		if inLibrary {
			return whyLibrary
		}
		return "" // the run met it: Request.Left says if it stays
	}
	return whyOutside
}

// below gives p relative to root when p is root or inside it ("" for root).
func below(p, root string) (string, bool) {
	if p == root {
		return "", true
	}
	prefix := root
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	rel, ok := strings.CutPrefix(p, prefix)
	return rel, ok
}

func isRoot(dir string, srcs []source) bool {
	for _, s := range srcs {
		if s.real == dir {
			return true
		}
	}
	return false
}

// sameDev reports whether p (not followed) is on the device dev.
func sameDev(p string, dev uint64) bool {
	d, err := devOf(p)
	return err == nil && d == dev
}

// devOf is the st_dev of p, not followed.
func devOf(p string) (uint64, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return 0, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, fmt.Errorf("no device number for %s", p)
	}
	return uint64(st.Dev), nil
}

// resolve is p absolute with its links resolved; a part that does not
// exist yet (a library the run never created) is kept as given below
// the deepest folder that does.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for {
		real, err := filepath.EvalSymlinks(abs)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return "", err
		}
		rest, abs = filepath.Join(filepath.Base(abs), rest), parent
	}
}

// unwrap drops the path an error repeats.
func unwrap(err error) error {
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
