package pipeline

import (
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/shoebox-photos/shoebox/internal/archive"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/scan"
	"github.com/shoebox-photos/shoebox/internal/shift"
)

// Files that belong together share a source folder and a stem: IMG_1.CR2
// with IMG_1.JPG and IMG_1.CR2.xmp, a Live Photo's IMG_2.HEIC with
// IMG_2.MOV, a Takeout photo with IMG_3.jpg.json. The meta stage records
// each file under g/<folder>\0<folded stem>\0<seq>, so the plan stage meets
// a group's members one after another and never holds more than one group.

var (
	keyGroup = []byte("g/") // g/<dir>\0<fold(stem)>\0<seq>
	keyLive  = []byte("v/") // v/<dir>\0<content id>\0<seq> → its g/ key
)

// liveKey files a photo or video under its Apple ContentIdentifier, so
// the halves of a Live Photo meet even when their names differ.
func liveKey(fi fileInfo) []byte {
	dir := filepath.Dir(fi.File.Path)
	k := append(append([]byte(nil), keyLive...), dir...)
	k = append(append(k, 0), fi.Info.ContentID...)
	return seqKey(append(k, 0), fi.Seq)
}

func groupKey(fi fileInfo) []byte {
	dir, _ := filepath.Split(fi.File.Path)
	dir = seriesDir(fi.File, dir)
	k := append([]byte(nil), keyGroup...)
	k = append(k, dir...)
	k = append(k, 0)
	k = append(k, layout.FoldKey(groupStemOf(fi.File.Path))...)
	k = append(k, 0)
	return seqKey(k, fi.Seq)
}

// seriesDir is the folder a file is grouped under: its own, except for a
// member of a numbered part of an archive series (Takeout's
// takeout-…-001.zip, -002.zip …), grouped under the series, so that a
// photo in one part meets its JSON in another. The NUL cannot be in a
// path, so no folder on disk groups with a series.
func seriesDir(f scan.File, dir string) string {
	if f.Dev != archive.Dev || !strings.HasPrefix(dir, f.Root) {
		return dir
	}
	if series, ok := archive.Series(f.Root); ok {
		return series + "\x00" + dir[len(f.Root):]
	}
	return dir
}

// sidecarSuffixes are endings that follow a media file's full name;
// Takeout's JSON (.json) is split by splitTakeoutJSON.
var sidecarSuffixes = []string{".xmp", ".aae", ".thm"}

// groupStem is the part of a name a file's companions share: "IMG_1" for
// IMG_1.CR2, IMG_1.xmp, IMG_1.CR2.xmp and IMG_1.jpg.supplemental-metadata.json.
func groupStem(base string) string {
	stem, _ := splitCompanion(base)
	return stem
}

// splitCompanion splits a name into the stem its group shares and the
// suffix it keeps when it follows its leader to the leader's name:
// IMG_1.CR2.xmp is IMG_1 and .CR2.xmp. The two make up the name, except
// for Takeout's numbered JSON (image.jpg(1).json, the JSON of image(1).jpg),
// whose stem is image(1) and which follows as .jpg.json, the name every
// tool reads as image(1).jpg's.
func splitCompanion(base string) (stem, suffix string) {
	lower := strings.ToLower(base)
	if strings.HasSuffix(lower, ".json") && len(base) > len(".json") {
		return splitTakeoutJSON(base)
	}
	for _, suf := range sidecarSuffixes {
		if strings.HasSuffix(lower, suf) && len(base) > len(suf) {
			inner := base[:len(base)-len(suf)]
			if ext := filepath.Ext(inner); ext != "" && ext != inner && (isMediaExt(ext) || clippedMediaExt(ext)) {
				inner = inner[:len(inner)-len(ext)]
			}
			return inner, base[len(inner):]
		}
	}
	stem, _ = splitName(base)
	return stem, base[len(stem):]
}

// groupStemOf is the stem the file at path groups under: groupStem, and in
// a Takeout (layout.InTakeout) an edited copy's original's stem, since
// Takeout writes no JSON for IMG_1-edited.jpg: it joins IMG_1's group,
// where it borrows its date (dateEditedCopies). Elsewhere an -edited name
// is a name like any other, grouped with its own sidecars.
func groupStemOf(path string) string {
	dir, base := filepath.Split(path)
	stem := groupStem(base)
	if orig, ok := cutSuffixFold(stem, takeoutEdited); ok && orig != "" && layout.InTakeout(dir) {
		return orig
	}
	return stem
}

