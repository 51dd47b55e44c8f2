package meta

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// rank names a kind of date field; Order says which kind wins.
// Each rank keeps the first valid field of its kind seen in the file.
type rank uint8

// Ranks in their default order (MWG, see doc.go): the capture date and
// its IPTC and XMP equivalents, then the digitisation date and its
// equivalents, then the maker's and the PNG creation date, then the
// last modification, then the conversion stamps, then video container
// times.
const (
	rankOriginal       rank = iota // EXIF DateTimeOriginal and container equivalents (CRW, AVI)
	rankXMPDateCreated             // XMP photoshop:DateCreated (MWG: = DateTimeOriginal)
	rankIPTC                       // IPTC DateCreated + TimeCreated (MWG: = DateTimeOriginal)
	rankXMPOriginal                // XMP exif:DateTimeOriginal
	rankDigitized                  // EXIF CreateDate (DateTimeDigitized)
	rankXMPCreate                  // XMP xmp:CreateDate (MWG: = CreateDate)
	rankIPTCDigital                // IPTC DigitalCreationDate + Time (MWG: = CreateDate)
	rankMaker                      // a maker's own capture date (Reconyx, Casio QVCI, Olympus PictureInfo, CIFF in JPEG, FLIR)
	rankPNGCreation                // PNG "Creation Time", ImageMagick's create-date
	rankModify                     // IFD0 ModifyDate (DateTime), PNG tIME, ImageMagick's modify-date: the last edit
	rankXMPModify                  // XMP xmp:ModifyDate (MWG: = ModifyDate)
	rankConvModify                 // ImageMagick's date:modify: the converted file's modification time
	rankConvCreate                 // ImageMagick's date:create: the converted file's change time
	rankKeys                       // QuickTime Keys com.apple.quicktime.creationdate
	rankMvhd                       // QuickTime mvhd creation time; Matroska DateUTC, ASF CreationDate (UTC container times)
	numRanks
)

// Tags reported in Date.Tag.
const (
	tagDTO           = "ExifIFD:DateTimeOriginal"
	tagCreate        = "ExifIFD:CreateDate"
	tagModify        = "IFD0:ModifyDate"
	tagIFD0DTO       = "IFD0:DateTimeOriginal"
	tagXMPDTO        = "XMP-exif:DateTimeOriginal"
	tagXMPCreate     = "XMP-xmp:CreateDate"
	tagXMPCreated    = "XMP-photoshop:DateCreated"
	tagXMPModify     = "XMP-xmp:ModifyDate"
	tagKeys          = "Keys:CreationDate"
	tagMvhd          = "QuickTime:CreateDate"
	tagCIFF          = "CanonRaw:DateTimeOriginal"
	tagRIFF          = "RIFF:DateTimeOriginal"
	tagNikonAVI      = "Nikon:DateTimeOriginal"
	tagPNGCreation   = "PNG:CreationTime"
	tagPNGDate       = "PNG:Datecreate" // ImageMagick's date:create, a conversion stamp
	tagPNGDateModify = "PNG:Datemodify" // ImageMagick's date:modify, a conversion stamp
	tagPNGCreateDate = "PNG:CreateDate" // ImageMagick's create-date
	tagPNGModDate    = "PNG:ModDate"    // ImageMagick's modify-date
	tagPNGExifDTO    = "PNG:ExifDateTimeOriginal"
	tagPNGExifCreate = "PNG:ExifDateTimeDigitized"
	tagPNGTime       = "PNG:ModifyDate" // the tIME chunk: last modification
	tagIPTCCreated   = "IPTC:DateCreated"
	tagIPTCDigital   = "IPTC:DigitalCreationDate"
	tagMatroska      = "Matroska:DateTimeOriginal"
	tagASF           = "ASF:CreationDate"
	tagH264          = "H264:DateTimeOriginal"
	tagDV            = "DV:DateTimeOriginal"
	tagX3F           = "SigmaRaw:DateTimeOriginal"
	tagReconyx       = "Reconyx:DateTimeOriginal"
	tagCasio         = "Casio:DateTimeOriginal"
	tagPictureInfo   = "PictureInfo:DateTimeOriginal"
	tagCIFFJPEG      = "CIFF:DateTimeOriginal"
	tagFilename      = "Filename"
	tagModTime       = "File:ModifyDate"
	noteUsed         = "used"
	noteLower        = "lower precedence than the date used"
	noteDuplicate    = "same field seen earlier in the file"
	noteTimeLost     = "time unreadable, filed by its day: "
	maxCandidates    = 64
	maxStringLength  = 256
)

