package meta

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// maxSidecarBytes caps what SidecarDate reads: a Takeout JSON or an XMP
// sidecar is a few KiB, a THM thumbnail some tens of KiB.
const maxSidecarBytes = 1 << 20

// Tags reported for sidecar dates that have no ExifTool name of their own.
const tagTakeout = "Takeout:PhotoTakenTime"

// SidecarDate reads the capture date recorded in a sidecar file: Google
// Takeout JSON (.json, .supplemental-metadata.json), XMP (.xmp), or a THM
// thumbnail (a JPEG with EXIF that cameras write beside CRW raws and
// videos). size is the file's size from the scan. The format is decided by
// content, so a misnamed file is still read right.
//
// Takeout's photoTakenTime is seconds since 1970 in UTC; it is shown in loc
// (time.Local when nil) and the Date carries loc's offset at that instant.
// XMP and THM dates keep the wall clock the camera wrote. Every Date has
// Source SourceSidecar and the tag of the field used.
//
// ok is false when the file holds no capture date (an Apple .AAE edit
// list, a Takeout album's metadata.json). err is for a file that cannot be
// read, or a JSON file that is not valid JSON or is over 1 MiB.
func SidecarDate(path string, size int64, loc *time.Location) (Date, bool, error) {
	return NewReader(Options{VideoTZ: loc}).Sidecar(path, size)
}

// Sidecar is SidecarDate with r's options: Takeout's timestamps in
// VideoTZ, and XMP's dates in the DateTags order (--date-tags), as a
// photo's own header's are.
func (r *Reader) Sidecar(path string, size int64) (Date, bool, error) {
	data, err := readSidecar(path, size)
	if err != nil {
		return Date{}, false, err
	}
	return r.sidecarBytes(path, data, size > maxSidecarBytes)
}

// SidecarDateAt is SidecarDate for a sidecar whose bytes src gives (an
// archive member, see internal/archive).
func SidecarDateAt(path string, src io.ReaderAt, size int64, loc *time.Location) (Date, bool, error) {
	return NewReader(Options{VideoTZ: loc}).SidecarAt(path, src, size)
}

// SidecarAt is Sidecar for a sidecar whose bytes src gives.
func (r *Reader) SidecarAt(path string, src io.ReaderAt, size int64) (Date, bool, error) {
	data, err := readSidecarAt(path, src, size)
	if err != nil {
		return Date{}, false, err
	}
	return r.sidecarBytes(path, data, size > maxSidecarBytes)
}

func readSidecar(path string, size int64) ([]byte, error) {
	f, err := fsx.OpenRandom(path, true)
	if err != nil {
		return nil, fmt.Errorf("read sidecar %s: %w", quote.Path(path), fsx.Bare(err))
	}
	defer f.Close()
	return readSidecarAt(path, f, size)
}

func readSidecarAt(path string, src io.ReaderAt, size int64) ([]byte, error) {
	buf := make([]byte, min(max(size, 0), maxSidecarBytes))
	n, err := src.ReadAt(buf, 0)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, fmt.Errorf("read sidecar %s: %w", quote.Path(path), fsx.Bare(err))
	}
	return buf[:n], nil
}

// sidecarBytes dates an in-memory sidecar; truncated says data is only
// the first maxSidecarBytes of a larger file.
func (r *Reader) sidecarBytes(name string, data []byte, truncated bool) (Date, bool, error) {
	loc := r.opt.VideoTZ
	if loc == nil {
		loc = time.Local
	}
	t := bytes.TrimLeft(data, "\xef\xbb\xbf \t\r\n")
	switch {
	case len(t) > 0 && t[0] == '{':
		if truncated {
			return Date{}, false, fmt.Errorf("read sidecar %s: over %d bytes, too large for a Takeout JSON sidecar", quote.Path(name), maxSidecarBytes)
		}
		return takeoutDate(name, t, loc)
	case len(t) > 0 && t[0] == '<':
		return r.headerDate(name, data, func(p *parse) { p.readXMP(data) })
	}
	return r.headerDate(name, data, (*parse).run)
}

// headerDate runs the header reader on data and returns its best date
// field, never the file-name or mtime fallback: a sidecar either records a
// date or it does not.
func (r *Reader) headerDate(name string, data []byte, read func(*parse)) (Date, bool, error) {
	p := r.newParse(name, &input{head: data, size: int64(len(data))}, time.Time{})
	read(p)
	p.reconcile()
	for _, rk := range p.order.ranks {
		if p.have[rk] {
			d := p.best[rk]
			d.Source = SourceSidecar
			return d, true, nil
		}
	}
	return Date{}, false, nil
}

// takeoutJSON is the part of a Google Takeout sidecar that dates a photo.
// creationTime is when the photo was uploaded, not taken, so it is unused.
type takeoutJSON struct {
	PhotoTakenTime *struct {
		Timestamp json.RawMessage `json:"timestamp"` // a string of digits; a number in some exports
	} `json:"photoTakenTime"`
}

func takeoutDate(name string, data []byte, loc *time.Location) (Date, bool, error) {
	var doc takeoutJSON
	if err := json.Unmarshal(data, &doc); err != nil {
		return Date{}, false, fmt.Errorf("read sidecar %s: not valid JSON: %w", quote.Path(name), err)
	}
	if doc.PhotoTakenTime == nil {
		return Date{}, false, nil
	}
	secs, ok := takeoutSeconds(doc.PhotoTakenTime.Timestamp)
	if !ok || secs == 0 { // Takeout writes 0 for "unknown"
		return Date{}, false, nil
	}
	at := time.Unix(secs, 0).In(loc)
	if at.Year() < minYear || at.Year() > time.Now().Year()+1 {
		return Date{}, false, nil
	}
	_, off := at.Zone()
	return Date{Wall: wallOf(at), Offset: off, HasOffset: true, Source: SourceSidecar, Tag: tagTakeout}, true, nil
}

// takeoutSeconds reads "1562254200" or 1562254200.
func takeoutSeconds(raw json.RawMessage) (int64, bool) {
	s := string(bytes.Trim(raw, `"`))
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil
}
