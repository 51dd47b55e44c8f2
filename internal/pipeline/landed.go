package pipeline

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/plan"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/recovery"
)

// A run killed part way has landed some members of a group and not others:
// companions go first, so a sidecar or a Live Photo's movie can be in the
// library while its photo is still on the card. The same command run again
// must give that photo the name one uninterrupted run gives it, beside what
// landed, and must not let another file take the landed member's place in
// the group: a duplicate's sidecar joins the kept photo only when the
// photo has no sidecar of that name, and the one that landed is that
// sidecar still (chaos seed 891196002).
//
// What the unfinished runs of this same command landed is read from their
// journals (recovery.Resumed), once per run and only when it can matter:
// a {counter} template (counter.go) or a folder that already holds a name a
// group wants.

// landedFile is one file an unfinished run of this command put in the
// library: its folder (folded) and its name there.
type landedFile struct {
	dir  string
	name string
}

// loadLanded reads, once, what the runs this one resumes landed, by source
// and by the source's shot (shotKey): a member that landed whole may be in
// no group of this run any more (moved off the card, or found by dedup).
func (r *Run) loadLanded() error {
	if r.landedBySrc != nil {
		return nil
	}
	r.landedBySrc = map[string][]landedFile{}
	err := recovery.Resumed(context.Background(), r.dest, r.cfg.FS, r.cfg.Args, func(src, dst string) {
		f := landedFile{dir: layout.FoldKey(filepath.Dir(dst)), name: filepath.Base(dst)}
		r.landedBySrc[src] = append(r.landedBySrc[src], f)
		if k := shotKey(src); k != src {
			r.landedBySrc[k] = append(r.landedBySrc[k], f)
		}
	})
	if err != nil {
		return fmt.Errorf("read what the interrupted run landed in %s: %w", quote.Path(r.dest), err)
	}
	return nil
}

// landedNames are the names in dir that the runs this one resumes gave
// members of p's group (p itself, its companions, its shot).
func (r *Run) landedNames(dir string, p planned) []string {
	key := layout.FoldKey(dir)
	seen := map[string]bool{}
	var names []string
	add := func(src string) {
		for _, f := range r.landedBySrc[src] {
			if f.dir == key && !seen[layout.FoldKey(f.name)] {
				seen[layout.FoldKey(f.name)] = true
				names = append(names, f.name)
			}
		}
	}
	add(p.Src)
	add(shotKey(p.Src))
	for _, c := range p.Companions {
		add(c.Src)
		add(shotKey(c.Src))
	}
	return names
}

// holdsWantedName reports whether a folder's listing has a name one of
// the batch's groups may want (listDir read its size): only then can what
// a killed run landed there change a name.
func holdsWantedName(existing []plan.Existing) bool {
	for _, ex := range existing {
		if ex.Size >= 0 {
			return true
		}
	}
	return false
}