// takeoutEdited ends the name of the copy Google Photos' editor saved.
const takeoutEdited = "-edited"

// takeoutCounter is the counter Takeout moves behind a JSON's clipped
// name: image(1).jpg's JSON is image.jpg(1).json.
var takeoutCounter = regexp.MustCompile(`\(\d{1,4}\)$`)

// splitTakeoutJSON splits a Takeout JSON's name,
// NAME.EXT[.supplemental-metadata][(N)].json, where Takeout clips
// NAME.EXT.supplemental-metadata to 46 bytes (cutting the suffix, or even
// the extension, short: PXL_20230704_153000123.jpg.supplemental-metad.json)
// and moves a duplicate's counter (N) behind it.
func splitTakeoutJSON(base string) (stem, suffix string) {
	inner := base[:len(base)-len(".json")]
	counter := ""
	if loc := takeoutCounter.FindStringIndex(inner); loc != nil && loc[0] > 0 {
		inner, counter = inner[:loc[0]], inner[loc[0]:]
	}
	supplemental := ""
	if i := strings.LastIndexByte(inner, '.'); i > 0 && supplementalClip(inner[i+1:], inner[:i]) {
		inner, supplemental = inner[:i], inner[i:]
	}
	ext := filepath.Ext(inner)
	if ext == "" || ext == inner || !(isMediaExt(ext) || clippedMediaExt(ext)) {
		ext = "" // notes.json, metadata.json: no photo's name inside
	}
	stem = inner[:len(inner)-len(ext)]
	if counter == "" {
		return stem, base[len(stem):]
	}
	if ext == "" {
		return stem + counter, ".json"
	}
	return stem + counter, ext + supplemental + ".json"
}

// supplementalClip reports whether tail is Takeout's
// "supplemental-metadata" (after head's dot), whole, or clipped after a
// photo's name (head ends with a media extension).
func supplementalClip(tail, head string) bool {
	const whole = "supplemental-metadata"
	t := strings.ToLower(tail)
	if t == whole {
		return true
	}
	ext := filepath.Ext(head)
	return t != "" && strings.HasPrefix(whole, t) && ext != "" && ext != head && isMediaExt(ext)
}

func isMediaExt(ext string) bool {
	switch strings.ToLower(ext) {
	case ".jpg", ".jpeg", ".heic", ".heif", ".avif", ".png", ".webp", ".tif", ".tiff", ".dng",
		".cr2", ".cr3", ".crw", ".nef", ".nrw", ".arw", ".srf", ".sr2", ".raf", ".orf", ".rw2", ".pef", ".srw",
		".mov", ".mp4", ".m4v", ".3gp", ".avi", ".mts", ".m2ts", ".gif":
		return true
	}
	return false
}

// clippedMediaExt spots a media extension cut short: Google Takeout clips
// long sidecar names, so IMG_20190704_153000123.jpg gets
// IMG_20190704_153000123.jp.json.
func clippedMediaExt(ext string) bool {
	if len(ext) < 2 {
		return false
	}
	for _, full := range []string{".jpg", ".jpeg", ".heic", ".png", ".mp4", ".mov", ".webp", ".gif", ".dng"} {
		if len(ext) < len(full) && strings.HasPrefix(full, strings.ToLower(ext)) {
			return true
		}
	}
	return false
}

// pairWindow is how far apart two media files with one stem may have been
// captured and still be one shot (RAW+JPEG, a Live Photo's still and video).
const pairWindow = 2 * time.Minute

// groupPlan is how one group is handled.
type groupPlan struct {
	primary    fileInfo
	companions []fileInfo // travel with primary under its stem
	singles    []fileInfo // media of the same stem that are separate shots
	orphans    []fileInfo // sidecars with no photo to follow
}

// arrange picks the group's primary and decides who travels with it.
func arrange(members []fileInfo, dt dating, shifts *shift.Rules) groupPlan {
	var media, sidecars []fileInfo
	for _, m := range members {
		switch m.Info.Kind {
		case meta.KindPhoto, meta.KindVideo:
			media = append(media, m)
		case meta.KindSidecar:
			sidecars = append(sidecars, m)
		}
	}
	if len(media) == 0 {
		return groupPlan{orphans: sidecars}
	}
	sort.SliceStable(media, func(i, j int) bool { return primaryRank(media[i]) < primaryRank(media[j]) })
	g := groupPlan{primary: media[0], companions: sidecars}
	for _, m := range media[1:] {
		if sameShot(g.primary, m) {
			g.companions = append(g.companions, m)
		} else {
			g.singles = append(g.singles, m)
		}
	}
	g.borrowDate(dt)
	g.applyShifts(shifts)
	return g
}

