package meta

import (
	"fmt"
	"time"
)

// A photo's EXIF date is the camera's wall clock; without OffsetTime* the
// zone is unknown, so it cannot be compared with a phone video's UTC time.
// Two more sources can supply the offset: the GPS time stamp written with
// the photo (UTC from the satellites), and the zone the user says the
// camera's clock was set to (Options.PhotoTZ).

const (
	tagGPSIFD       = 0x8825 // in IFD0: offset of the GPS IFD
	tagGPSTimeStamp = 0x0007 // three RATIONALs: hours, minutes, seconds of UTC
	tagGPSDateStamp = 0x001D // ASCII "YYYY:MM:DD" of UTC
	tagGPSDateTime  = "GPS:GPSDateTime"
	typeRational    = 5

	// Zones are whole quarter hours; a difference further than gpsMaxDrift
	// from one is a camera clock off by minutes (or a stale fix), which
	// says nothing reliable about the zone.
	gpsZoneStep  = 15 * time.Minute
	gpsMaxDrift  = 2 * time.Minute
	minGPSOffset = -12 * time.Hour
	maxGPSOffset = 14 * time.Hour

	noteGPSOffset = "offset from GPS time"
)

// gpsFix is a TIFF's GPS time stamp and what it says about the zone.
type gpsFix struct {
	date, clock []byte // raw GPSDateStamp and GPSTimeStamp values
	clockOK     bool   // GPSTimeStamp has the type and count of three RATIONALs
	judged      bool   // the candidate explaining it has been recorded
}

func (t *tiff) useGPS(e entry) {
	switch e.tag {
	case tagGPSDateStamp:
		t.gps.date = t.value(e, 32)
	case tagGPSTimeStamp:
		t.gps.clock = t.value(e, 24)
		t.gps.clockOK = e.typ == typeRational && e.count == 3 && len(t.gps.clock) == 24
	}
}

// offerCapture offers a capture date of this TIFF; one without an offset of
// its own takes the offset its GPS time stamp implies, when it is sound.
func (t *tiff) offerCapture(rk rank, tag string, raw, subsec, offset []byte) {
	p := t.p
	d, ok := p.textDate(SourceEXIF, tag, raw, subsec, offset)
	if !ok {
		return
	}
	gpsUsed := false
	if !d.HasOffset && (t.gps.date != nil || t.gps.clock != nil) {
		d.Offset, gpsUsed = t.gpsOffset(d)
		d.HasOffset = gpsUsed
	}
	if p.offer(rk, d, raw) && gpsUsed {
		p.offNote[rk] = noteGPSOffset
	}
}

// gpsOffset is the offset of d's wall clock from the GPS time, rounded to
// the quarter hour; ok=false when there is no sound one. The first call
// records, when explaining, a candidate saying what the GPS time gave.
func (t *tiff) gpsOffset(d Date) (off int, ok bool) {
	utc, why := t.gpsUTC()
	if why == "" {
		off, why = zoneBetween(d.Wall, utc)
	}
	if !t.gps.judged {
		t.gps.judged = true
		t.explainGPS(utc, d.Tag, off, why)
	}
	return off, why == ""
}

func (t *tiff) explainGPS(utc time.Time, tag string, off int, why string) {
	p := t.p
	if !p.r.opt.Explain {
		return
	}
	c := Date{Source: SourceEXIF, Tag: tagGPSDateTime}
	raw := cleanString(t.gps.date) + " " + t.clockText()
	if !utc.IsZero() {
		c.Wall, c.HasOffset = utc, true
		raw = utc.Format("2006:01:02 15:04:05.00")
	}
	note := fmt.Sprintf("%s: %s for %s", noteGPSOffset, offsetText(off), tag)
	if why != "" {
		note = "GPS time not used for the offset: " + why
	}
	p.explain(c, []byte(raw), note)
}

