package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/shoebox-photos/shoebox/internal/digest"
	"github.com/shoebox-photos/shoebox/internal/filter"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/importlog"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/plan"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/scan"
	"github.com/shoebox-photos/shoebox/internal/store"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// Plan decides every file's fate: duplicates are found first (when enabled),
// then each file gets its template target, then each destination directory
// is read once and its conflicts resolved by the pure planner.
func (r *Run) Plan(ctx context.Context) error {
	start := time.Now()
	// Groups are whole before anything is decided about their files, and
	// filters are decided before dedup (leftout.go).
	if err := r.joinLivePhotos(ctx); err != nil {
		return err
	}
	if err := r.judgeFilters(ctx); err != nil {
		return err
	}
	if r.cfg.Dedup {
		if err := r.findDuplicates(ctx); err != nil {
			return err
		}
		if err := r.joinDuplicateSidecars(ctx); err != nil {
			return err
		}
	}
	r.begin("plan", "choosing each file's folder and name", 0, 0)
	if err := r.planTargets(ctx); err != nil {
		return err
	}
	r.begin("plan", "reading the destination folders for names already taken", 0, 0)
	if err := r.loadResumedCounters(); err != nil {
		return err
	}
	_, err := r.resolveDirs(ctx)
	if r.index != nil {
		// Every planned file is in the library index, durably, before any
		// lands (libindex.go).
		err = firstErr(err, r.index.flush())
	}
	r.commitImports() // what plan found in the library by content: durable already
	// The count is of the files handed to the transfer stage, sidecars and
	// pair halves included, as the transfer stage and the summary count them.
	r.emit(Event{Type: "stage", Stage: "plan", Count: int64(r.nextOp), Sidecars: r.companions, Elapsed: time.Since(start).Seconds()})
	return err
}

// planTargets walks the files group by group (one source folder and stem
// at a time), decides who leads each group and who travels with it, expands
// the template for the leaders and records them under a key that sorts by
// destination directory.
func (r *Run) planTargets(ctx context.Context) error {
	var members []fileInfo
	err := r.scanRuns(ctx, keyGroup, withoutSeq, func(k, v []byte, _ bool) error {
		d := newDec(v)
		fi := getInfo(store.Uint64(k[len(k)-8:]), d)
		fi.archives = r.archives
		r.shifts.note(fi, r.cfg.Shift)
		members = append(members, fi)
		return d.Err()
	}, func(_ []byte, w *store.Writer) error {
		err := r.planGroup(members, w)
		members = members[:0]
		return err
	})
	if err != nil {
		return fmt.Errorf("plan targets: %w", err)
	}
	for _, w := range r.shifts.unused(r.cfg.Shift) {
		r.emit(Event{Type: "warning", Stage: "plan", Reason: w})
	}
	return r.st.DeletePrefix(keyGroup)
}

// planGroup plans one group of files that share a folder and a stem. Each
// file's fate is decided in one order: what it is (not media, empty), the
// filter's verdict (decided for the whole group by judgeFilters), then
// whether its bytes are in the library or kept from another source, and
// only then where it goes; its sidecars follow it.
func (r *Run) planGroup(members []fileInfo, w opWriter) error {
	if len(members) == 1 && isMedia(members[0].Info.Kind) && members[0].Known == 0 {
		// Most files stand alone: no group to arrange.
		fi := members[0]
		ok, _, err := r.admit(fi)
		fi.Info.Date = shiftDate(fi.Info.Date, fi.File.Path, fi.Info.Model, r.cfg.Shift)
		if err != nil || !ok {
			r.rememberIdentical([]fileInfo{fi})
			return err
		}
		return r.putPlannedWith(r.placement(fi), nil, w)
	}
	var kept, identical []fileInfo
	var there *inLibrary
	leftOut := false // a photo or video of the group is left out by a filter
	filed := r.filedDates(members)
	for _, m := range members {
		shown := m // reported with the date it is filed under
		if d, ok := filed[m.Seq]; ok {
			shown.Info.Date = d
		}
		ok, out, err := r.admit(shown)
		switch {
		case err != nil:
			return err
		case ok:
			kept = append(kept, m)
		case out:
			leftOut = true
		default:
			identical = append(identical, m)
			if there == nil {
				if there, err = r.alreadyInLibrary(m); err != nil {
					return err
				}
			}
		}
	}
	if len(identical) > 0 {
		r.datedAsFiled(members, identical)
		r.rememberIdentical(identical)
	}
	if len(kept) == 0 {
		return nil
	}
	g := arrange(kept, r.dating(), r.cfg.Shift)
	if len(g.orphans) > 0 && there != nil {
		// The photo is in the library already (a re-run after a kill, a
		// re-imported card): its sidecars join it there.
		if err := r.putBeside(*there, g.orphans, w); err != nil {
			return err
		}
		g.orphans = nil
	}
	for _, o := range g.orphans {
		if leftOut {
			r.leaveOut(o, "the photo or video it belongs to is left out")
			continue
		}
		r.sum.Sidecars--
		r.ignore(o, orphanReason(r.albums.holds(o.File)))
	}
	if g.primary.File.Path == "" {
		return nil
	}
	ownFirst(g.primary, g.companions)
	if err := r.putPlannedWith(r.placement(g.primary), g.companions, w); err != nil {
		return err
	}
	for _, s := range g.singles {
		if err := r.putPlannedWith(r.placement(s), nil, w); err != nil {
			return err
		}
	}
	return nil
}

