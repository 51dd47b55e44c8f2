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

// ParseDay reads --since and --until: a day (2021-07-04), a month
// (2021-07) or a year (2021), or a moment (2021-07-04T15:30 or with
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
	return time.Time{}, time.Time{}, fmt.Errorf("date %q: want a day such as 2021-07-04 (or 2021-07, 2021, 2021-07-04T15:30)", s)
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
