// Package plan decides, for every source file, what should happen to it in
// the library: transfer under its template name, transfer under a
// conflict-free name, or skip because the library already holds it.
//
// The planner is pure: it sees a destination directory's existing entries and
// the files headed there, and returns operations. The one question it cannot
// answer from names and sizes — are two files byte-identical? — is asked
// through the Same function the caller supplies, so tests answer it from
// memory and the real run answers it from disk.
//
// Work is split by destination directory: the caller streams files sorted by
// target directory (the store does the sorting on disk) and calls Resolve once
// per directory, so memory is bounded by the largest directory, not by the
// number of files.
package plan

import (
	"sort"

	"shoebox/internal/layout"
)

// Item is a source file headed for one destination directory.
type Item struct {
	Seq  uint64 // identity in the run, stable across the plan
	Src  string // source path
	Size int64
	Name string // wanted file name from the template, already made safe
}

// Existing is an entry already present in the destination directory.
type Existing struct {
	Name string
	Size int64
	Dir  bool // a directory (or anything not a regular file) blocks the name but is never "identical"
}

// Action is what happens to a source file.
type Action uint8

const (
	Transfer      Action = iota // goes to Dir/Name
	SkipIdentical               // an identical file is already at Dir/Name (in the library or earlier in this run)
)

func (a Action) String() string {
	if a == SkipIdentical {
		return "skip-identical"
	}
	return "transfer"
}

// Op is the planner's decision for one item.
type Op struct {
	Item    Item
	Action  Action
	Name    string // final name (== Item.Name unless Renamed)
	Renamed bool   // the wanted name was taken by a different file
	SameAs  string // SkipIdentical: the name of the identical file, in the same directory
}

// Same reports whether the source file src has the same bytes as other,
// which is either a source path (planned earlier in this run) or an existing
// destination path. Sizes are already known to match when it is called. An
// error must be reported as false: a wrong "different" only costs a rename,
// a wrong "same" would lose a photo.
type Same func(src, other string) bool

// MaxSuffix bounds the conflict counter. Beyond it the item still gets a
// unique name, built from its sequence number, so planning never fails.
const MaxSuffix = 9999

// Resolve plans one destination directory. dirPath is the directory's full
// path (used to name existing files to Same); items arrive in the order
// their names should be claimed (the caller sorts them: by wanted name, then
// by source path), which makes the result deterministic.
func Resolve(dirPath string, existing []Existing, items []Item, same Same) []Op {
	taken := make(map[string]claim, len(existing)+len(items))
	for _, e := range existing {
		taken[layout.FoldKey(e.Name)] = claim{name: e.Name, size: e.Size, path: join(dirPath, e.Name), blocked: e.Dir}
	}
	ops := make([]Op, 0, len(items))
	for _, it := range items {
		op := resolveOne(it, taken, same)
		if op.Action == Transfer {
			taken[layout.FoldKey(op.Name)] = claim{name: op.Name, size: it.Size, path: it.Src}
		}
		ops = append(ops, op)
	}
	return ops
}

// claim is a name in the directory: an existing file or one planned earlier.
type claim struct {
	name    string
	size    int64
	path    string // where its bytes can be read now
	blocked bool
}

func resolveOne(it Item, taken map[string]claim, same Same) Op {
	stem, ext := splitExt(it.Name)
	for n := 0; n <= MaxSuffix; n++ {
		name := it.Name
		if n > 0 {
			name = layout.WithSuffix(stem, ext, n)
		}
		c, busy := taken[layout.FoldKey(name)]
		if !busy {
			return Op{Item: it, Action: Transfer, Name: name, Renamed: n > 0}
		}
		if !c.blocked && c.size == it.Size && same(it.Src, c.path) {
			return Op{Item: it, Action: SkipIdentical, Name: c.name, SameAs: c.name}
		}
	}
	return Op{Item: it, Action: Transfer, Name: layout.WithSuffix(stem, ext, lastResortSuffix(it, taken)), Renamed: true}
}

// lastResortSuffix finds a free counter above MaxSuffix; reached only when a
// directory already holds ten thousand variants of one name.
func lastResortSuffix(it Item, taken map[string]claim) int {
	stem, ext := splitExt(it.Name)
	n := MaxSuffix + 1 + int(it.Seq%1_000_000)
	for {
		if _, busy := taken[layout.FoldKey(layout.WithSuffix(stem, ext, n))]; !busy {
			return n
		}
		n++
	}
}

// SortItems puts items in claim order: by folded wanted name, then source
// path, so two runs over the same input plan the same names.
func SortItems(items []Item) {
	sort.Slice(items, func(i, j int) bool {
		ki, kj := layout.FoldKey(items[i].Name), layout.FoldKey(items[j].Name)
		if ki != kj {
			return ki < kj
		}
		return items[i].Src < items[j].Src
	})
}

// splitExt splits "IMG_1.jpg" into "IMG_1" and ".jpg"; a leading dot is part
// of the stem (".hidden" has no extension).
func splitExt(name string) (stem, ext string) {
	for i := len(name) - 1; i > 0; i-- {
		switch name[i] {
		case '.':
			return name[:i], name[i:]
		case '/':
			return name, ""
		}
	}
	return name, ""
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	if dir[len(dir)-1] == '/' {
		return dir + name
	}
	return dir + "/" + name
}
