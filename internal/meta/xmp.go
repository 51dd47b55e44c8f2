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
		if v := xmpValue(b, f.name); v != nil {
			p.offerText(f.rk, SourceXMP, f.tag, v, nil, nil)
		}
	}
}

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
