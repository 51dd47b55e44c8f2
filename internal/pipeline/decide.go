package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/shoebox-photos/shoebox/internal/archive"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/scan"
	"github.com/shoebox-photos/shoebox/internal/shift"
)

// Role is what planning makes of one file within its group.
type Role string

const (
	RoleLeads   Role = "leads"   // a photo or video filed under its own date (with any companions)
	RoleFollows Role = "follows" // travels with Decision.Leader, under the leader's date and stem
	RoleOrphan  Role = "orphan"  // a sidecar with no photo or video: left in place
	RoleIgnored Role = "ignored" // not media, or empty: left in place
)

// Decision is how sort dates one file: the date it is filed under and
// why, decided by the same grouping and date borrowing the plan stage
// runs (arrange), from the file and the companions beside it.
type Decision struct {
	Info   meta.Info // the file's own metadata, as read
	Role   Role
	Date   meta.Date // the date the file is filed under; zero: the unknown folder
	Leader string    // for RoleFollows: the file it travels with
	Reason string    // for RoleOrphan and RoleIgnored
	// DateNote says why the file goes to the unknown folder although a
	// modification time dates it (--no-mtime, or it looks like a copy's).
	DateNote string
	// Notes say what explain could not see that sort would: a part of an
	// archive series missing from the archive's folder, or unreadable.
	Notes []string
	dated scan.File // the file whose date Date is
}

// Decide reads path and the files of its folder that sort would group
// with it — same stem (IMG_1.CR2, IMG_1.JPG, IMG_1.jpg.json …) or, for a
// Live Photo, same Apple ContentIdentifier — and returns the decision
// sort makes for it. opt is what sort's meta stage uses (Explain may be
// on, to collect the file's candidates); hidden includes the names the
// scan skips without --hidden.
func Decide(path string, opt meta.Options, hidden bool) (Decision, error) {
	return DecideWith(path, opt, DecideOptions{Hidden: hidden})
}

// DecideOptions are the sort flags that change a file's date besides
// what meta.Options covers.
type DecideOptions struct {
	Hidden       bool
	Shift        *shift.Rules // --shift
	NoModTime    bool         // --no-mtime
	TrustModTime bool         // --mtime
}

// DecideWith is Decide with more of sort's flags.
func DecideWith(path string, opt meta.Options, o DecideOptions) (Decision, error) {
	return NewDecider(opt, o).Decide(path)
}

// Decide is DecideWith for path, with d's readers and folder cache.
func (d *Decider) Decide(path string) (Decision, error) {
	path = filepath.Clean(path) // "./IMG_1.JPG" is the folder's IMG_1.JPG, not a second file
	set, path, notes, err := openMemberArchive(path)
	if err != nil {
		return Decision{}, err
	}
	defer set.Close()
	self, err := readFileInfo(d.self, path, set)
	if err != nil {
		return Decision{}, err
	}
	dec := Decision{Info: self.Info, Notes: notes}
	switch {
	case !isMedia(self.Info.Kind) && self.Info.Kind != meta.KindSidecar:
		return dec.ignored(notMedia(self.Info)), nil
	case self.File.Size == 0:
		return dec.ignored("empty file (0 bytes): nothing to sort"), nil
	}
	members, err := groupMembers(self, d.folderOf(path, set))
	if err != nil {
		return Decision{}, err
	}
	loc := d.opt.VideoTZ
	if loc == nil {
		loc = time.Local
	}
	dec = dec.from(arrange(members, dating{loc: loc, tags: d.opt.DateTags}, d.o.Shift), self)
	if dec.Role == RoleLeads || dec.Role == RoleFollows {
		dec.DateNote, _ = modTimePolicy{d.o.NoModTime, d.o.TrustModTime}.verdict(dec.dated, dec.Date, time.Now())
		if dec.DateNote != "" {
			dec.Date = meta.Date{}
		}
	}
	return dec, nil
}

// Chosen reports whether c is the date the file is filed under: the one
// explain marks, in text and in --json.
func (d Decision) Chosen(c meta.Candidate) bool {
	return !d.Date.IsZero() && c.Tag == d.Date.Tag && c.Source == d.Date.Source && c.Wall.Equal(d.Date.Unshifted())
}