// inLibrary is a photo or video of a group that the library holds already,
// at path.
type inLibrary struct {
	fi   fileInfo
	path string
}

// alreadyInLibrary returns where the library holds fi, if fi is a photo or
// video that dedup found there, inside the library's own folder tree.
func (r *Run) alreadyInLibrary(fi fileInfo) (*inLibrary, error) {
	if !isMedia(fi.Info.Kind) || fi.File.Size == 0 {
		return nil, nil
	}
	if fi.Known == importlog.Intact {
		return &inLibrary{fi: fi, path: fi.KnownPath}, nil
	}
	if fi.Known != 0 {
		return nil, nil
	}
	dup, ok, err := r.duplicateOf(fi.Seq)
	if err != nil || !ok || !dup.InLibrary {
		return nil, err
	}
	if rel, err := filepath.Rel(r.dest, dup.Path); err != nil || !filepath.IsLocal(rel) {
		return nil, nil
	}
	return &inLibrary{fi: fi, path: dup.Path}, nil
}

// putBeside plans sidecars under the stem of their photo's copy in the
// library. The photo itself leads them without being transferred again
// (planned.Present): the planner finds it identical where it is.
func (r *Run) putBeside(lead inLibrary, sidecars []fileInfo, w opWriter) error {
	// Dated as when it was filed: an undated photo by its Takeout JSON
	// or XMP, so its sidecars are counted under the folder they join.
	g := arrange(append([]fileInfo{lead.fi}, sidecars...), r.dating(), r.cfg.Shift)
	p := r.placement(g.primary)
	rel, _ := filepath.Rel(r.dest, filepath.Dir(lead.path))
	p.Dir, p.Name, p.Present = filepath.ToSlash(rel), filepath.Base(lead.path), true
	if p.Dir == "." {
		p.Dir = ""
	}
	return r.putPlannedWith(p, sidecars, w)
}

func (r *Run) putPlannedWith(p planned, companions []fileInfo, w opWriter) error {
	for _, c := range companions {
		p.Companions = append(p.Companions, companion{Src: c.File.Path, Size: c.File.Size, ModTime: c.File.ModTime, Suffix: r.companionSuffix(p, c),
			Dev: c.File.Dev, Ino: c.File.Ino, CTime: c.File.CTime, KindCode: c.Info.Kind})
	}
	var e enc
	putPlanned(&e, p)
	return w.Put(destKey(p, r.cfg.Template.HasCounter()), e.bytes())
}

// companionSuffix is what follows the leader's stem in a companion's
// name: its own ending, cased as the template cases the leader's
// extension ({ext:lower}: IMG_1.MOV follows 0001.jpg as 0001.mov). A
// leader in the unknown folder keeps its own name, and its companions
// their own endings.
func (r *Run) companionSuffix(p planned, c fileInfo) string {
	suffix := suffixAfterStem(c.File.Path)
	if p.Unknown {
		return suffix
	}
	return r.cfg.Template.CaseExt(suffix)
}

