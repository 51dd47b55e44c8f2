package meta

import "time"

// FilenameDate finds a capture date in a file's base name, as phones and
// apps write them: IMG_20190704_153000, PXL_20230101_123456789,
// 2019-07-04 15.30.00, Screenshot_20200101-101010, IMG-20200101-WA0001
// (date only). A digit run that is not exactly a date is never read as one.
func FilenameDate(base string) (time.Time, bool) {
	b := []byte(base)
	for i := 0; i < len(b); i++ {
		if !isDigit(b[i]) || (i > 0 && isDigit(b[i-1])) {
			continue
		}
		if t, ok := dateAt(b, i); ok {
			return t, true
		}
	}
	return time.Time{}, false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digitRun(b []byte, i int) int {
	n := 0
	for i+n < len(b) && isDigit(b[i+n]) {
		n++
	}
	return n
}

// minFilenameYear keeps counters such as "DSC_1999" away: no camera file is
// named with a year before digital cameras.
const minFilenameYear = 1990

func dateAt(b []byte, i int) (time.Time, bool) {
	run := digitRun(b, i)
	var c clock
	var ok bool
	j := i
	switch {
	case run == 8 || run == 14 || run == 17: // YYYYMMDD[HHMMSS[mmm]]
		c.y, _ = digits(b, i, 4)
		c.mo, _ = digits(b, i+4, 2)
		c.d, _ = digits(b, i+6, 2)
		j = i + 8
		if run > 8 {
			c.h, _ = digits(b, j, 2)
			c.mi, _ = digits(b, j+2, 2)
			c.s, _ = digits(b, j+4, 2)
			if run == 17 {
				c.ns = fraction(b[j+6 : j+9])
			}
			return c.fileDate(true)
		}
	case run == 4 && j+10 <= len(b) && (b[i+4] == '-' || b[i+4] == '_') && b[i+7] == b[i+4]: // YYYY-MM-DD
		c.y, _ = digits(b, i, 4)
		if c.mo, ok = digits(b, i+5, 2); !ok || digitRun(b, i+5) != 2 {
			return time.Time{}, false
		}
		if c.d, ok = digits(b, i+8, 2); !ok || digitRun(b, i+8) != 2 {
			return time.Time{}, false
		}
		j = i + 10
	default:
		return time.Time{}, false
	}
	if _, ok := c.fileDate(false); !ok {
		return time.Time{}, false
	}
	withTime := c
	if readFileTime(b, j, &withTime) {
		if t, ok := withTime.fileDate(true); ok {
			return t, true
		}
	}
	return c.fileDate(false)
}

// readFileTime reads "_HHMMSS[mmm]" or " HH.MM.SS" (or with - or :) after a date.
func readFileTime(b []byte, j int, c *clock) bool {
	if j >= len(b) || (b[j] != '_' && b[j] != '-' && b[j] != ' ' && b[j] != 'T') {
		return false
	}
	j++
	switch run := digitRun(b, j); {
	case run == 6 || run == 9:
		c.h, _ = digits(b, j, 2)
		c.mi, _ = digits(b, j+2, 2)
		c.s, _ = digits(b, j+4, 2)
		if run == 9 {
			c.ns = fraction(b[j+6 : j+9])
		}
		return true
	case run == 2 && j+8 <= len(b) && (b[j+2] == '.' || b[j+2] == '-' || b[j+2] == ':') && b[j+5] == b[j+2]:
		var ok1, ok2 bool
		c.h, _ = digits(b, j, 2)
		c.mi, ok1 = digits(b, j+3, 2)
		c.s, ok2 = digits(b, j+6, 2)
		return ok1 && ok2 && digitRun(b, j+6) == 2
	}
	return false
}

// fileDate validates c as a file-name date; the bool result is ok.
func (c clock) fileDate(withTime bool) (time.Time, bool) {
	if !withTime {
		c.h, c.mi, c.s, c.ns = 0, 0, 0, 0
	}
	if c.y < minFilenameYear || c.check(time.Now().Year()+1) != "" {
		return time.Time{}, false
	}
	return c.wall(), true
}
