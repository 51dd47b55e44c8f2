package fsx

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// InsideStateError says that a folder or file shoebox was asked to make
// (a library, a backup, a report) would be inside a library's state
// folder, where that library's stores delete, as obsolete, any file named
// like one of theirs (000099.sst, 000050.log).
type InsideStateError struct {
	What   string // "the library", "--backup", "--report"
	Path   string // as given
	Origin string // the config file that set Path; "" when typed
	State  string // the state folder it is inside
}

func (e *InsideStateError) Error() string {
	from := ""
	if e.Origin != "" {
		from = fmt.Sprintf(" (set in %s)", quote.Path(e.Origin))
	}
	return fmt.Sprintf("%s %s%s is inside %s, a folder shoebox keeps its state in (whichever library's it is): what is put there can be deleted by that library's next sort; pick a folder outside it",
		e.What, quote.Path(e.Path), from, quote.Path(e.State))
}

// OutsideState refuses p when it is, or lies inside, a folder shoebox owns
// (StateFolderOf); what names p in the error ("the library", "--backup").
func OutsideState(what, p string) error {
	if state, ok := StateFolderOf(p); ok {
		return &InsideStateError{What: what, Path: p, State: state}
	}
	return nil
}

// StateFolderOf returns the state folder (".shoebox", under any spelling
// some filesystem opens as it: layout.IsStateDirName) that p is or lies
// inside, whichever library it belongs to. p is judged as given (cleaned),
// as an absolute path, and as the filesystem resolves it, every symbolic
// link on the way followed and each ".." taken from where the link
// before it leads: a link into some .shoebox is seen. p need not exist.
func StateFolderOf(p string) (string, bool) {
	if state, ok := stateComponent(filepath.Clean(p)); ok {
		return state, true
	}
	if abs, err := filepath.Abs(p); err == nil {
		if state, ok := stateComponent(abs); ok {
			return state, true
		}
	}
	return stateComponent(physicalPath(p))
}

// stateComponent returns the innermost prefix of the clean path p whose
// last element names a state folder.
func stateComponent(p string) (string, bool) {
	for d := p; ; d = filepath.Dir(d) {
		if layout.IsStateDirName(filepath.Base(d)) {
			return d, true
		}
		if d == filepath.Dir(d) || d == "." {
			return "", false
		}
	}
}

// physicalPath is p as the kernel walks it: absolute, each existing
// element resolved through its symbolic links before the next is taken,
// so "link/.." is the folder above the link's target, not the folder the
// link is in (which filepath.Clean and so filepath.Abs would give). The
// part that does not exist yet, holding no link, is cleaned by name.
func physicalPath(p string) string {
	if !filepath.IsAbs(p) {
		wd, err := os.Getwd()
		if err != nil {
			return filepath.Clean(p)
		}
		p = wd + string(filepath.Separator) + p
	}
	vol := filepath.VolumeName(p)
	cur := vol + string(filepath.Separator)
	exists := true
	for _, elem := range strings.FieldsFunc(p[len(vol):], isSeparator) {
		switch {
		case elem == ".":
		case elem == "..":
			cur = filepath.Dir(cur) // cur holds no link: its parent by name is its parent
		case exists:
			next := filepath.Join(cur, elem)
			if real, err := filepath.EvalSymlinks(next); err == nil {
				cur = real
			} else {
				cur, exists = next, false
			}
		default:
			cur = filepath.Join(cur, elem)
		}
	}
	return cur
}

func isSeparator(r rune) bool { return r < 0x80 && os.IsPathSeparator(uint8(r)) }

// stateMarks are entries only shoebox makes in a library's state folder:
// the lock (store), the journal of runs (journal), the library's hash
// index and import history (pipeline, importlog) and its config (config).
// One of them tells a library from a user's folder that happens to be
// called .shoebox.
var stateMarks = []string{"lock", "journal", "index", "imports", "config.toml"}

// IsLibraryState reports whether path is a library's state folder: named
// exactly as shoebox makes it, in a folder that IsLibrary.
func IsLibraryState(path string) bool {
	return filepath.Base(path) == layout.StateDirName && IsLibrary(filepath.Dir(path))
}

// IsLibrary reports whether dir is a shoebox library: it holds a state
// folder that is a real folder (never a link: shoebox keeps its state only
// in one) with at least one of shoebox's own entries in it.
func IsLibrary(dir string) bool {
	state := filepath.Join(dir, layout.StateDirName)
	if fi, err := os.Lstat(state); err != nil || !fi.IsDir() {
		return false
	}
	for _, m := range stateMarks {
		if _, err := os.Lstat(filepath.Join(state, m)); err == nil {
			return true
		}
	}
	return false
}