// admit counts and reports a file, and says whether it takes part in
// planning: photos, videos and sidecars do; other files, empty files,
// files a filter leaves out (leftOut) and duplicates do not. The filter's
// verdict comes before the library's: a file left out is left out
// whether or not its bytes are there.
func (r *Run) admit(fi fileInfo) (ok, leftOut bool, err error) {
	if fi.Known != 0 {
		return false, r.admitKnown(fi), nil
	}
	switch fi.Info.Kind {
	case meta.KindPhoto, meta.KindVideo:
	case meta.KindSidecar:
		if fi.File.Size == 0 {
			return false, false, nil
		}
		r.sum.Sidecars++
		return true, false, nil
	default:
		r.ignore(fi, notMedia(fi.Info))
		return false, false, nil
	}
	if fi.File.Size == 0 {
		r.ignore(fi, "empty file (0 bytes): nothing to sort")
		r.emit(Event{Type: "warning", Stage: "meta", Src: fi.File.Path, Reason: fmt.Sprintf("%s is empty (0 bytes): left in place", quote.Path(fi.File.Path))})
		return false, false, nil
	}
	r.sum.Media++
	if fi.Info.Warning != "" {
		r.emit(Event{Type: "warning", Stage: "meta", Src: fi.File.Path,
			Reason: fmt.Sprintf("%s: %s; %s", quote.Path(fi.File.Path), fi.Info.Warning, r.datedBy(fi))})
	}
	if fi.LeftOut != "" {
		r.leaveOut(fi, fi.LeftOut)
		return false, true, nil
	}
	dup, found, err := r.duplicateOf(fi.Seq)
	switch {
	case found && dup.InLibrary:
		// Already in the library, maybe under another name: a re-imported
		// card reads as "already there", not as a pile of duplicates.
		r.sum.Identical++
		r.emit(r.opEvent(fi, OutIdentical, "", dup.Path, "already in the library as "+dup.Path))
	case found:
		r.sum.Duplicates++
		r.emit(r.opEvent(fi, OutDuplicate, "", dup.Path, duplicateReason(dup)))
	}
	return !found, false, err
}

// filedDates is, when a member of the group has a header warning (whose
// message says what dates the file), the date each member is filed under
// (a Takeout photo's JSON date, not its own mtime); nil otherwise.
func (r *Run) filedDates(members []fileInfo) map[uint64]meta.Date {
	warned := false
	for _, m := range members {
		warned = warned || m.Info.Warning != ""
	}
	if !warned {
		return nil
	}
	out := map[uint64]meta.Date{}
	for _, fi := range r.groupDates(members) {
		out[fi.Seq] = fi.Info.Date
	}
	return out
}

// rememberIdentical records in the import history the files dedup found
// in the library, each with the date its group files it under (a Takeout
// photo's JSON date), which the next run's filters judge it on.
func (r *Run) rememberIdentical(files []fileInfo) {
	for _, fi := range files {
		if fi.Known != 0 || !isMedia(fi.Info.Kind) || fi.File.Size <= 0 || fi.LeftOut != "" {
			continue
		}
		if dup, ok, err := r.duplicateOf(fi.Seq); err == nil && ok && dup.InLibrary {
			r.rememberImport(infoSource(fi), dup.Path, nil, false, true)
		}
	}
}

// filterView is what the filter sees of a file: its date as placement
// will use it (none when --no-mtime discards a file-time date).
func (r *Run) filterView(fi fileInfo) filter.File {
	f := filter.File{Path: fi.File.Path, Root: fi.File.Root, Size: fi.File.Size, Kind: fi.Info.Kind.String()}
	if d := fi.Info.Date; !d.IsZero() && r.modTimeUsed(fi) {
		f.Taken = d.Wall
	}
	return f
}

// datedBy says what dates a file whose header could not be read.
func (r *Run) datedBy(fi fileInfo) string {
	if fi.Info.Date.IsZero() || !r.modTimeUsed(fi) {
		if r.cfg.Filter != nil && r.cfg.Filter.SkipUnknown {
			return "no date: it stays where it is (--skip-unknown)"
		}
		return "no date: it goes to the unknown folder"
	}
	return "dated by " + fi.Info.Date.Source.String()
}

// modTimeUsed is false when fi is dated only by a modification time
// that is not used (--no-mtime, or one that looks like a copy's).
func (r *Run) modTimeUsed(fi fileInfo) bool {
	why, _ := r.modTimeVerdict(fi.File, fi.Info.Date)
	return why == ""
}