// parse is the state of reading one file.
type parse struct {
	r       *Reader
	name    string
	in      *input
	mtime   time.Time
	maxYear int
	info    Info
	best    [numRanks]Date
	have    [numRanks]bool
	bestAt  [numRanks]int    // index into info.Candidates when explaining
	offNote [numRanks]string // where a kept date's offset came from, when not its own field
	order   Order            // which rank wins; reconciled with the IPTC digest in finish
	iptc    iptcDigest       // whether the IPTC was changed after the XMP (MWG)
	// noteReconciled says, for explain, how IPTC and XMP were ordered
	// when the file holds dates of both.
	noteReconciled string
	ext            string // lower-case extension without the dot
	isDNG          bool   // IFD0 carries DNGVersion
	// rejected is the first date field that was not a usable date, kept so
	// that a fallback to the file name or mtime can say why.
	rejected string
}

func (r *Reader) newParse(name string, in *input, mtime time.Time) *parse {
	r.state = parse{r: r, name: name, in: in, mtime: mtime, maxYear: r.now().Year() + 1, order: r.opt.DateTags.orDefault()}
	p := &r.state
	p.ext = lowerExt(name)
	return p
}

func lowerExt(name string) string {
	e := filepath.Ext(name)
	if len(e) < 2 {
		return ""
	}
	e = e[1:]
	for i := 0; i < len(e); i++ {
		if c := e[i]; c >= 'A' && c <= 'Z' {
			return strings.ToLower(e)
		}
	}
	return e
}

func (p *parse) warn(msg string) {
	if p.info.Warning == "" {
		p.info.Warning = msg
	}
}

// offer records a date field seen in the file. The first valid field of each
// rank is kept (kept reports whether d was); the best rank wins in finish.
func (p *parse) offer(rk rank, d Date, raw []byte) (kept bool) {
	if p.have[rk] {
		p.explain(d, raw, noteDuplicate)
		return false
	}
	p.have[rk] = true
	p.best[rk] = d
	p.bestAt[rk] = p.explain(d, raw, "")
	return true
}

// dated reports whether some field has given a usable date.
func (p *parse) dated() bool {
	for _, h := range p.have {
		if h {
			return true
		}
	}
	return false
}

// datedAbove reports whether a field of a better rank than rk has given a
// usable date, so that fields of rank rk can no longer win. The IPTC
// digest may still swap IPTC and XMP, so neither counts as above the other.
func (p *parse) datedAbove(rk rank) bool {
	for _, r := range p.order.ranks {
		switch {
		case r == rk:
			return false
		case p.have[r] && !(isReconciled(r) && isReconciled(rk)):
			return true
		}
	}
	return false
}

// reject records a field whose text is not a usable date.
func (p *parse) reject(tag string, src Source, raw []byte, reason string) {
	if p.rejected == "" {
		p.rejected = fmt.Sprintf("%s %q is not a usable date (%s)", tag, cleanString(raw), reason)
	}
	p.explain(Date{Source: src, Tag: tag}, raw, reason)
}

// explain appends a candidate when explaining; it returns its index or -1.
func (p *parse) explain(d Date, raw []byte, note string) int {
	if !p.r.opt.Explain || len(p.info.Candidates) >= maxCandidates {
		return -1
	}
	p.info.Candidates = append(p.info.Candidates, Candidate{Date: d, Raw: string(trimText(raw)), Note: note})
	return len(p.info.Candidates) - 1
}

// offerText parses an EXIF/XMP style date with optional sub-seconds and
// offset fields and offers it.
func (p *parse) offerText(rk rank, src Source, tag string, raw, subsec, offset []byte) {
	if d, ok := p.textDate(src, tag, raw, subsec, offset); ok {
		p.offer(rk, d, raw)
	}
}