// applyShifts moves the group's dates by --shift once the group is
// arranged: pairs are judged on the clocks' own times, so a RAW+JPEG or a
// Live Photo is one shot whatever the rules say, and shifts together, by
// its leader's rule; sidecars follow the date of the file they travel
// with. A leader without a camera model (an AVI dated by its THM) takes
// the rule of the first companion that names one.
func (g *groupPlan) applyShifts(rules *shift.Rules) {
	if rules.Empty() {
		return
	}
	model := g.primary.Info.Model
	for _, c := range g.companions {
		if model != "" {
			break
		}
		model = c.Info.Model
	}
	g.primary.Info.Date = shiftDate(g.primary.Info.Date, g.primary.File.Path, model, rules)
	for i := range g.singles {
		s := &g.singles[i]
		s.Info.Date = shiftDate(s.Info.Date, s.File.Path, s.Info.Model, rules)
	}
}

// shiftDate applies the --shift rule that names a file, by its folder or
// its camera model, to its date.
func shiftDate(d meta.Date, path, model string, rules *shift.Rules) meta.Date {
	if rule, ok := rules.For(path, model); ok {
		return d.Shifted(rule.By, rule.Text)
	}
	return d
}

// primaryRank orders candidates to lead a group: a date read from the file
// before a guessed one (the group files under the leader's date), then a
// RAW before its JPEG (the original), a photo before a video, then the name.
func primaryRank(f fileInfo) string {
	dated := "1"
	if fromHeader(f.Info.Date) {
		dated = "0"
	}
	kind := "2"
	if f.Info.Kind == meta.KindPhoto {
		kind = "1"
		if isRaw(f.Info.Format) {
			kind = "0"
		}
	}
	edited := "0" // an edited copy never leads its original
	if isEditedCopy(f.File.Path) {
		edited = "1"
	}
	return dated + kind + edited + filepath.Base(f.File.Path)
}

// isEditedCopy reports a Takeout edited copy's name: IMG_1-edited.jpg.
func isEditedCopy(path string) bool {
	stem, _ := splitName(filepath.Base(path))
	orig, ok := cutSuffixFold(stem, takeoutEdited)
	return ok && orig != ""
}

// borrowDate gives an undated leader the date its companions carry: an
// old camera's AVI or MPG has no date, its THM thumbnail has EXIF; a
// Takeout photo stripped of EXIF has its time in the JSON sidecar; an XMP
// sidecar may hold the capture date a scanner never wrote into the JPEG.
func (g *groupPlan) borrowDate(dt dating) {
	g.dateEditedCopies(g.borrowForPrimary(dt))
}

// borrowForPrimary dates an undated leader from its companions; true when
// it did.
func (g *groupPlan) borrowForPrimary(dt dating) bool {
	if fromHeader(g.primary.Info.Date) {
		return false
	}
	for _, c := range g.companions {
		d, ok := companionDate(c, dt)
		if ok {
			d.Tag = filepath.Base(c.File.Path) + " " + d.Tag
			g.primary.Info.Date = d
			return true
		}
	}
	return false
}

// dateEditedCopies gives an edited copy with no date of its own
// (Takeout's IMG_1-edited.jpg: the editor dropped the EXIF, and Takeout
// writes no JSON for it) its original's date, the one the group's leader
// is filed under: it is the same shot.
// borrowed says the leader's date is a companion's, whose tag names it.
func (g *groupPlan) dateEditedCopies(borrowed bool) {
	lead := g.primary.Info.Date
	if !fromHeader(lead) || isEditedCopy(g.primary.File.Path) {
		return
	}
	for i := range g.singles {
		s := &g.singles[i]
		if isEditedCopy(s.File.Path) && !fromHeader(s.Info.Date) {
			d := lead
			if !borrowed { // the leader's own field: say whose
				d.Tag = filepath.Base(g.primary.File.Path) + " " + d.Tag
			}
			s.Info.Date = d
		}
	}
}