// leaveOut counts and reports a file a filter left out.
func (r *Run) leaveOut(fi fileInfo, why string) {
	r.sum.Filtered++
	r.emit(Event{Type: "op", Outcome: OutFiltered, Src: fi.File.Path, Size: fi.File.Size, Reason: "left out: " + why})
}

func (r *Run) ignore(fi fileInfo, why string) {
	r.sum.Ignored++
	r.emit(Event{Type: "op", Outcome: OutIgnored, Src: fi.File.Path, Size: fi.File.Size, Reason: why})
}

// placement applies the template, or the unknown-date folder, and warns
// when a name had to be escaped.
func (r *Run) placement(fi fileInfo) planned {
	p, esc := r.place(fi)
	if esc != nil {
		r.warnEscaped(fi, esc)
	}
	return p
}

// place is placement without the warning (the library index asks where
// files land before they are planned).
func (r *Run) place(fi fileInfo) (planned, *layout.Escape) {
	stem, ext := splitName(filepath.Base(fi.File.Path))
	p := planned{Seq: fi.Seq, Src: fi.File.Path, Size: fi.File.Size, ModTime: fi.File.ModTime, Source: fi.Info.Date.Source,
		Dev: fi.File.Dev, Ino: fi.File.Ino, CTime: fi.File.CTime, KindCode: fi.Info.Kind}
	date := fi.Info.Date
	why, doubted := r.modTimeVerdict(fi.File, date)
	if date.IsZero() || why != "" {
		p.Unknown = true
		if doubted {
			p.Note = why
		}
		p.Dir = r.cfg.UnknownDir
		var escaped bool
		p.Name, escaped = layout.SafeSegment(stem + ext)
		if escaped {
			return p, &layout.Escape{Segment: "the file name", Raw: stem + ext, Safe: p.Name}
		}
		return p, nil
	}
	p.Year, p.Taken, p.Tag = date.Wall.Year(), date.Wall, date.Tag
	p.Shift, p.ShiftRule = date.Shift, date.ShiftRule
	p.Make, p.Model, p.Kind, p.Root = fi.Info.Make, fi.Info.Model, fi.Info.Kind.String(), fi.File.Root
	var esc *layout.Escape
	p.Dir, p.Name, esc = r.cfg.Template.ExpandNoted(r.fields(p))
	if esc != nil {
		esc.Segment = fmt.Sprintf("the template segment %q", esc.Segment)
	}
	if !r.cfg.Template.HasCounter() {
		p.Make, p.Model, p.Kind, p.Root = "", "", "", "" // not needed again: keep the store's records small
	}
	return p, esc
}

// fields are the template's values for a planned file; Counter is left for
// numberBatch to set.
func (r *Run) fields(p planned) layout.Fields {
	stem, ext := splitName(filepath.Base(p.Src))
	return layout.Fields{Time: p.Taken, Name: stem, Ext: ext, Make: p.Make, Model: p.Model, Kind: p.Kind,
		Dir: filepath.Dir(p.Src), Root: p.Root, Album: r.albums.of(p.Src, scan.File{Dev: p.Dev, Root: p.Root})}
}

// warnEscaped says that a file's destination would have named something
// shoebox keeps for itself (its state folder, a temp file) and was escaped.
func (r *Run) warnEscaped(fi fileInfo, esc *layout.Escape) {
	r.emit(Event{Type: "warning", Stage: "plan", Src: fi.File.Path, Reason: fmt.Sprintf(
		"%s: %s gives %q, a name shoebox keeps for its own files; the file goes to %q instead",
		quote.Path(fi.File.Path), esc.Segment, esc.Raw, esc.Safe)})
}

// destKey sorts planned files by directory, then by folded name, then by
// source path: the claim order plan.Resolve expects. With a {counter}
// template the name is not known yet: files sort by capture time instead,
// the order in which numberBatch numbers them.
//
// New files' folders are grouped by their folded name: "Canon/" and
// "CANON/" are one folder on NTFS, APFS, exFAT and SMB, so their files are
// resolved together and land in one folder, spelt as the first of them, on
// every filesystem (a library stays one library when copied to another
// disk). A file already in the library (Present) is where it is: its
// folder keeps its own spelling and forms its own group, which a folder
// listing of the new files' group sees anyway.
func destKey(p planned, byCapture bool) []byte {
	k := append([]byte(nil), keyDest...)
	k = append(k, dirGroup(p)...)
	k = append(k, 0)
	if byCapture && !p.Unknown {
		k = p.Taken.AppendFormat(k, captureOrder)
	} else {
		k = append(k, layout.FoldKey(p.Name)...)
	}
	k = append(k, 0)
	return append(k, p.Src...)
}

