package meta

import "time"

// clock is a parsed date-time as written in a file.
type clock struct {
	y, mo, d, h, mi, s, ns int
	off                    int // seconds east of UTC
	hasOff                 bool
	// lostTime says why the time part could not be read (an hour of 57,
	// a second of 88, a stray byte in place of a digit) while the day
	// could: the clock then holds the day at midnight, without offset.
	lostTime string
}

func (c clock) wall() time.Time {
	return time.Date(c.y, time.Month(c.mo), c.d, c.h, c.mi, c.s, c.ns, time.UTC)
}

// Reasons a date string is rejected; constants so rejecting allocates nothing.
const (
	badSyntax = "rejected: not a date"
	badZero   = "rejected: zero date"
	badEpoch  = "rejected: the zero of its clock (1904, 1970 or 1980-01-01 00:00:00, or an MP4 time in 1904), the reading of a clock that was never set"
	badMonth  = "rejected: month out of range"
	badDay    = "rejected: day out of range"
	badHour   = "rejected: " + hourRange
	badMinute = "rejected: " + minuteRange
	badSecond = "rejected: " + secondRange
	badOld    = "rejected: year before 1900"
	badFuture = "rejected: year in the future"
	badOffset = "rejected: offset out of range"
	// Why a time part is unreadable while its day is sound.
	hourRange     = "hour out of range"
	minuteRange   = "minute out of range"
	secondRange   = "second out of range"
	timeNotDigits = "time is not digits" // "1\r:47:14"
	minYear       = 1900
	maxOffset     = 14 * 3600
	noFraction    = -1
)

