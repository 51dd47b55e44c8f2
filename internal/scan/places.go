package scan

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// rootInfo is what the walk knows about one root before reading it.
type rootInfo struct {
	clean     string      // filepath.Clean(root): the prefix of emitted paths
	real      string      // absolute, symlinks resolved: for containment tests
	info      fs.FileInfo // os.Stat: roots themselves are always followed
	err       error
	coveredBy int // index of a root whose walk reaches this one, or -1
}

// places answers "is this spot reached by the walk anyway?" and "must this
// directory never be entered?". It is built once and then only read, so
// readers share it without locks.
type places struct {
	roots       []rootInfo
	hidden      bool
	excludeIDs  map[fileID]bool
	excludeReal []string
}

func newPlaces(roots []string, opt Options) *places {
	p := &places{hidden: opt.Hidden, excludeIDs: map[fileID]bool{}}
	for _, dir := range opt.Exclude {
		p.addExclude(dir)
	}
	for _, root := range roots {
		p.roots = append(p.roots, resolveRoot(root))
	}
	for i := range p.roots {
		p.roots[i].coveredBy = p.coveringRoot(i)
	}
	return p
}

func (p *places) addExclude(dir string) {
	if real, err := realPath(dir); err == nil {
		p.excludeReal = append(p.excludeReal, real)
	} else {
		p.excludeReal = append(p.excludeReal, filepath.Clean(dir))
	}
	if id, ok := statID(dir); ok {
		p.excludeIDs[id] = true
	}
}

func resolveRoot(root string) rootInfo {
	r := rootInfo{clean: filepath.Clean(root), coveredBy: -1}
	r.info, r.err = os.Stat(r.clean)
	if r.err != nil {
		r.err = unwrapPathError(r.err)
		return r
	}
	r.real, r.err = realPath(r.clean)
	return r
}

// coveringRoot finds a root whose walk already reaches root i; of two
// roots that reach each other (the same directory twice) the first wins.
func (p *places) coveringRoot(i int) int {
	ri := p.roots[i]
	if ri.err != nil {
		return -1
	}
	for j, rj := range p.roots {
		if j == i || rj.err != nil || !p.reaches(rj, ri.real) {
			continue
		}
		if !p.reaches(ri, rj.real) || j < i {
			return j
		}
	}
	return -1
}

// reaches reports whether walking root r arrives at the real path target
// without crossing a filtered name or an excluded directory.
func (p *places) reaches(r rootInfo, target string) bool {
	rel, ok := within(r.real, target)
	if !ok || p.insideExcluded(target) {
		return false
	}
	if !r.info.IsDir() {
		return rel == ""
	}
	if p.hidden || rel == "" {
		return true
	}
	for _, name := range strings.Split(rel, string(filepath.Separator)) {
		if IsClutter(name) {
			return false
		}
	}
	return true
}

// reachedAnyway reports whether a symlink at linkPath need not be followed:
// its target is reached by walking some root, or lies where the walk must
// never go.
func (p *places) reachedAnyway(linkPath string) bool {
	target, err := realPath(linkPath)
	if err != nil {
		return false
	}
	if p.insideExcluded(target) {
		return true
	}
	for _, r := range p.roots {
		if r.err == nil && p.reaches(r, target) {
			return true
		}
	}
	return false
}

func (p *places) insideExcluded(target string) bool {
	for _, e := range p.excludeReal {
		if _, ok := within(e, target); ok {
			return true
		}
	}
	return false
}

func (p *places) excluded(id fileID) bool {
	return p.excludeIDs[id]
}

// within returns target relative to base when target is base or below it.
func within(base, target string) (string, bool) {
	if target == base {
		return "", true
	}
	prefix := base // the system's separator: a root and its child given on Windows were walked twice
	if sep := string(filepath.Separator); !strings.HasSuffix(prefix, sep) {
		prefix += sep
	}
	if strings.HasPrefix(target, prefix) {
		return target[len(prefix):], true
	}
	return "", false
}

func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}