// dirGroup is the part of destKey that decides which files are resolved
// together (see destKey).
func dirGroup(p planned) string {
	if p.Present {
		return "\x01" + p.Dir
	}
	return "\x02" + layout.FoldKey(p.Dir)
}

// captureOrder formats a wall clock so that text order is time order.
const captureOrder = "20060102150405.000000000"

// resolveDirs walks the planned files one destination directory at a time.
func (r *Run) resolveDirs(ctx context.Context) (int64, error) {
	w := r.st.Writer(writeBatch)
	var (
		dir, dirKey string
		batch       []planned
		n           int64
	)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := r.resolveDir(dir, batch, w)
		n += int64(len(batch))
		batch = batch[:0]
		return err
	}
	err := r.st.Scan(keyDest, func(k, v []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		d := newDec(v)
		p := getPlanned(d)
		if d.Err() != nil {
			return d.Err()
		}
		if key := dirGroup(p); key != dirKey {
			if err := flush(); err != nil {
				return err
			}
			dir, dirKey = p.Dir, key
		}
		p.Dir = dir // one spelling for a folder (a Present file's is its own)
		batch = append(batch, p)
		r.progress("plan", n+int64(len(batch)), r.sum.Media)
		return nil
	})
	if err == nil {
		err = flush()
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err == nil {
		err = r.st.DeletePrefix(keyDest)
	}
	return n, err
}

// opWriter is where resolved operations go.
type opWriter interface{ Put(k, v []byte) error }

func (r *Run) resolveDir(dir string, batch []planned, w opWriter) error {
	full := filepath.Join(r.dest, filepath.FromSlash(dir))
	if r.cfg.Template.HasCounter() {
		if err := r.numberBatch(full, batch); err != nil {
			return err
		}
	}
	existing, err := r.listDir(full, wantedStems(batch))
	if err != nil {
		return err
	}
	existing = append(existing, r.aliasesTaken(full, batch, existing)...)
	withLanded := holdsWantedName(existing)
	if withLanded {
		if err := r.loadLanded(); err != nil {
			return err
		}
	}
	batch = mergePresent(batch)
	items := make([]plan.Item, len(batch))
	for i, p := range batch {
		items[i] = plan.Item{Seq: uint64(i), Src: p.Src, Size: p.Size, Name: p.Name}
		if withLanded {
			items[i].Landed = r.landedNames(full, p)
		}
		for _, c := range p.Companions {
			items[i].Companions = append(items[i].Companions, plan.Companion{Src: c.Src, Size: c.Size, Suffix: c.Suffix})
		}
	}
	for _, op := range plan.Resolve(full, existing, items, r.sameContent) {
		// Companions go first and the photo last, as one group (they
		// share its Seq) that the transfer stage runs in order: a kill
		// can leave sidecars without their photo, which the same command
		// then sends after them, but never a photo whose sidecars stay
		// behind, which no later run would reunite with it.
		p := batch[op.Item.Seq]
		if p.Present && op.Action != plan.SkipIdentical {
			// Counted as already in the library by admit; its sidecars follow
			// it only while it is still the identical file dedup found.
			r.leavePresentCompanions(full, p, existing)
			continue
		}
		for i, c := range op.Companions {
			if c.Action == plan.Blocked {
				r.leaveTakenCompanion(c.Src, c.Size, filepath.Join(full, c.Name))
				continue
			}
			cp := p
			pc := p.Companions[i]
			cp.Src, cp.Size, cp.ModTime, cp.Companions, cp.Present = c.Src, c.Size, pc.ModTime, nil, false
			cp.Dev, cp.Ino, cp.CTime, cp.KindCode = pc.Dev, pc.Ino, pc.CTime, pc.KindCode
			cp.Tag = companionTag(p.Src, c.Src, p.Tag)
			if err := r.putOp(full, cp, c.Action, c.Name, op.Renamed, true, w); err != nil {
				return err
			}
		}
		if p.Present {
			continue
		}
		if err := r.putOp(full, p, op.Action, op.Name, op.Renamed, false, w); err != nil {
			return err
		}
	}
	return nil
}

