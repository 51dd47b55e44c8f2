package filter

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseSize reads a size such as 500, 200K, 1.5M, 2G, 10MB or 3GiB (K, M
// and G are powers of 1024, as file managers count).
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	num := strings.TrimRight(t, "KkMmGgTtBbIi")
	unit := strings.ToUpper(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(t[len(num):], "B"), "b"), "i"))
	mult := map[string]float64{"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}[unit]
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || mult == 0 || v < 0 || v*mult > 1<<62 {
		return 0, fmt.Errorf("size %q: want a number with an optional K, M or G, as in 500K or 2M", s)
	}
	return int64(v * mult), nil
}

// ParseDay reads an absolute --since or --until: a day (2021-07-04), a
// month (2021-07) or a year (2021), or a moment (2021-07-04T15:30 or with
// seconds). It returns the first instant of what was named and the first
// instant after it, so --since takes the start and --until the end.
func ParseDay(s string) (start, end time.Time, err error) {
	forms := []struct {
		layout string
		next   func(time.Time) time.Time
	}{
		{"2006-01-02T15:04:05", func(t time.Time) time.Time { return t.Add(time.Second) }},
		{"2006-01-02T15:04", func(t time.Time) time.Time { return t.Add(time.Minute) }},
		{"2006-01-02", func(t time.Time) time.Time { return t.AddDate(0, 0, 1) }},
		{"2006-01", func(t time.Time) time.Time { return t.AddDate(0, 1, 0) }},
		{"2006", func(t time.Time) time.Time { return t.AddDate(1, 0, 0) }},
	}
	for _, f := range forms {
		if t, perr := time.Parse(f.layout, strings.TrimSpace(s)); perr == nil {
			return t, f.next(t), nil
		}
	}
	return time.Time{}, time.Time{}, fmt.Errorf("date %q: want a day such as 2021-07-04 (or 2021-07, 2021, 2021-07-04T15:30), or a time ago such as 7d, 2w, 36h, today, yesterday", s)
}

// maxAgoHours bounds a relative date: 100,000 days is 273 years, more
// than any camera, and keeps the arithmetic far from time.Duration's limit.
const maxAgoHours = 100_000 * 24

// ParseWhen reads --since and --until: what ParseDay reads, or a time
// relative to now, the local clock (rclone's --max-age habit):
//
//	today, yesterday   that whole day, midnight to midnight on now's wall clock
//	Nh, Nd, Nw         the moment N hours, days or weeks before now
//	                   (the unit's letter in either case)
//
// so --since 7d admits what was taken in the last seven days, and
// --until 2w what was taken more than two weeks ago. Hours are elapsed
// time; days and weeks are counted on the wall clock (7d is the same clock time seven calendar days
// back, whatever a DST change in between did), as capture dates are wall
// clocks. Like ParseDay's, the times returned are wall clocks read as UTC,
// the form Filter compares them in; a moment's start and end are the same.
func ParseWhen(s string, now time.Time) (start, end time.Time, err error) {
	t := strings.ToLower(strings.TrimSpace(s))
	wall := wallUTC(now)
	today := time.Date(wall.Year(), wall.Month(), wall.Day(), 0, 0, 0, 0, time.UTC)
	switch t {
	case "today":
		return today, today.AddDate(0, 0, 1), nil
	case "yesterday":
		return today.AddDate(0, 0, -1), today, nil
	}
	if n, unit, ok := count(t); ok {
		if n > maxAgoHours/unitHours[unit] {
			return time.Time{}, time.Time{}, fmt.Errorf("date %q: at most 100000 days back", s)
		}
		var at time.Time
		switch unit {
		case 'h': // hours elapsed, so across a DST change 36h is 36 real hours
			at = wallUTC(now.Add(-time.Duration(n) * time.Hour))
		case 'd':
			at = wall.AddDate(0, 0, -n)
		case 'w':
			at = wall.AddDate(0, 0, -7*n)
		}
		return at, at, nil
	}
	return ParseDay(s)
}

var unitHours = map[byte]int{'h': 1, 'd': 24, 'w': 7 * 24}

// count reads "7d": a count of at most nine digits and its unit, h, d or w.
func count(t string) (n int, unit byte, ok bool) {
	if len(t) < 2 || len(t) > 10 {
		return 0, 0, false
	}
	unit = t[len(t)-1]
	if unitHours[unit] == 0 {
		return 0, 0, false
	}
	for _, c := range t[:len(t)-1] {
		if c < '0' || c > '9' {
			return 0, 0, false
		}
	}
	n, err := strconv.Atoi(t[:len(t)-1])
	return n, unit, err == nil
}

// ParseExts splits "jpg,.HEIC, mov" into [".jpg" ".heic" ".mov"].
func ParseExts(s string) []string {
	var exts []string
	for _, e := range strings.Split(s, ",") {
		e = strings.ToLower(strings.TrimSpace(e))
		if e == "" {
			continue
		}
		if !strings.HasPrefix(e, ".") {
			e = "." + e
		}
		exts = append(exts, e)
	}
	return exts
}