// digits reads exactly n decimal digits at b[i:].
func digits(b []byte, i, n int) (int, bool) {
	if i < 0 || i+n > len(b) {
		return 0, false
	}
	v := 0
	for _, c := range b[i : i+n] {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

func isDateSep(c byte) bool { return c == ':' || c == '-' || c == '/' || c == '.' }

// parseDateTime reads "YYYY:MM:DD HH:MM:SS[.fff][Z|±hh:mm]" and the ISO 8601
// and date-only variants seen in EXIF, XMP and QuickTime, with any of
// ':', '-', '/', '.' between the date's parts, or none ("20111006"). It
// returns a rejection reason instead of a clock when the text is not a
// sane date. A damaged time part does not lose a sound day: the clock is
// the day at midnight and lostTime says what was wrong with the time.
func parseDateTime(b []byte, maxYear int) (clock, string) {
	b = trimText(b)
	c, i, ok := readDay(b)
	if !ok {
		return c, badSyntax
	}
	if i < len(b) && (b[i] == ' ' || b[i] == 'T') && len(b) > i+1 {
		if why := c.readTime(b[i+1:]); why != "" {
			c.h, c.mi, c.s, c.ns, c.off, c.hasOff = 0, 0, 0, 0, 0, false
			c.lostTime = why
		}
	}
	if reason := c.check(maxYear); reason != "" {
		return c, reason
	}
	return c, ""
}

// readDay reads the date part: "YYYY?MM?DD" with one separator of
// isDateSep, or "YYYYMMDD". i is where the text goes on.
func readDay(b []byte) (c clock, i int, ok bool) {
	if c.y, ok = digits(b, 0, 4); !ok {
		return c, 0, false
	}
	at := [2]int{5, 8}
	i = 10
	if len(b) >= 8 && isDigit(b[4]) {
		at, i = [2]int{4, 6}, 8
		if len(b) > 8 && isDigit(b[8]) { // a longer run of digits is no date
			return c, 0, false
		}
	} else if len(b) < 10 || !isDateSep(b[4]) || !isDateSep(b[7]) {
		return c, 0, false
	}
	var ok1, ok2 bool
	c.mo, ok1 = digits(b, at[0], 2)
	c.d, ok2 = digits(b, at[1], 2)
	return c, i, ok1 && ok2
}

// readTime reads "HH:MM[:SS][.fff][zone]" into c; it returns why the time
// is unreadable, "" when it is sound.
func (c *clock) readTime(b []byte) string {
	var ok1, ok2 bool
	c.h, ok1 = digits(b, 0, 2)
	c.mi, ok2 = digits(b, 3, 2)
	if !ok1 || !ok2 || b[2] != ':' {
		return timeNotDigits
	}
	i := 5
	if i < len(b) && b[i] == ':' {
		var ok bool
		if c.s, ok = digits(b, i+1, 2); !ok {
			return timeNotDigits
		}
		i += 3
	}
	if i < len(b) && (b[i] == '.' || b[i] == ',') {
		j := i + 1
		for j < len(b) && isDigit(b[j]) {
			j++
		}
		c.ns = fraction(b[i+1 : j])
		i = j
	}
	switch {
	case c.h > 23:
		return hourRange
	case c.mi > 59:
		return minuteRange
	case c.s > 59:
		return secondRange
	}
	if reason := c.readOffset(b[i:]); reason != "" {
		return reason[len("rejected: "):]
	}
	return ""
}

// readOffset reads a trailing "Z", "±hh:mm" or "±hhmm"; anything else is ignored.
func (c *clock) readOffset(b []byte) string {
	off, has, ok := parseOffset(b)
	if !ok {
		return badOffset
	}
	c.off, c.hasOff = off, has
	return ""
}

// parseOffset reads an EXIF OffsetTime or ISO 8601 zone. has=false for blank
// or unrecognised text; ok=false only for a well-formed but impossible offset.
func parseOffset(b []byte) (off int, has, ok bool) {
	b = trimText(b)
	if len(b) == 0 {
		return 0, false, true
	}
	if b[0] == 'Z' {
		return 0, true, true
	}
	if b[0] != '+' && b[0] != '-' {
		return 0, false, true
	}
	h, ok1 := digits(b, 1, 2)
	mPos := 3
	if len(b) > 3 && b[3] == ':' {
		mPos = 4
	}
	m, ok2 := digits(b, mPos, 2)
	if !ok1 || !ok2 {
		return 0, false, true
	}
	off = h*3600 + m*60
	if off > maxOffset || m > 59 {
		return 0, false, false
	}
	if b[0] == '-' {
		off = -off
	}
	return off, true, true
}

// fraction turns the digits of a decimal fraction into nanoseconds:
// "031" is 31 ms and "91" is 910 ms.
func fraction(b []byte) int {
	ns, scale := 0, 100_000_000
	for _, c := range b {
		if c < '0' || c > '9' {
			break
		}
		ns += int(c-'0') * scale
		scale /= 10
	}
	return ns
}

// parseSubSec reads an EXIF SubSecTime value; ok=false when it holds no digits.
func parseSubSec(b []byte) (int, bool) {
	b = trimText(b)
	if len(b) == 0 || b[0] < '0' || b[0] > '9' {
		return 0, false
	}
	return fraction(b), true
}

func (c clock) check(maxYear int) string {
	switch {
	case c.y == 0 && c.mo == 0 && c.d == 0:
		return badZero
	case c.mo == 1 && c.d == 1 && c.h == 0 && c.mi == 0 && c.s == 0 && isEpochYear(c.y):
		// The zero of a clock (Unix, QuickTime, DOS …): a camera whose clock
		// battery died writes this, and no one is sorting photos taken at
		// that exact second.
		return badEpoch
	case c.mo < 1 || c.mo > 12:
		return badMonth
	case c.d < 1 || c.d > daysIn(c.y, c.mo):
		return badDay
	case c.h > 23:
		return badHour
	case c.mi > 59:
		return badMinute
	case c.s > 59:
		return badSecond
	case c.y < minYear:
		return badOld
	case c.y > maxYear:
		return badFuture
	}
	return ""
}

// Years whose January 1st 00:00:00 is the zero of a common clock: the
// QuickTime/MP4 epoch (1904), Unix (1970), DOS/FAT (1980). (2000-01-01
// 00:00:00 is a second people did photograph.)
func isEpochYear(y int) bool {
	switch y {
	case 1904, 1970, 1980:
		return true
	}
	return false
}

// neverSet reports whether a binary container time, in seconds counted
// from its format's epoch, reads less than a day after that epoch: a clock
// that was never set counts from zero, so such a value is no capture date.
func neverSet(secsSinceEpoch int64) bool { return secsSinceEpoch < 24*3600 }

// clockOf is t's wall clock as a clock, for check.
func clockOf(t time.Time) clock {
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	return clock{y: y, mo: int(mo), d: d, h: h, mi: mi, s: s, ns: t.Nanosecond()}
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// trimText drops the NULs and spaces that pad fixed-size EXIF strings.
func trimText(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == 0) {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == 0 || b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	if i := indexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return b
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}