// mergePresent makes one item of the library copies that several groups
// lead (two duplicates of one library photo, each with its sidecar), so
// that their companions claim names together: a second sidecar of one name
// is then already there or Blocked, as the next run finds it.
func mergePresent(batch []planned) []planned {
	first := map[string]int{}
	out := batch[:0]
	for _, p := range batch {
		if p.Present {
			key := layout.FoldKey(p.Name)
			if i, ok := first[key]; ok {
				out[i].Companions = append(out[i].Companions, p.Companions...)
				continue
			}
			first[key] = len(out)
		}
		out = append(out, p)
	}
	return out
}

// leavePresentCompanions reports the companions of a photo already in the
// library that cannot join its copy. Mostly a different file holds a
// companion's name beside the copy (the sidecar imported with it, since
// edited at the source): that is said with a warning naming both, since
// the source's version exists nowhere else. Otherwise the photo's copy
// itself changed since dedup compared it.
func (r *Run) leavePresentCompanions(dir string, p planned, existing []plan.Existing) {
	taken := make([]string, len(p.Companions)) // the different file holding each one's name
	there := make([]string, len(p.Companions)) // or the same bytes under it
	first := ""
	for i, c := range p.Companions {
		name := layout.FoldKey(plan.CompanionName(p.Name, c.Suffix))
		for _, e := range existing {
			if layout.FoldKey(e.Name) != name {
				continue
			}
			if e.Dir || e.Size != c.Size || !r.sameContent(c.Src, filepath.Join(dir, e.Name)) {
				taken[i] = filepath.Join(dir, e.Name)
				first = cmp.Or(first, taken[i])
			} else {
				there[i] = filepath.Join(dir, e.Name)
			}
		}
	}
	if first == "" {
		r.leaveCompanions(p, "its photo's copy in the library changed since it was compared: left in place")
		return
	}
	for i, c := range p.Companions {
		if taken[i] != "" {
			r.leaveTakenCompanion(c.Src, c.Size, taken[i])
			continue
		}
		if there[i] != "" {
			// Its bytes are beside the photo's copy already: that is all
			// it would have done (a second run after one that joined it).
			r.sum.Identical++
			r.emit(Event{Type: "op", Outcome: OutIdentical, Src: c.Src, Dst: there[i], SameAs: there[i], Size: c.Size})
			continue
		}
		why := fmt.Sprintf("left in place with its photo's other companion, whose name a different file has beside the photo's copy in the library, %s", quote.Path(first))
		r.sum.Ignored++
		r.emit(Event{Type: "op", Outcome: OutIgnored, Src: c.Src, Size: c.Size, Reason: why})
		r.emit(Event{Type: "warning", Stage: "plan", Src: c.Src, Reason: quote.Path(c.Src) + ": " + why})
	}
}

// leaveTakenCompanion reports a companion left in place because a
// different file has, or takes in this run, its name beside its photo's
// copy: one sentence whether that file came before or comes now, so a
// second run says what the first said.
func (r *Run) leaveTakenCompanion(src string, size int64, taken string) {
	why := fmt.Sprintf("left in place: a different file has its name beside its photo's copy in the library, %s (compare them; move it there by hand if it is the newer one)", quote.Path(taken))
	r.sum.Ignored++
	r.emit(Event{Type: "op", Outcome: OutIgnored, Src: src, Size: size, Reason: why})
	r.emit(Event{Type: "warning", Stage: "plan", Src: src, Reason: quote.Path(src) + ": " + why})
}

// leaveCompanions reports p's companions as left in place.
func (r *Run) leaveCompanions(p planned, why string) {
	for _, c := range p.Companions {
		r.sum.Ignored++
		r.emit(Event{Type: "op", Outcome: OutIgnored, Src: c.Src, Size: c.Size, Reason: why})
	}
}

