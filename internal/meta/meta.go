package meta

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
)

// Kind is what a file is for the sorter.
type Kind uint8

// Kinds of files.
const (
	KindOther Kind = iota
	KindPhoto
	KindVideo
	KindSidecar
)

func (k Kind) String() string {
	switch k {
	case KindPhoto:
		return "photo"
	case KindVideo:
		return "video"
	case KindSidecar:
		return "sidecar"
	}
	return "other"
}

// Source says where a Date came from.
type Source uint8

// Sources of a capture date, from most to least trusted.
const (
	SourceNone Source = iota
	SourceEXIF
	SourceQuickTime
	SourceXMP
	SourceSidecar
	SourceFilename
	SourceModTime
	SourceIPTC      // IPTC-IIM DateCreated/DigitalCreationDate (JPEG APP13, TIFF)
	SourceContainer // a video container's own date: Matroska, ASF, AVCHD H.264, DV
	SourcePNG       // PNG's own chunks: tIME, tEXt "Creation Time", date:create
)

var sourceNames = [...]string{"none", "exif", "quicktime", "xmp", "sidecar", "filename", "mtime", "iptc", "container", "png"}

// FromFile reports whether a date was read from a file's own content (or
// its sidecar's), rather than guessed from its name or modification time.
func (s Source) FromFile() bool {
	switch s {
	case SourceNone, SourceFilename, SourceModTime:
		return false
	}
	return true
}

func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return fmt.Sprintf("source(%d)", uint8(s))
}

// Date is a capture time as the camera's clock showed it.
type Date struct {
	Wall      time.Time // local wall-clock fields stored in time.UTC; what the layout formats
	Offset    int       // seconds east of UTC, valid when HasOffset
	HasOffset bool
	Source    Source
	Tag       string // ExifTool-style name of the winning field, e.g. "ExifIFD:DateTimeOriginal"
	// TimeLost says why the field's time part was unreadable (hour 57,
	// second 88, a stray byte for a digit) though its day was sound:
	// Wall is then that day at midnight, with no offset.
	TimeLost string
	// Partial says which parts an XMP date leaves out ("only the year is
	// given"): ISO 8601 lets it give a year, or a year and month (a
	// scanned print dated "1975" by its owner). Wall is then the first day
	// of that year or month at midnight, with no offset.
	Partial string
	// Shift is how far --shift moved Wall (the camera's clock was off);
	// ShiftRule the rule as typed, "" when none applied.
	Shift     time.Duration
	ShiftRule string
}

// Shifted returns d moved by a --shift rule's amount, noting the rule.
func (d Date) Shifted(by time.Duration, rule string) Date {
	if d.IsZero() {
		return d
	}
	d.Wall = d.Wall.Add(by)
	d.Shift, d.ShiftRule = d.Shift+by, rule
	return d
}

// Unshifted is the date as the file gave it, before any --shift.
func (d Date) Unshifted() time.Time { return d.Wall.Add(-d.Shift) }

// IsZero reports whether no date was found.
func (d Date) IsZero() bool { return d.Wall.IsZero() }

// Instant returns the absolute time when the offset is known.
func (d Date) Instant() (time.Time, bool) {
	if !d.HasOffset {
		return time.Time{}, false
	}
	return d.Wall.Add(-time.Duration(d.Offset) * time.Second), true
}

// Candidate is one date seen in a file; Note says why it was used or rejected.
type Candidate struct {
	Date
	Raw  string
	Note string
}

// Info is what the reader learned about one file.
type Info struct {
	Kind        Kind
	Format      string // decided by content (magic bytes); extension only as fallback
	Date        Date
	Make, Model string
	ContentID   string // Apple ContentIdentifier for Live Photo pairing
	Warning     string // why the header could not be read, if it could not
	Candidates  []Candidate
}

// Options tune a Reader.
type Options struct {
	Explain bool           // collect every date seen into Info.Candidates
	VideoTZ *time.Location // zone for UTC-only QuickTime times; nil = time.Local
	// PhotoTZ is the zone the camera's clock was set to: a photo date with
	// no offset in the file (no OffsetTime*, no sound GPS time) takes this
	// zone's offset at that wall time. nil = no offset assumed.
	PhotoTZ *time.Location
	// DateTags is the precedence of date fields (--date-tags); the zero
	// Order is the default.
	DateTags Order
}

// Reader reads capture dates. One goroutine at a time may use it; it
// reuses its header buffer between files.
type Reader struct {
	opt  Options
	head []byte
	now  func() time.Time
	// state is the one file being parsed, reused so that reading a file
	// allocates no parse state (it grows with every date rank).
	state parse
	zlib  inflater // compressed PNG text, reused from file to file
}

// Read budget and caps: hostile files must not make us read or allocate
// without bound.
const (
	headSize      = 64 << 10 // first read of every file
	maxReadBytes  = 8 << 20  // total bytes read per file, first read included
	maxBlockBytes = 1 << 20  // one out-of-head read (an Exif item, a moov child)
)

// NewReader returns a Reader with opt.
func NewReader(opt Options) *Reader {
	if opt.VideoTZ == nil {
		opt.VideoTZ = time.Local
	}
	return &Reader{opt: opt, now: time.Now} // head is made at the first header read: a sidecar's reader needs none
}

// File reads the header of path. size and mtime come from the scan. It never
// fails: problems go to Info.Warning and the date falls back to the file
// name, then to mtime.
//
// Warnings never repeat the path: whoever reports one names the file.
func (r *Reader) File(path string, size int64, mtime time.Time) Info {
	f, err := fsx.OpenRandom(path, true)
	if err != nil {
		p := r.newParse(path, &input{size: size}, mtime)
		p.warn("cannot open it: " + causeOf(err).Error())
		p.classifyByName()
		return p.finish()
	}
	defer f.Close()
	return r.ReaderAt(path, f, size, mtime)
}

// ReaderAt reads the header of the file named name whose bytes src gives
// (an archive member, see internal/archive), like File.
func (r *Reader) ReaderAt(path string, src io.ReaderAt, size int64, mtime time.Time) Info {
	if r.head == nil {
		r.head = make([]byte, headSize)
	}
	n, err := src.ReadAt(r.head, 0)
	in := &input{head: r.head[:n], f: src, size: size, read: int64(n)}
	if int64(n) >= size {
		in.f = nil // the whole file is in memory
		in.size = int64(n)
	}
	p := r.newParse(path, in, mtime)
	if err != nil && n == 0 && size > 0 {
		p.warn("cannot read it: " + causeOf(err).Error())
		p.classifyByName()
		return p.finish()
	}
	p.run()
	return p.finish()
}

// Bytes parses an in-memory file named name.
func (r *Reader) Bytes(name string, data []byte, mtime time.Time) Info {
	p := r.newParse(name, &input{head: data, size: int64(len(data))}, mtime)
	p.run()
	return p.finish()
}

// causeOf drops a *PathError's operation and path, which the caller names.
func causeOf(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
