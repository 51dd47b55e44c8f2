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
	"strings"

	"github.com/shoebox-photos/shoebox/internal/layout"
)

// Item is a source file headed for one destination directory, with the
// files that must travel with it under the same stem.
type Item struct {
	Seq        uint64 // identity in the run, stable across the plan
	Src        string // source path
	Size       int64
	Name       string // wanted file name from the template, already made safe
	Companions []Companion
	// Landed are names in this directory that an interrupted run of the
	// same command gave members of this item's group (a sidecar lands
	// before its photo). The item takes the counter they carry when it
	// fits, and a companion of its that wants a landed name finds it
	// claimed by that member, as in the run that was never interrupted:
	// already there with its bytes, else Blocked.
	Landed []string
}

// Companion is a file that keeps its photo's name: a sidecar (XMP, AAE,
// THM, Takeout JSON), the JPEG of a RAW+JPEG pair, the video of a Live
// Photo. Whatever name the photo gets, the companion gets the same stem
// followed by its Suffix, so a conflict rename never separates them.
type Companion struct {
	Src    string
	Size   int64
	Suffix string // what follows the shared stem: ".xmp", ".CR2.xmp", ".MOV"
}

// CompanionOp is the decision for one companion.
type CompanionOp struct {
	Companion
	Action Action
	Name   string
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
	// Blocked: a companion whose name another, different companion of
	// the same item takes (a duplicate's sidecar joined the kept copy,
	// which has its own of that name): it stays where it is. Name is the
	// name it would have had.
	Blocked
)

func (a Action) String() string {
	switch a {
	case SkipIdentical:
		return "skip-identical"
	case Blocked:
		return "blocked"
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
	// Companions, in Item order, share the item's stem (and its counter).
	Companions []CompanionOp
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
		for _, c := range op.Companions {
			if c.Action == Transfer {
				taken[layout.FoldKey(c.Name)] = claim{name: c.Name, size: c.Size, path: c.Src}
			}
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

// resolveOne finds the first counter at which the item and every companion
// are each either free or already there byte for byte.
func resolveOne(it Item, taken map[string]claim, same Same) Op {
	stem, ext := splitExt(it.Name)
	if n, ok := landedCounter(it, stem); ok {
		if op, ok := tryCounter(it, stem, ext, n, taken, same); ok {
			return op
		}
	}
	for n := 0; n <= MaxSuffix; n++ {
		if op, ok := tryCounter(it, stem, ext, n, taken, same); ok {
			return op
		}
	}
	n := lastResortSuffix(it, taken)
	op, _ := tryCounter(it, stem, ext, n, taken, func(string, string) bool { return false })
	return op
}

func tryCounter(it Item, stem, ext string, n int, taken map[string]claim, same Same) (Op, bool) {
	name, nstem := it.Name, stem
	if n > 0 {
		name, nstem = layout.WithSuffix(stem, ext, n), layout.WithSuffix(stem, "", n)
	}
	action, sameAs, ok := fits(name, it.Src, it.Size, taken, same)
	if !ok {
		return Op{}, false
	}
	op := Op{Item: it, Action: action, Name: name, Renamed: n > 0, SameAs: sameAs}
	if action == SkipIdentical {
		op.Name = sameAs
	}
	for _, c := range it.Companions {
		cname := layout.SafeName(nstem + c.Suffix)
		// Two companions of one item cannot both have one name: the first
		// takes it (landing there, or already there), a second with its
		// bytes is already there, a different one stays. This is decided
		// before the name is looked up in the folder, whose entry there
		// is the first's: else a re-run, finding the first already there,
		// took the second's difference for a conflict and landed the
		// whole item again under another number.
		if first, claimed := claimedBy(op.Companions, cname); claimed {
			caction := Blocked
			if first.Size == c.Size && same(c.Src, first.Src) {
				caction = SkipIdentical
			}
			op.Companions = append(op.Companions, CompanionOp{Companion: c, Action: caction, Name: first.Name})
			continue
		}
		if first, landed := landedClaim(it, cname, taken); landed {
			caction := Blocked
			if first.size == c.Size && same(c.Src, first.path) {
				caction = SkipIdentical
			}
			op.Companions = append(op.Companions, CompanionOp{Companion: c, Action: caction, Name: first.name})
			continue
		}
		caction, csame, ok := fits(cname, c.Src, c.Size, taken, same)
		if !ok {
			return Op{}, false
		}
		if caction == SkipIdentical {
			cname = csame
		}
		op.Companions = append(op.Companions, CompanionOp{Companion: c, Action: caction, Name: cname})
	}
	return op, true
}

// claimedBy finds the companion planned earlier in ops that has name
// (compared folded, as every name in a directory is): one that lands
// there or is already there.
func claimedBy(ops []CompanionOp, name string) (CompanionOp, bool) {
	key := layout.FoldKey(name)
	for _, o := range ops {
		if (o.Action == Transfer || o.Action == SkipIdentical) && layout.FoldKey(o.Name) == key {
			return o, true
		}
	}
	return CompanionOp{}, false
}

// landedCounter is the counter at which the item's landed members sit:
// the n whose stem, followed by a dot, begins one of their names.
func landedCounter(it Item, stem string) (int, bool) {
	if len(it.Landed) == 0 {
		return 0, false
	}
	for n := 0; n <= MaxSuffix; n++ {
		nstem := stem
		if n > 0 {
			nstem = layout.WithSuffix(stem, "", n)
		}
		prefix := layout.FoldKey(nstem + ".")
		for _, name := range it.Landed {
			if strings.HasPrefix(layout.FoldKey(name), prefix) {
				return n, true
			}
		}
	}
	return 0, false
}

// landedClaim finds the directory's entry under name when it is one of the
// item's landed members: the name is the group's, not another file's.
func landedClaim(it Item, name string, taken map[string]claim) (claim, bool) {
	key := layout.FoldKey(name)
	c, busy := taken[key]
	if !busy || c.blocked {
		return claim{}, false
	}
	for _, l := range it.Landed {
		if layout.FoldKey(l) == key {
			return c, true
		}
	}
	return claim{}, false
}

// CompanionName is the name a companion with suffix takes beside a file
// named name, at no counter (the name Resolve tries first).
func CompanionName(name, suffix string) string {
	stem, _ := splitExt(name)
	return layout.SafeName(stem + suffix)
}

// fits says whether src may take name: free (Transfer) or holding the same
// bytes already (SkipIdentical, with the name as found).
func fits(name, src string, size int64, taken map[string]claim, same Same) (Action, string, bool) {
	c, busy := taken[layout.FoldKey(name)]
	if !busy {
		return Transfer, "", true
	}
	if !c.blocked && c.size == size && same(src, c.path) {
		return SkipIdentical, c.name, true
	}
	return Transfer, "", false
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