// Note is c's note as the decision reads it. The header reader marks
// "used" the best date of the file's own; when the group or the mtime
// policy files the file otherwise (a Takeout JSON's date, the unknown
// folder for a copy's mtime), that date is not used, and the note says
// what is.
func (d Decision) Note(c meta.Candidate) string {
	rest, mine := strings.CutPrefix(c.Note, "used")
	if !mine || d.Chosen(c) {
		return c.Note
	}
	var why string
	switch {
	case d.Role == RoleIgnored || d.Role == RoleOrphan:
		why = "not used: the file is left in place"
	case d.Date.IsZero() && d.DateNote != "":
		why = "not used: " + d.DateNote
	case d.Date.IsZero():
		why = "not used: the file goes to the unknown folder"
	case d.Role == RoleFollows:
		why = "not used: the file travels with " + filepath.Base(d.Leader) + ", under its date"
	default:
		why = "not used: the file is filed under the date from " + d.Date.Tag
	}
	return why + rest
}

func (d Decision) ignored(why string) Decision {
	d.Role, d.Reason = RoleIgnored, why
	return d
}

// from finds self's place in the arranged group.
func (d Decision) from(g groupPlan, self fileInfo) Decision {
	path := self.File.Path
	switch {
	case g.primary.File.Path == path:
		d.Role, d.Date, d.dated = RoleLeads, g.primary.Info.Date, g.primary.File
		return d
	case contains(g.singles, path):
		d.Role = RoleLeads
		for _, s := range g.singles {
			if s.File.Path == path {
				d.Date, d.dated = s.Info.Date, s.File // with its --shift
			}
		}
		return d
	case contains(g.companions, path):
		d.Role, d.Date, d.Leader, d.dated = RoleFollows, g.primary.Info.Date, g.primary.File.Path, g.primary.File
		return d
	}
	d.Role, d.Reason = RoleOrphan, orphanReason(albumTitleOf(self.File, self.archives) != "")
	return d
}

func contains(fs []fileInfo, path string) bool {
	for _, f := range fs {
		if f.File.Path == path {
			return true
		}
	}
	return false
}

func readFileInfo(rd *meta.Reader, path string, set *archive.Set) (fileInfo, error) {
	if m, inside := set.Lookup(path); inside {
		if m == nil {
			return fileInfo{}, fmt.Errorf("%s: %w", quote.Path(path), archive.ErrNotInSource)
		}
		fi := fileInfo{File: memberFile(m.Owner(), m), archives: set}
		src := m.OpenReaderAt()
		defer src.Close()
		fi.Info = rd.ReaderAt(path, src, m.Size, m.ModTime)
		return fi, nil
	}
	f, err := scan.StatFile(path)
	if err != nil {
		return fileInfo{}, err
	}
	fi := fileInfo{File: f}
	fi.Info = rd.File(path, fi.File.Size, fi.File.ModTime)
	return fi, nil
}

// openMemberArchive opens the archive when path names a member of one
// (ARCHIVE:MEMBER or ARCHIVE/MEMBER), with the other parts of its series
// (openSeries), and returns the member's path as sort knows it; else a
// nil set and path as it was.
func openMemberArchive(path string) (*archive.Set, string, []string, error) {
	arch, member, ok := archive.Split(path)
	if !ok {
		return nil, path, nil, nil
	}
	// As filepath.Join will spell it: on Windows, Clean writes "a.zip:m"
	// as ".\a.zip:m" (so that no volume is read into it), which Join drops.
	arch = filepath.Clean(arch)
	name, _, err := archive.CleanName(member)
	if err != nil {
		return nil, path, nil, fmt.Errorf("member %s: %w", quote.Path(member), err)
	}
	set, notes, err := openSeries(arch)
	if err != nil {
		return nil, path, nil, err
	}
	return set, filepath.Join(arch, filepath.FromSlash(name)), notes, nil
}

// openSeries opens arch and the other parts of its export series found in
// its folder (archive.SeriesParts): sort, given them all, groups a photo
// in one part with its JSON in another, and so does explain. The notes
// say which parts explain could not see: missing from the folder, or
// unreadable. arch itself must open.
func openSeries(arch string) (*archive.Set, []string, error) {
	parts := archive.SeriesParts(arch)
	set := archive.OpenEach(parts)
	var notes []string
	for _, p := range set.Failed() {
		if p.Archive == arch {
			set.Close()
			return nil, nil, p
		}
		notes = append(notes, sentenceOf(p)+": a JSON or photo in that part is not seen")
	}
	notes = append(notes, missingParts(parts, "not in the folder of "+quote.Path(filepath.Base(arch)), "")...)
	return set, notes, nil
}