// putOp records a transfer for the transfer stage, or reports a skip.
func (r *Run) putOp(dir string, p planned, action plan.Action, name string, renamed, companion bool, w opWriter) error {
	dst := filepath.Join(dir, name)
	if action == plan.SkipIdentical {
		r.sum.Identical++
		r.emit(Event{Type: "op", Outcome: OutIdentical, Src: p.Src, Dst: dst, SameAs: dst, Size: p.Size, DateSource: p.Source.String()})
		r.rememberImport(plannedSource(p), dst, nil, r.cfg.Mode == transfer.Symlink, true)
		return nil
	}
	if err := r.noteLanding(p, dst, companion); err != nil {
		return fmt.Errorf("record %s in the library index: %w", quote.Path(dst), err)
	}
	r.nextOp++
	r.plannedBytes += p.Size
	if companion {
		r.companions++
	}
	var e enc
	putOp(&e, opRecord{planned: p, Dst: dst, Renamed: renamed, Companion: companion})
	return w.Put(seqKey(keyOp, r.nextOp), e.bytes())
}

// listDir reads one destination directory, once. Only entries that could
// collide with an incoming name (same stem, maybe with a "-N" counter) are
// stat'ed for their size: the rest can never be compared, so a re-import
// into a big library costs one readdir per folder, not one stat per file.
// Every entry takes its name, whatever it looks like: a name that looks
// like a shoebox temp file may be the user's, and is never removed here
// (the temps a killed run left are removed by recovery, which knows from
// the journal exactly which it created).
func (r *Run) listDir(dir string, stems map[string]bool) ([]plan.Existing, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read destination folder %s: %w", quote.Path(dir), fsx.Bare(err))
	}
	out := make([]plan.Existing, 0, len(entries))
	for _, de := range entries {
		ex := plan.Existing{Name: de.Name(), Dir: !de.Type().IsRegular(), Size: -1}
		if stems[counterlessStem(de.Name())] {
			ex = r.existing(filepath.Join(dir, de.Name()), de)
		}
		out = append(out, ex)
	}
	return out, nil
}

// aliasesTaken lists the planned names that a listing by long names does
// not show but that open an existing entry all the same: an 8.3 alias
// ("PHOTOG~1.JPG" on NTFS, "PHOT~VBC.JPG" under Wine or Samba) of a file
// with a long name, which a source from a FAT card or a DOS-era backup may
// bear as its own name. Only names with a "~" are looked up, one Lstat
// each; such a name is blocked (the file gets a counter), never called
// identical.
func (r *Run) aliasesTaken(dir string, batch []planned, listed []plan.Existing) []plan.Existing {
	var taken []plan.Existing
	seen := make(map[string]bool, len(listed))
	for _, ex := range listed {
		seen[layout.FoldKey(ex.Name)] = true
	}
	for _, p := range batch {
		key := layout.FoldKey(p.Name)
		if !strings.Contains(p.Name, "~") || seen[key] {
			continue
		}
		seen[key] = true
		if _, err := r.cfg.FS.Lstat(filepath.Join(dir, p.Name)); err == nil {
			taken = append(taken, plan.Existing{Name: p.Name, Dir: true, Size: -1})
		}
	}
	return taken
}

// existing describes one destination entry that an incoming name may
// collide with. A regular file can be "already there" (same bytes); so can,
// in symlink mode, a link that resolves to a regular file (the link a
// previous run made, or one the user made to the same photo). Anything
// else only blocks its name.
func (r *Run) existing(full string, de fs.DirEntry) plan.Existing {
	ex := plan.Existing{Name: de.Name(), Dir: true, Size: -1}
	var info fs.FileInfo
	var err error
	switch {
	case de.Type().IsRegular():
		info, err = de.Info()
	case de.Type()&fs.ModeSymlink != 0 && r.cfg.Mode == transfer.Symlink:
		info, err = r.cfg.FS.Stat(full)
	default:
		return ex
	}
	if err == nil && info.Mode().IsRegular() { // unreadable entry: block its name, never call it identical
		ex.Dir, ex.Size = false, info.Size()
	}
	return ex
}

// dating is the run's zone for UTC-only times and its --date-tags order.
func (r *Run) dating() dating { return dating{loc: r.videoTZ(), tags: r.cfg.DateTags} }

// videoTZ is the zone for UTC-only times (video mvhd, Takeout JSON).
func (r *Run) videoTZ() *time.Location {
	if r.cfg.VideoTZ == nil {
		return time.Local
	}
	return r.cfg.VideoTZ
}