// gpsUTC reads the GPS date and time stamps; why says what is wrong with them.
func (t *tiff) gpsUTC() (time.Time, string) {
	if t.gps.date == nil {
		return time.Time{}, "no GPSDateStamp beside the GPSTimeStamp"
	}
	c, reason := parseDateTime(t.gps.date, t.p.maxYear)
	if reason != "" {
		return time.Time{}, fmt.Sprintf("GPSDateStamp %q %s", cleanString(t.gps.date), reason)
	}
	if !t.gps.clockOK {
		return time.Time{}, "no GPSTimeStamp of three rationals"
	}
	ns, ok := t.gpsClock()
	if !ok {
		return time.Time{}, fmt.Sprintf("GPSTimeStamp %s is not a time of day", t.clockText())
	}
	day := time.Date(c.y, time.Month(c.mo), c.d, 0, 0, 0, 0, time.UTC)
	return day.Add(time.Duration(ns)), ""
}

// gpsClock is GPSTimeStamp as nanoseconds since midnight.
func (t *tiff) gpsClock() (int64, bool) {
	limits := [3]int64{24, 60, 60}
	scale := [3]time.Duration{time.Hour, time.Minute, time.Second}
	var total time.Duration
	for i := range 3 {
		num, den := t.rational(i)
		if den == 0 || num/den >= limits[i] {
			return 0, false
		}
		frac := float64(num%den) / float64(den) // num%den*scale could overflow
		total += time.Duration(num/den)*scale[i] + time.Duration(frac*float64(scale[i]))
	}
	return int64(total), true
}

func (t *tiff) rational(i int) (num, den int64) {
	b := t.gps.clock[i*8:]
	return int64(t.order.Uint32(b)), int64(t.order.Uint32(b[4:]))
}

// clockText shows GPSTimeStamp's rationals for messages.
func (t *tiff) clockText() string {
	if !t.gps.clockOK {
		return "-"
	}
	s := ""
	for i := range 3 {
		num, den := t.rational(i)
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%d/%d", num, den)
	}
	return s
}

// zoneBetween is the zone offset, in seconds, of a wall clock that read
// wall at the instant utc; why says when the two do not fit one zone.
func zoneBetween(wall, utc time.Time) (int, string) {
	diff := wall.Sub(utc)
	zone := diff.Round(gpsZoneStep)
	if zone < minGPSOffset || zone > maxGPSOffset {
		return 0, fmt.Sprintf("the camera clock is %s from GPS time, beyond any time zone", hoursMinutes(diff))
	}
	if drift := (diff - zone).Abs(); drift >= gpsMaxDrift {
		return 0, fmt.Sprintf("the camera clock is %s from GPS time, %s off a whole quarter hour (clock drift or a stale fix)",
			hoursMinutes(diff), drift.Round(time.Second))
	}
	return int(zone / time.Second), ""
}

func hoursMinutes(d time.Duration) string {
	sign := "+"
	if d < 0 {
		sign, d = "-", -d
	}
	d = d.Round(time.Second)
	return fmt.Sprintf("%s%d:%02d:%02d", sign, int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60)
}

// offsetText formats seconds east of UTC as "+05:30".
func offsetText(off int) string {
	return time.Date(2000, 1, 1, 0, 0, 0, 0, time.FixedZone("", off)).Format("-07:00")
}

// assumeZone gives a photo's date that has no offset of its own the offset
// of Options.PhotoTZ, the zone the camera's clock was set to, at that wall
// time. used is the date's candidate index, -1 when not explaining. A
// date whose time was unreadable keeps no offset: its midnight is no
// instant.
func (p *parse) assumeZone(used int) {
	d, loc := &p.info.Date, p.r.opt.PhotoTZ
	if loc == nil || d.HasOffset || d.IsZero() || d.TimeLost != "" || d.Partial != "" || p.info.Kind != KindPhoto {
		return
	}
	w := d.Wall
	_, off := time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), loc).Zone()
	d.Offset, d.HasOffset = off, true
	if used >= 0 {
		c := &p.info.Candidates[used]
		c.Offset, c.HasOffset = off, true
		c.Note = appendNote(c.Note, "offset from the camera's time zone "+loc.String())
	}
}

// appendNote joins two notes with "; ", leaving out an empty one.
func appendNote(note, more string) string {
	switch {
	case note == "":
		return more
	case more == "":
		return note
	}
	return note + "; " + more
}