// sentenceOf is err's text without a trailing period.
func sentenceOf(err error) string { return strings.TrimSuffix(err.Error(), ".") }

// folderFiles are the regular files beside path: in its folder, or in its
// archive's folder when it is a member.
func folderFiles(path string, hidden bool, set *archive.Set) ([]string, error) {
	var out []string
	if m, inside := set.Lookup(path); inside && m != nil {
		for _, o := range set.Beside(m) {
			if o != m && (hidden || !clutterMember(o.Name)) {
				out = append(out, o.Path())
			}
		}
		return out, nil
	}
	dir := filepath.Dir(path)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if p != path && e.Type().IsRegular() && (hidden || !scan.IsClutter(e.Name())) {
			out = append(out, p)
		}
	}
	return out, nil
}

// groupMembers is the group sort would plan self in, as the meta and plan
// stages build it: the folder's files of one folded stem (groupKey), then
// for a Live Photo the other stems' halves its identifier pairs with it
// (joinLive), every file read through beside.
func groupMembers(self fileInfo, beside folder) ([]fileInfo, error) {
	peers, err := beside.others()
	if err != nil {
		return nil, err
	}
	own := stemKey(self.File.Path)
	members := []fileInfo{self}
	for _, p := range peers {
		if p.key == own && p.path != self.File.Path {
			if fi, err := beside.read(p.path); err == nil && fi.File.Size > 0 {
				members = append(members, fi)
			}
		}
	}
	live := false
	for _, m := range members {
		live = live || m.Info.ContentID != "" && isMedia(m.Info.Kind)
	}
	if !live {
		return members, nil
	}
	all := []fileInfo{self}
	for _, p := range peers {
		if p.path == self.File.Path {
			continue
		}
		if fi, err := beside.read(p.path); err == nil && fi.File.Size > 0 {
			all = append(all, fi)
		}
	}
	return joinLive(all, own), nil
}

func stemKey(path string) string { return layout.FoldKey(groupStemOf(path)) }

// joinLive applies joinLivePhotos to the folder's files (all, self
// first) and returns self's group: each video goes to the group of the
// still livePairs pairs it with, the same decision sort makes, so a
// video joined to another stem's still is judged in that still's group.
func joinLive(all []fileInfo, own string) []fileInfo {
	byID := map[string][]fileInfo{}
	for _, fi := range all {
		if fi.Info.ContentID != "" && isMedia(fi.Info.Kind) {
			byID[fi.Info.ContentID] = append(byID[fi.Info.ContentID], fi)
		}
	}
	joins := map[string]string{} // a video's path → its still's stem
	for _, carriers := range byID {
		var stills, videos []fileInfo
		for _, fi := range carriers {
			switch {
			case fi.Info.Kind == meta.KindVideo:
				videos = append(videos, fi)
			case isStill(fi.Info.Format):
				stills = append(stills, fi)
			}
		}
		for _, m := range livePairs(stills, videos) {
			joins[videos[m.video].File.Path] = stemKey(stills[m.still].File.Path)
		}
	}
	target := own
	if to, ok := joins[all[0].File.Path]; ok {
		target = to
	}
	var members []fileInfo
	for _, fi := range all {
		to, joined := joins[fi.File.Path]
		if joined && to == target || !joined && stemKey(fi.File.Path) == target {
			members = append(members, fi)
		}
	}
	return members
}

// notMedia is why a file that is neither a photo, a video nor a sidecar is
// left alone, with what its content is when its name claimed a photo (a
// web page saved as IMG_1.jpg: "its content is text, not jpeg").
func notMedia(in meta.Info) string {
	if in.Warning != "" {
		return reasonNotMedia + ": " + in.Warning
	}
	return reasonNotMedia
}

// reasonNotMedia begins the reason of every file ignored as no photo or
// video (LeftOnSource tells them from photos left in place by it).
const reasonNotMedia = "not a photo or video"