// wantedStems folds the stems of every name a batch may claim (companions
// share their primary's stem, so the primaries cover them).
func wantedStems(batch []planned) map[string]bool {
	stems := make(map[string]bool, len(batch))
	for _, p := range batch {
		stems[counterlessStem(p.Name)] = true
	}
	return stems
}

// counterlessStem folds a name down to what conflict renames keep:
// "IMG_1-12.JPG" and "img_1.jpg" both give "img_1".
func counterlessStem(name string) string {
	stem := groupStem(name)
	if i := strings.LastIndexByte(stem, '-'); i > 0 && layout.AllDigits(stem[i+1:]) {
		stem = stem[:i]
	}
	return layout.FoldKey(stem)
}

// sameContent compares two files byte for byte; any error means "different"
// (a rename is harmless, a false "identical" would drop a photo).
//
// One file under two names is the same content without reading it: a
// hard link of the source at the target is "already there" (hardlink mode's
// re-run). In symlink mode a link at the target is already there only when
// it resolves to the source itself, not merely to equal bytes elsewhere.
func (r *Run) sameContent(src, other string) bool {
	if r.cfg.Mode == transfer.Symlink {
		if li, err := r.cfg.FS.Lstat(other); err == nil && li.Mode()&fs.ModeSymlink != 0 {
			return r.sameFile(src, other)
		}
	}
	if r.sameFile(src, other) {
		return !r.selfCopy(src, other)
	}
	eq, err := digest.Equal(r.cfg.FS, src, other)
	return err == nil && eq
}

// sameFile reports whether two paths, links followed, name one file: the
// same identity, and the same size and mtime, which one file has under
// every name. Identity alone is not proof: under Wine every Linux
// filesystem below Z: is one volume, so files on two of them can share a
// volume serial and inode number, and ReFS's 64-bit file index is not
// unique; taken for one file, a different photo would be "already there".
func (r *Run) sameFile(a, b string) bool {
	ia, errA := r.cfg.FS.Stat(a)
	ib, errB := r.cfg.FS.Stat(b)
	return errA == nil && errB == nil && ia.Mode().IsRegular() && os.SameFile(ia, ib) &&
		ia.Size() == ib.Size() && ia.ModTime().Equal(ib.ModTime())
}

// selfCopy reports whether the library file lib is the source src itself
// held outside the library: one directory entry whose folder, links
// resolved, is not in the library, reached through a link put in the
// library in place of a folder. It holds no copy of src, and taking it for
// one would leave the photo's only bytes in the source. A hard link
// (hardlink mode's copy) is another entry and a copy; the library's own
// file, sorted again as a source (by its own path, or through a link to
// a library folder), is in the library already.
func (r *Run) selfCopy(src, lib string) bool {
	if filepath.Clean(src) == filepath.Clean(lib) {
		return false
	}
	is, errS := r.cfg.FS.Stat(src)
	il, errL := r.cfg.FS.Stat(lib)
	return errS == nil && errL == nil && fsx.OneEntry(r.cfg.FS.Stat, src, is, lib, il) && !r.reallyInLibrary(lib)
}

// reallyInLibrary reports whether p's folder, every link resolved, is
// the library's folder or inside it (its links resolved too). What cannot
// be resolved is not.
func (r *Run) reallyInLibrary(p string) bool {
	dir, errD := filepath.EvalSymlinks(filepath.Dir(p))
	root, errR := filepath.EvalSymlinks(r.dest)
	if errD != nil || errR != nil {
		return false
	}
	rel, err := filepath.Rel(root, dir)
	return err == nil && filepath.IsLocal(rel) || rel == "."
}

// splitName splits a base name into stem and extension, keeping a leading
// dot in the stem.
func splitName(base string) (string, string) {
	ext := path.Ext(base)
	if ext == base || strings.ContainsAny(ext, " ") {
		return base, ""
	}
	return strings.TrimSuffix(base, ext), ext
}

// duplicateReason says what a duplicate duplicates and why that copy,
// not this one, is kept.
func duplicateReason(dup dupOf) string {
	if dup.Why == "" {
		return "same content as " + dup.Path
	}
	return fmt.Sprintf("same content as %s (kept: %s)", dup.Path, dup.Why)
}
