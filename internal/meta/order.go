package meta

import (
	"crypto/md5"
	"fmt"
	"strings"
)

// Order is the precedence of date fields: the first kind in it that the
// file holds a valid date of wins. The zero Order is the default, which
// follows the Metadata Working Group's guidance (doc.go, README).
type Order struct {
	ranks [numRanks]rank
	named [numRanks]bool // the user put this kind in --date-tags
	set   bool
}

// dateTag is a name --date-tags accepts for a kind of date field.
type dateTag struct {
	name string
	rk   rank
	what string
}

// dateTags lists the kinds of date field in their default order.
var dateTags = [numRanks]dateTag{
	{"DateTimeOriginal", rankOriginal, "EXIF DateTimeOriginal and its equivalents in formats without EXIF (CRW, AVI IDIT, AVCHD, DV, ImageMagick's exif:DateTimeOriginal)"},
	{"XMP:DateCreated", rankXMPDateCreated, "XMP photoshop:DateCreated"},
	{"IPTC:DateCreated", rankIPTC, "IPTC DateCreated + TimeCreated"},
	{"XMP:DateTimeOriginal", rankXMPOriginal, "XMP exif:DateTimeOriginal"},
	{"CreateDate", rankDigitized, "EXIF CreateDate (DateTimeDigitized), FLV creationdate, ImageMagick's exif:DateTimeDigitized"},
	{"XMP:CreateDate", rankXMPCreate, "XMP xmp:CreateDate"},
	{"IPTC:DigitalCreationDate", rankIPTCDigital, "IPTC DigitalCreationDate + DigitalCreationTime"},
	{"Maker", rankMaker, "a maker's own record (Canon CIFF, Casio, Olympus, Reconyx, Sigma, Sony PMP, Kyocera, FLIR)"},
	{"PNG:CreationTime", rankPNGCreation, "PNG Creation Time, ImageMagick's create-date"},
	{"ModifyDate", rankModify, "EXIF ModifyDate, PNG tIME, ImageMagick's modify-date"},
	{"XMP:ModifyDate", rankXMPModify, "XMP xmp:ModifyDate"},
	{"PNG:DateModify", rankConvModify, "ImageMagick's date:modify (a conversion stamp)"},
	{"PNG:DateCreate", rankConvCreate, "ImageMagick's date:create (a conversion stamp)"},
	{"QuickTime:CreationDate", rankKeys, "QuickTime Keys com.apple.quicktime.creationdate"},
	{"QuickTime:CreateDate", rankMvhd, "QuickTime mvhd, Matroska DateUTC, ASF Creation Date (UTC container times)"},
}

// DateTagNames lists the names --date-tags accepts, in default order.
func DateTagNames() []string {
	names := make([]string, len(dateTags))
	for i, t := range dateTags {
		names[i] = t.name
	}
	return names
}

// ParseDateTags reads a comma-separated list of date tag names (any case):
// they take precedence in the order given, and the kinds not named follow
// in the default order. "" is the default order.
func ParseDateTags(s string) (Order, error) {
	var o Order
	if strings.TrimSpace(s) == "" {
		return o, nil
	}
	n := 0
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		t, ok := lookupDateTag(name)
		switch {
		case !ok:
			return Order{}, fmt.Errorf("unknown date tag %q: the names are %s", name, strings.Join(DateTagNames(), ", "))
		case o.named[t.rk]:
			return Order{}, fmt.Errorf("date tag %q is named twice", t.name)
		}
		o.named[t.rk] = true
		o.ranks[n] = t.rk
		n++
	}
	for _, t := range dateTags {
		if !o.named[t.rk] {
			o.ranks[n] = t.rk
			n++
		}
	}
	o.set = true
	return o, nil
}

func lookupDateTag(name string) (dateTag, bool) {
	for _, t := range dateTags {
		if strings.EqualFold(t.name, name) {
			return t, true
		}
	}
	return dateTag{}, false
}

// String is the order as --date-tags would name it in full.
func (o Order) String() string {
	o = o.orDefault()
	names := make([]string, len(o.ranks))
	for i, rk := range o.ranks {
		names[i] = rankName(rk)
	}
	return strings.Join(names, ",")
}

func rankName(rk rank) string {
	for _, t := range dateTags {
		if t.rk == rk {
			return t.name
		}
	}
	return fmt.Sprintf("rank(%d)", rk)
}

var defaultOrder = func() Order {
	var o Order
	for i, t := range dateTags {
		o.ranks[i] = t.rk
	}
	o.set = true
	return o
}()

func (o Order) orDefault() Order {
	if !o.set {
		return defaultOrder
	}
	return o
}

// The IPTC digest (MWG): Photoshop records in image resource 0x0425 the
// MD5 of the IPTC-IIM block it wrote together with the XMP. When the
// IPTC block no longer has that digest, a tool that knows nothing of XMP
// changed the IPTC after, and the IPTC dates are the newer word; when it
// has it, or when there is no digest, the XMP dates are preferred.
type iptcDigest struct {
	stored    [md5.Size]byte
	hasStored bool
	block     []byte // the IPTC block read, hashed when needed
}

// isReconciled reports whether rk is one of the IPTC and XMP kinds the
// digest may reorder.
func isReconciled(rk rank) bool {
	switch rk {
	case rankIPTC, rankXMPDateCreated, rankIPTCDigital, rankXMPCreate:
		return true
	}
	return false
}

// changedAfterXMP reports whether the IPTC was changed after the XMP.
func (d iptcDigest) changedAfterXMP() bool {
	return d.hasStored && d.block != nil && md5.Sum(d.block) != d.stored
}

// noteIPTCNewer and noteXMPNewer say, in explain, why IPTC or XMP won.
const (
	noteIPTCNewer = "IPTC digest differs: the IPTC was changed after the XMP, so IPTC comes first"
	noteXMPFirst  = "MWG: XMP comes before IPTC when the IPTC digest matches or is absent"
)

// reconcile puts IPTC before XMP when the IPTC digest says the IPTC is
// the newer, unless the user ordered them with --date-tags.
func (p *parse) reconcile() {
	both := (p.have[rankIPTC] && p.have[rankXMPDateCreated]) || (p.have[rankIPTCDigital] && p.have[rankXMPCreate])
	if !both {
		return
	}
	if !p.iptc.changedAfterXMP() {
		p.noteReconciled = noteXMPFirst
		return
	}
	p.noteReconciled = noteIPTCNewer
	p.order.swap(rankXMPDateCreated, rankIPTC)
	p.order.swap(rankXMPCreate, rankIPTCDigital)
}

// swap exchanges the places of a and b, unless the user named either.
func (o *Order) swap(a, b rank) {
	if o.named[a] || o.named[b] {
		return
	}
	var ia, ib int
	for i, rk := range o.ranks {
		switch rk {
		case a:
			ia = i
		case b:
			ib = i
		}
	}
	o.ranks[ia], o.ranks[ib] = o.ranks[ib], o.ranks[ia]
}

func isReconciledTag(tag string) bool {
	switch tag {
	case tagIPTCCreated, tagXMPCreated, tagIPTCDigital, tagXMPCreate:
		return true
	}
	return false
}
