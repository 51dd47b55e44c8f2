package pipeline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/shift"
)

// A --shift rule that names no file of the run is most often a typo in a
// camera model ("NIKON D7" for "NIKON D70") or a folder. Accepted in
// silence, the run files that camera's photos under its wrong clock and
// says nothing; the plan stage therefore notes which rules named a file
// and which camera models it saw, and warns of each rule that named none,
// with the models seen, so the right spelling is one look away.

// shiftUse is what the plan stage saw of the --shift rules.
type shiftUse struct {
	used   map[string]bool // rule text → it named a file
	models []string        // camera models seen, first spelling, at most maxModelsShown+1
	folded map[string]bool
}

// maxModelsShown bounds the models a warning lists (and the memory kept).
const maxModelsShown = 12

// note records one file of the run: the rule that names it, its model.
// Files recognised from the import history have no header read, and no
// model: they neither use a rule nor add a model.
func (u *shiftUse) note(fi fileInfo, rules *shift.Rules) {
	if rules.Empty() || !isMedia(fi.Info.Kind) {
		return
	}
	if u.used == nil {
		u.used, u.folded = map[string]bool{}, map[string]bool{}
	}
	if rule, ok := rules.For(fi.File.Path, fi.Info.Model); ok {
		u.used[rule.Text] = true
	}
	m := strings.Join(strings.Fields(fi.Info.Model), " ")
	key := strings.ToLower(m)
	if m == "" || u.folded[key] || len(u.models) > maxModelsShown {
		return
	}
	u.folded[key] = true
	u.models = append(u.models, m)
}

// unused returns a warning for each rule that named no file of the run.
func (u *shiftUse) unused(rules *shift.Rules) []string {
	var out []string
	for _, rule := range rules.All() {
		if u.used[rule.Text] {
			continue
		}
		why := "no photo or video of this run was read"
		switch {
		case rule.Folder != "":
			why = "no photo or video of this run is in that folder"
		case rule.Model != "":
			why = "no photo or video of this run is from that camera model"
			if seen := u.seen(); seen != "" {
				why += "; models seen: " + seen
			}
		}
		out = append(out, fmt.Sprintf("--shift %q matched no file: %s", rule.Text, why))
	}
	return out
}

// seen lists the models seen, sorted, "…" when there were more.
func (u *shiftUse) seen() string {
	shown := slices.Clone(u.models)
	more := len(shown) > maxModelsShown
	if more {
		shown = shown[:maxModelsShown]
	}
	slices.SortFunc(shown, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	s := strings.Join(shown, ", ")
	if more {
		s += ", …"
	}
	return s
}
