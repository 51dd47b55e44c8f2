// Package shift corrects a camera's clock at import (`sort --shift`), the
// ExifTool `-AllDates+=` use case without touching the source: a rule
// names whose clock was off — a camera model, a source folder, or every
// file — and by how much, and the capture date is moved by that much
// before the layout is applied.
package shift

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Rule is one --shift as given.
type Rule struct {
	Text   string        // as typed, for messages and records
	Model  string        // camera model (EXIF Model), folded; "" when not a model rule
	Folder string        // absolute, cleaned source folder; "" when not a folder rule
	By     time.Duration // added to the capture wall clock
}

// Rules are the shifts of one run. The zero value (and nil) shifts nothing.
type Rules struct{ rules []Rule }

// FolderPrefix introduces a folder rule: folder:PATH=DURATION.
const FolderPrefix = "folder:"

// maxShift bounds a shift: a clock set a few years off is a real mistake,
// a shift of centuries is a typo.
const maxShift = 100 * 366 * 24 * time.Hour

// Parse reads --shift values: "[WHO=]DURATION", where WHO is a camera
// model (as EXIF Model says it, case ignored) or folder:PATH (a source
// folder, relative to the working directory or absolute), and no WHO
// means every file. DURATION is a sign and days, hours, minutes, seconds:
// +1h30m, -2d3h, +45s. A file takes the most specific rule: its deepest
// folder rule, else its model's, else the one for every file.
func Parse(specs []string) (*Rules, error) {
	rs := &Rules{}
	seen := map[string]string{}
	for _, s := range specs {
		r, err := parseOne(s)
		if err != nil {
			return nil, fmt.Errorf("--shift %q: %w", s, err)
		}
		key := "model\x00" + r.Model
		if r.Folder != "" {
			key = "folder\x00" + r.Folder
		}
		if prev, ok := seen[key]; ok {
			return nil, fmt.Errorf("--shift %q: the same files are already shifted by --shift %q; give one shift for them", s, prev)
		}
		seen[key] = s
		rs.rules = append(rs.rules, r)
	}
	return rs, nil
}

func parseOne(s string) (Rule, error) {
	r := Rule{Text: s}
	who, dur := "", strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '='); i >= 0 {
		who, dur = strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:])
		if who == "" {
			return r, errors.New("nothing before '=': give a camera model (MODEL=+1h), folder:PATH=+1h, or only the shift (+1h) for every file")
		}
		if dur == "" {
			return r, errors.New("nothing after '=': give the shift, such as +1h30m or -2d")
		}
	}
	by, err := ParseDuration(dur)
	if err != nil {
		return r, err
	}
	r.By = by
	if path, ok := strings.CutPrefix(who, FolderPrefix); ok {
		if strings.TrimSpace(path) == "" {
			return r, errors.New("folder: needs a path, e.g. folder:/media/card/DCIM/100CANON=+1h")
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return r, err
		}
		r.Folder = abs
		return r, nil
	}
	r.Model = foldModel(who)
	return r, nil
}

// ParseDuration reads a signed shift: +1h30m, -2d3h, 45s, +0d (the sign
// is optional; days are 24 hours, since a camera clock knows no DST).
func ParseDuration(s string) (time.Duration, error) {
	bad := fmt.Errorf("%q is not a shift: want a sign and days, hours, minutes or seconds, such as +1h30m, -2d3h or +45s", s)
	neg, whole := false, s
	switch {
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	case strings.HasPrefix(s, "-"):
		s, neg = s[1:], true
	}
	if s == "" {
		return 0, bad
	}
	units := []struct {
		letter byte
		size   time.Duration
	}{{'d', 24 * time.Hour}, {'h', time.Hour}, {'m', time.Minute}, {'s', time.Second}}
	var total time.Duration
	next := 0 // units must come in order, each at most once
	for s != "" {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i == len(s) || i > 9 {
			return 0, bad
		}
		n, _ := strconv.Atoi(s[:i])
		u := next
		for u < len(units) && units[u].letter != s[i] {
			u++
		}
		if u == len(units) {
			return 0, bad
		}
		if time.Duration(n) > (maxShift-total)/units[u].size {
			return 0, fmt.Errorf("%q: a shift of more than 100 years is surely a typo", whole)
		}
		total += time.Duration(n) * units[u].size
		next, s = u+1, s[i+1:]
	}
	if neg {
		total = -total
	}
	return total, nil
}

// foldModel is how models are compared: case ignored, runs of spaces one.
func foldModel(m string) string { return strings.ToLower(strings.Join(strings.Fields(m), " ")) }

// All returns the rules in the order given.
func (rs *Rules) All() []Rule {
	if rs == nil {
		return nil
	}
	return rs.rules
}

// Empty reports whether no rule is given.
func (rs *Rules) Empty() bool { return rs == nil || len(rs.rules) == 0 }

// For returns the rule for a file at path whose EXIF Model is model: its
// deepest folder rule, else its model's, else the rule for every file.
func (rs *Rules) For(path, model string) (Rule, bool) {
	if rs.Empty() {
		return Rule{}, false
	}
	var best Rule
	found := false
	dir := ""
	for _, r := range rs.rules {
		if r.Folder == "" {
			continue
		}
		if dir == "" {
			abs, err := filepath.Abs(path)
			if err != nil {
				break
			}
			dir = filepath.Dir(abs)
		}
		if within(dir, r.Folder) && (!found || len(r.Folder) > len(best.Folder)) {
			best, found = r, true
		}
	}
	if found {
		return best, true
	}
	m := foldModel(model)
	var every *Rule
	for i, r := range rs.rules {
		switch {
		case r.Folder != "":
		case r.Model == "":
			every = &rs.rules[i]
		case m != "" && r.Model == m:
			return r, true
		}
	}
	if every != nil {
		return *every, true
	}
	return Rule{}, false
}

// within reports whether dir is folder or lies below it.
func within(dir, folder string) bool {
	rel, err := filepath.Rel(folder, dir)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// Format writes a shift as it is typed: +1h30m, -2d3h, +0s.
func Format(d time.Duration) string {
	sign := "+"
	if d < 0 {
		sign, d = "-", -d
	}
	var b strings.Builder
	b.WriteString(sign)
	for _, u := range []struct {
		letter string
		size   time.Duration
	}{{"d", 24 * time.Hour}, {"h", time.Hour}, {"m", time.Minute}, {"s", time.Second}} {
		if n := d / u.size; n > 0 {
			fmt.Fprintf(&b, "%d%s", n, u.letter)
			d -= n * u.size
		}
	}
	if b.Len() == 1 {
		b.WriteString("0s")
	}
	return b.String()
}