// dating is what dates a group's files beyond their own headers: the zone
// of times stored in UTC only (a video's, Takeout's timestamps) and the
// --date-tags order, which a sidecar's XMP dates follow as a header's do.
type dating struct {
	loc  *time.Location
	tags meta.Order
}

// companionDate is a companion's own capture date, read from its header
// (a THM, a paired video) or, for a JSON or XMP sidecar, from its content.
func companionDate(c fileInfo, dt dating) (meta.Date, bool) {
	if c.Info.Kind != meta.KindSidecar {
		return c.Info.Date, fromHeader(c.Info.Date)
	}
	if c.Info.Format == "thm" && fromHeader(c.Info.Date) {
		return c.Info.Date, true
	}
	d, ok, err := c.sidecarDate(dt)
	return d, ok && err == nil
}

func isRaw(format string) bool { return meta.IsRaw(format) }

// isStill is a camera's or phone's rendered photo: the JPEG beside a RAW,
// the still of a Live Photo.
func isStill(format string) bool {
	switch format {
	case "jpeg", "heic", "heif", "avif":
		return true
	}
	return false
}

// pairKinds reports whether two media files of one stem are the kinds a
// single shot produces: RAW+JPEG, or a Live Photo's still and video. Two
// stills (x.png beside x.jpg), two videos or a RAW beside a video are
// separate files whatever their names.
func pairKinds(a, b meta.Info) bool {
	if a.Kind == meta.KindVideo {
		a, b = b, a
	}
	switch {
	case a.Kind == meta.KindPhoto && b.Kind == meta.KindVideo:
		return isStill(a.Format)
	case a.Kind == meta.KindPhoto && b.Kind == meta.KindPhoto:
		return isRaw(a.Format) != isRaw(b.Format) && (isStill(a.Format) || isStill(b.Format))
	}
	return false
}

// sameShot reports whether two media files of one stem are one capture:
// the kinds of one shot (pairKinds) captured within pairWindow. Only then
// may one take the other's date. A shared Apple ContentIdentifier is no
// proof (an edited copy keeps its original's), but two different ones
// are proof of two shots.
func sameShot(a, b fileInfo) bool {
	if a.Info.ContentID != "" && b.Info.ContentID != "" && a.Info.ContentID != b.Info.ContentID {
		return false
	}
	if !pairKinds(a.Info, b.Info) {
		return false
	}
	if !fromHeader(a.Info.Date) || !fromHeader(b.Info.Date) {
		return true // one has no date of its own: it takes its partner's
	}
	return apart(a.Info.Date, b.Info.Date) < pairWindow
}

// apart is how far apart two capture times are: as instants when both
// know their UTC offset (a phone's video in UTC beside its photo's local
// time with OffsetTimeOriginal), else as wall clocks.
func apart(a, b meta.Date) time.Duration {
	d := a.Wall.Sub(b.Wall)
	if ia, ok := a.Instant(); ok {
		if ib, ok := b.Instant(); ok {
			d = ia.Sub(ib)
		}
	}
	return d.Abs()
}

func fromHeader(d meta.Date) bool { return d.Source.FromFile() }

// companionTag says where a companion's date came from: the file it
// follows ("IMG_1.JPG ExifIFD:DateTimeOriginal"), or its own field when
// that file borrowed the date from it (an AVI dated by this THM).
func companionTag(primary, companion, tag string) string {
	if tag == "" {
		return ""
	}
	if own, ok := strings.CutPrefix(tag, filepath.Base(companion)+" "); ok {
		return own
	}
	return filepath.Base(primary) + " " + tag
}

// suffixAfterStem is what a companion keeps of its name when it follows
// its leader (splitCompanion).
func suffixAfterStem(path string) string {
	stem, suffix := splitCompanion(filepath.Base(path))
	if own := groupStemOf(path); own != stem { // a Takeout edited copy
		return filepath.Base(path)[len(own):]
	}
	return suffix
}

// SuffixAfterStem is what follows a file's group stem in its name
// (".xmp" of IMG_1.xmp, ".JPG.xmp" of IMG_1.JPG.xmp, ".MOV" of IMG_1.MOV):
// the part a companion keeps when it follows its leader to a new name
// (shoebox relayout groups library files as sort groups sources).
func SuffixAfterStem(path string) string { return suffixAfterStem(path) }
