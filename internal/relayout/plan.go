package relayout

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/shoebox-photos/shoebox/internal/importlog"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/plan"
)

// file is a library file the import history records, and that is there.
type file struct {
	full string // its path now
	e    importlog.Entry
	size int64
	mod  time.Time
}

// group is a leader and the files that travel with it, headed for one
// folder of the new layout.
type group struct {
	lead      file
	followers []file
	dir, name string // where the new template puts the leader
}

// move is one planned move.
type move struct {
	f       file
	dst     string
	renamed bool
}

func (m move) move(lib string, err error) Move {
	return Move{From: rel(lib, m.f.full), To: rel(lib, m.dst), Renamed: m.renamed, Err: err}
}

type planned struct {
	lib            string
	files, inPlace int
	moves          []move // a group's followers first, then its leader (as sort lands them)
	left           []Left
}

// planLibrary decides every recorded file's new place.
func planLibrary(ctx context.Context, lib string, hist *importlog.Log, opt Options) (*planned, error) {
	files, err := present(lib, hist)
	if err != nil {
		return nil, err
	}
	p := &planned{lib: lib, files: len(files)}
	groups, err := p.arrange(ctx, lib, files, opt.To)
	if err != nil {
		return nil, err
	}
	byDir := map[string][]*group{}
	for _, g := range groups {
		byDir[g.dir] = append(byDir[g.dir], g)
	}
	dirs := make([]string, 0, len(byDir))
	for d := range byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		if err := p.resolve(filepath.Join(lib, filepath.FromSlash(d)), byDir[d]); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// present lists the files the history records that are in the library
// (a file deleted or replaced by hand is not moved: check reports it).
func present(lib string, hist *importlog.Log) ([]file, error) {
	var out []file
	err := hist.EachPath(func(e importlog.Entry) error {
		full := e.LibraryPath(lib)
		info, err := os.Lstat(full)
		if err != nil || !info.Mode().IsRegular() {
			return nil
		}
		out = append(out, file{full: full, e: e, size: info.Size(), mod: info.ModTime()})
		return nil
	})
	return out, err
}

// arrange groups the files as sort groups its sources: each file's role
// is what sort decides for it in its folder (pipeline.DecideWith), its
// date the one its import recorded.
func (p *planned) arrange(ctx context.Context, lib string, files []file, to *layout.Template) ([]*group, error) {
	leaders := map[string]*group{}
	follows := map[string][]file{}
	var groups []*group
	decider := pipeline.NewDecider(meta.Options{}, pipeline.DecideOptions{}) // one folder listed at a time: files come in path order
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		d, err := decider.Decide(f.full)
		if err != nil {
			p.leave(lib, f, "its metadata could not be read: "+err.Error())
			continue
		}
		switch {
		case d.Role == pipeline.RoleFollows:
			follows[filepath.Clean(d.Leader)] = append(follows[filepath.Clean(d.Leader)], f)
		case d.Role != pipeline.RoleLeads:
			p.leave(lib, f, "sort would leave it in place ("+d.Reason+")")
		case f.e.Taken == 0:
			p.leave(lib, f, "undated: it stays in the folder for undated files")
		default:
			g := &group{lead: f}
			g.dir, g.name = to.Expand(fields(f, d.Info))
			leaders[filepath.Clean(f.full)] = g
			groups = append(groups, g)
		}
	}
	for leader, fs := range follows {
		g := leaders[leader]
		for _, f := range fs {
			if g == nil {
				p.leave(lib, f, "it travels with "+filepath.Base(leader)+", which is not moved")
				continue
			}
			g.followers = append(g.followers, f)
		}
	}
	return groups, nil
}

// fields are the new template's values for a leader: the date its import
// recorded, and the name it had in its source (the library name may be
// an older template's).
func fields(f file, info meta.Info) layout.Fields {
	src := f.e.Src
	if src == "" {
		src = f.full
	}
	base := path.Base(filepath.ToSlash(src))
	ext := path.Ext(base)
	return layout.Fields{Time: time.Unix(0, f.e.Taken).UTC(), Name: strings.TrimSuffix(base, ext), Ext: ext,
		Make: info.Make, Model: info.Model, Kind: info.Kind.String(), Dir: filepath.Dir(src)}
}

func (p *planned) leave(lib string, f file, why string) {
	p.left = append(p.left, Left{Path: rel(lib, f.full), Reason: why})
}

// resolve plans one folder of the new layout with sort's planner. A file
// is only ever "the same" as itself: a file already at its new name stays,
// and a name another file holds (even one moving away) is not taken: the
// counter sort adds for a conflict is.
func (p *planned) resolve(dir string, groups []*group) error {
	existing, err := listDir(dir)
	if err != nil {
		return err
	}
	// Claim order: by wanted name; of two files that want one name, the
	// one that has it now keeps it (the fewest renames), then by source
	// path, compared with / on every system so that Windows plans as
	// Linux does.
	sort.Slice(groups, func(i, j int) bool {
		gi, gj := groups[i], groups[j]
		if gi.name != gj.name {
			return gi.name < gj.name
		}
		if ki, kj := gi.keepsName(), gj.keepsName(); ki != kj {
			return ki
		}
		return filepath.ToSlash(gi.lead.e.Src) < filepath.ToSlash(gj.lead.e.Src)
	})
	items := make([]plan.Item, len(groups))
	for i, g := range groups {
		items[i] = plan.Item{Seq: uint64(i), Src: g.lead.full, Size: g.lead.size, Name: g.name}
		for _, f := range g.followers {
			items[i].Companions = append(items[i].Companions, plan.Companion{Src: f.full, Size: f.size, Suffix: companionSuffix(f)})
		}
	}
	same := func(src, other string) bool { return filepath.Clean(src) == filepath.Clean(other) }
	for _, op := range plan.Resolve(dir, existing, items, same) {
		g := groups[op.Item.Seq]
		for i, c := range op.Companions {
			p.add(g.followers[i], c.Action, filepath.Join(dir, c.Name), op.Renamed)
		}
		p.add(g.lead, op.Action, filepath.Join(dir, op.Name), op.Renamed)
	}
	return nil
}

// keepsName reports whether the group's leader has its wanted name now.
func (g *group) keepsName() bool { return filepath.Base(g.lead.full) == g.name }

// companionSuffix is what a follower keeps after its leader's new stem.
func companionSuffix(f file) string {
	return pipeline.SuffixAfterStem(f.full)
}

func (p *planned) add(f file, a plan.Action, dst string, renamed bool) {
	switch {
	case a == plan.SkipIdentical:
		p.inPlace++
	case a == plan.Blocked:
		p.left = append(p.left, Left{Path: rel(p.lib, f.full), Reason: "its name beside its photo is taken by another of its group"})
	default:
		p.moves = append(p.moves, move{f: f, dst: dst, renamed: renamed})
	}
}

// listDir lists a target folder's entries for the planner ("" when it does
// not exist yet).
func listDir(dir string) ([]plan.Existing, error) {
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := make([]plan.Existing, 0, len(des))
	for _, de := range des {
		e := plan.Existing{Name: de.Name(), Dir: !de.Type().IsRegular()}
		if info, err := de.Info(); err == nil && !e.Dir {
			e.Size = info.Size()
		}
		out = append(out, e)
	}
	return out, nil
}

func rel(lib, full string) string {
	r, err := filepath.Rel(lib, full)
	if err != nil {
		return filepath.ToSlash(full)
	}
	return filepath.ToSlash(r)
}