// textDate parses an EXIF/XMP style date with optional sub-seconds and
// offset fields; a date that is not usable is rejected (ok=false).
func (p *parse) textDate(src Source, tag string, raw, subsec, offset []byte) (d Date, ok bool) {
	c, reason := parseDateTime(raw, p.maxYear)
	if reason != "" {
		p.reject(tag, src, raw, reason)
		return Date{}, false
	}
	if ns, ok := parseSubSec(subsec); ok && c.ns == 0 {
		c.ns = ns
	}
	if !c.hasOff {
		if off, has, ok := parseOffset(offset); ok && has {
			c.off, c.hasOff = off, true
		}
	}
	return Date{Wall: c.wall(), Offset: c.off, HasOffset: c.hasOff, Source: src, Tag: tag, TimeLost: c.lostTime}, true
}

// finish picks the winning date, falling back to the file name and mtime.
func (p *parse) finish() Info {
	if p.in.err != nil {
		p.warn("read " + p.name + ": " + p.in.err.Error())
	}
	p.reconcile()
	for _, rk := range p.order.ranks {
		if p.have[rk] {
			p.info.Date = p.best[rk]
			p.markUsed(p.bestAt[rk], p.offNote[rk])
			p.assumeZone(p.bestAt[rk])
			return p.info
		}
	}
	if p.rejected != "" {
		p.warn(p.rejected)
	}
	if t, ok := FilenameDate(filepath.Base(p.name)); ok {
		p.info.Date = Date{Wall: t, Source: SourceFilename, Tag: tagFilename}
	} else if !p.mtime.IsZero() {
		p.info.Date = Date{Wall: wallOf(p.mtime), Source: SourceModTime, Tag: tagModTime}
		_, off := p.mtime.Zone()
		p.info.Date.Offset, p.info.Date.HasOffset = off, true
	}
	if !p.info.Date.IsZero() {
		used := p.explain(p.info.Date, []byte(p.info.Date.Wall.Format("2006:01:02 15:04:05")), "")
		p.markUsed(used, "")
		p.assumeZone(used)
	}
	return p.info
}

// markUsed notes which candidate won (and where its offset came from,
// when not from its own field) and that the others lost to it.
func (p *parse) markUsed(used int, offNote string) {
	for i := range p.info.Candidates {
		c := &p.info.Candidates[i]
		switch {
		case i == used:
			c.Note = appendNote(noteUsed, offNote)
		case c.Note == "":
			c.Note = noteLower
		}
		if c.TimeLost != "" {
			c.Note = appendNote(c.Note, noteTimeLost+c.TimeLost)
		}
		if c.Partial != "" {
			c.Note = appendNote(c.Note, c.Partial)
		}
		if c.Wall != (time.Time{}) {
			c.Note = appendNote(c.Note, tagNote(c.Tag))
		}
		if p.noteReconciled != "" && isReconciledTag(c.Tag) && c.Wall != (time.Time{}) {
			c.Note = appendNote(c.Note, p.noteReconciled)
		}
	}
}

// tagNote says, for explain, what kind of date a field holds when its
// name does not: ImageMagick's stamps are the times of the file it
// converted, not of the photo.
func tagNote(tag string) string {
	switch tag {
	case tagPNGDate:
		return "a conversion stamp: ImageMagick's copy of the converted file's change time"
	case tagPNGDateModify:
		return "a conversion stamp: ImageMagick's copy of the converted file's modification time"
	case tagXMPModify, tagModify, tagPNGTime, tagPNGModDate:
		return "the last edit, not the capture"
	}
	return ""
}

// wallOf returns t's local clock fields in UTC.
func wallOf(t time.Time) time.Time {
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	return time.Date(y, mo, d, h, mi, s, t.Nanosecond(), time.UTC)
}

// setMakeModel keeps the first make and model found.
func (p *parse) setMake(b []byte) {
	if p.info.Make == "" {
		p.info.Make = cleanString(b)
	}
}

func (p *parse) setModel(b []byte) {
	if p.info.Model == "" {
		p.info.Model = cleanString(b)
	}
}

func cleanString(b []byte) string {
	b = trimText(b)
	if len(b) > maxStringLength {
		b = b[:maxStringLength]
	}
	for _, c := range b {
		if c < 0x20 || c == 0x7f {
			return strings.Map(printable, string(b))
		}
	}
	return string(b)
}

func printable(r rune) rune {
	if r < 0x20 || r == 0x7f {
		return -1
	}
	return r
}
