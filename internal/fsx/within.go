package fsx

import (
	"os"
	"path/filepath"
	"strings"
)

// Within reports whether p is root or lies under it, by name (absolute,
// cleaned) and by identity: p itself and each existing folder above it is
// compared with root by device and inode, which sees through symbolic
// links and the other spellings of a name on a
// case-insensitive filesystem, and by place in the filesystem (the mount
// table), which sees through bind mounts. p need not exist yet (a folder still to be
// made is judged by the folders above it); a root that does not exist
// holds nothing but what its name holds.
//
// It is the one rule for every path that must stay out of a folder: a
// report out of the sources and the library, a backup folder apart from
// both (each way round).
func Within(p, root string) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	rootAbs, err := filepath.Abs(root)
	if err != nil {
		return false
	}
	// By name, as given and with every link on the way resolved (as far
	// as the path exists; "link/.." is cleaned as given, resolved by the
	// kernel): also when root does not exist yet.
	realAbs := realPath(abs)
	if nameUnder(abs, rootAbs) || nameUnder(realAbs, realPath(rootAbs)) {
		return true
	}
	// By place in the filesystem: a bind mount names a folder twice.
	if dev, at, ok := fsPlace(realAbs); ok {
		if rdev, rootAt, ok := fsPlace(realPath(rootAbs)); ok && dev == rdev && nameUnder(at, rootAt) {
			return true
		}
	}
	// By identity: p and the folders above it, as named and as resolved
	// (another spelling of a name on a case-insensitive filesystem).
	rootSt, err := os.Stat(rootAbs)
	if err != nil {
		return false
	}
	return folderUnder(abs, rootSt) || folderUnder(realAbs, rootSt)
}

// nameUnder: p is root or below it, by name.
func nameUnder(p, root string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// realPath is p with every symbolic link on its way resolved, as far as
// it exists (the rest, still to be created, appended as given).
func realPath(p string) string {
	var rest []string
	for d := p; ; d = filepath.Dir(d) {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			return filepath.Join(append([]string{r}, rest...)...)
		}
		if d == filepath.Dir(d) {
			return p
		}
		rest = append([]string{filepath.Base(d)}, rest...)
	}
}

// folderUnder reports whether p or one of the folders above it is root
// (p itself may be root by another name: a source given as a file).
func folderUnder(p string, root os.FileInfo) bool {
	for {
		if st, err := os.Stat(p); err == nil && os.SameFile(st, root) {
			return true
		}
		if p == filepath.Dir(p) {
			return false
		}
		p = filepath.Dir(p)
	}
}
