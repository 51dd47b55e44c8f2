package meta

import "bytes"

const maxXMPBytes = 1 << 20

// xmpField is a date property in an XMP packet, in precedence order.
type xmpField struct {
	name []byte
	rk   rank
	tag  string
}

var xmpFields = [...]xmpField{
	{[]byte("exif:DateTimeOriginal"), rankXMPOriginal, tagXMPDTO},
	{[]byte("xmp:CreateDate"), rankXMPCreate, tagXMPCreate},
	{[]byte("xap:CreateDate"), rankXMPCreate, tagXMPCreate},
	{[]byte("photoshop:DateCreated"), rankXMPDateCreated, tagXMPCreated},
	{[]byte("xmp:ModifyDate"), rankXMPModify, tagXMPModify},
	{[]byte("xap:ModifyDate"), rankXMPModify, tagXMPModify},
}

// readXMP finds date properties in an XMP packet, written either as
// attributes (name="value") or as elements (<name>value</name>). It does not
// build a DOM: a packet is searched a few times with bytes.Index.
func (p *parse) readXMP(b []byte) {
	for _, f := range xmpFields {
		v := xmpValue(b, f.name)
		switch {
		case v == nil:
		case p.offerPartial(f.rk, f.tag, v):
		default:
			p.offerText(f.rk, SourceXMP, f.tag, v, nil, nil)
		}
	}
}

// offerPartial offers an XMP date that gives only a year ("1975") or a
// year and month ("1975-06"), as ISO 8601 and the XMP specification allow:
// filed on the first day of that year or month. It reports whether v had
// that form (a form whose year is out of range is rejected as such).
func (p *parse) offerPartial(rk rank, tag string, v []byte) bool {
	c, partial, ok := partialDate(trimText(v))
	if !ok {
		return false
	}
	// The day is not given, only assumed: judge the year and month alone
	// (a print dated "1970" is no clock's zero).
	probe := c
	probe.d = 15
	if reason := probe.check(p.maxYear); reason != "" {
		p.reject(tag, SourceXMP, v, reason)
		return true
	}
	p.offer(rk, Date{Wall: c.wall(), Source: SourceXMP, Tag: tag, Partial: partial}, v)
	return true
}

// partialDate reads "YYYY" or "YYYY-MM" (nothing more).
func partialDate(b []byte) (c clock, partial string, ok bool) {
	y, ok := digits(b, 0, 4)
	switch {
	case !ok:
		return c, "", false
	case len(b) == 4:
		return clock{y: y, mo: 1, d: 1}, partialYear, true
	case len(b) == 7 && b[4] == '-':
		mo, ok := digits(b, 5, 2)
		return clock{y: y, mo: mo, d: 1}, partialMonth, ok
	}
	return c, "", false
}

const (
	partialYear  = "only the year is given: filed on its first day"
	partialMonth = "only the year and month are given: filed on the month's first day"
)

func xmpValue(b, name []byte) []byte {
	for tries := 0; tries < 4; tries++ {
		i := bytes.Index(b, name)
		if i < 0 {
			return nil
		}
		rest := b[i+len(name):]
		b = rest
		switch {
		case len(rest) > 1 && rest[0] == '=' && (rest[1] == '"' || rest[1] == '\''):
			if end := bytes.IndexByte(rest[2:], rest[1]); end >= 0 {
				return rest[2 : 2+end]
			}
		case len(rest) > 0 && rest[0] == '>':
			if end := bytes.IndexByte(rest[1:], '<'); end >= 0 {
				return rest[1 : 1+end]
			}
		}
	}
	return nil
}
