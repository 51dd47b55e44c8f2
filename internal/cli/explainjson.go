package cli

import (
	"encoding/json"
	"path/filepath"
	"time"

	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/shift"
)

// explainFile is one line of explain --json: a file, every date found in
// it and the verdict sort reaches (docs/json.md).
type explainFile struct {
	Type       string         `json:"type"` // "file"
	Path       string         `json:"path"`
	PathBytes  []byte         `json:"path_bytes,omitempty"`
	Kind       string         `json:"kind"`
	Format     string         `json:"format,omitempty"`
	Make       string         `json:"make,omitempty"`
	Model      string         `json:"model,omitempty"`
	ContentID  string         `json:"content_id,omitempty"`
	Warning    string         `json:"warning,omitempty"`
	Notes      []string       `json:"notes,omitempty"` // what explain could not see that sort would (an archive series' missing part)
	Candidates []explainCand  `json:"candidates"`
	Verdict    explainVerdict `json:"verdict"`
}

type explainCand struct {
	Tag    string `json:"tag"`
	Raw    string `json:"raw"`
	Date   string `json:"date,omitempty"`   // wall clock, as op lines write it; absent when rejected
	Offset string `json:"offset,omitempty"` // "+02:00" when known
	Source string `json:"source"`
	Note   string `json:"note,omitempty"`   // why rejected, or where the offset came from
	Chosen bool   `json:"chosen,omitempty"` // the date that wins
}

type explainVerdict struct {
	Role        string `json:"role"`                  // leads, follows, orphan, ignored
	Date        string `json:"date,omitempty"`        // the date the file is filed under; absent: the unknown folder
	DateSource  string `json:"date_source,omitempty"` // as in sort's op lines
	DateTag     string `json:"date_tag,omitempty"`
	Folder      string `json:"folder,omitempty"`       // the default layout's folder: 2019/2019-07-04, or "unknown"
	TravelsWith string `json:"travels_with,omitempty"` // follows: the file it goes with
	Reason      string `json:"reason,omitempty"`       // orphan, ignored: why it stays
	Shift       string `json:"shift,omitempty"`        // --shift moved the date: "+1h30m"
	ShiftRule   string `json:"shift_rule,omitempty"`   // the rule as typed
	Unshifted   string `json:"unshifted_date,omitempty"`
	DateNote    string `json:"date_note,omitempty"` // no date: why a date found was not used (a copy's mtime)
}

func explainJSON(enc *json.Encoder, path string, d pipeline.Decision) {
	in := d.Info
	f := explainFile{Type: "file", Path: path, PathBytes: rawBytes(path), Kind: in.Kind.String(), Format: in.Format,
		Make: in.Make, Model: in.Model, ContentID: in.ContentID, Warning: in.Warning, Notes: d.Notes, Candidates: []explainCand{}}
	for _, c := range in.Candidates {
		f.Candidates = append(f.Candidates, explainCand{Tag: c.Tag, Raw: c.Raw, Date: wallString(c.Date), Offset: offsetString(c.Date),
			Source: c.Source.String(), Note: d.Note(c), Chosen: d.Chosen(c)})
	}
	v := explainVerdict{Role: string(d.Role)}
	switch d.Role {
	case pipeline.RoleIgnored, pipeline.RoleOrphan:
		v.Reason = d.Reason
	default:
		if d.Role == pipeline.RoleFollows {
			v.TravelsWith = d.Leader
		}
		v.Folder = "unknown"
		if d.Date.IsZero() {
			v.DateNote = d.DateNote
		}
		if !d.Date.IsZero() {
			v.Date, v.DateSource, v.DateTag = wallString(d.Date), d.Date.Source.String(), d.Date.Tag
			v.Folder = filepath.FromSlash(d.Date.Wall.Format("2006/2006-01-02"))
			if d.Date.ShiftRule != "" {
				before := d.Date
				before.Wall = d.Date.Unshifted()
				v.Shift, v.ShiftRule, v.Unshifted = shift.Format(d.Date.Shift), d.Date.ShiftRule, wallString(before)
			}
		}
	}
	f.Verdict = v
	_ = enc.Encode(f)
}

func wallString(d meta.Date) string {
	if d.Wall.IsZero() {
		return ""
	}
	return d.Wall.Format("2006-01-02T15:04:05.000")
}

func offsetString(d meta.Date) string {
	if !d.HasOffset {
		return ""
	}
	return time.Date(2000, 1, 1, 0, 0, 0, 0, time.FixedZone("", d.Offset)).Format("-07:00")
}
