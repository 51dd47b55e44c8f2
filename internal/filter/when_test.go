package filter

import (
	"strings"
	"testing"
	"time"
)

// The fixed clock of these tests: 2026-03-30 09:15:00 in Paris, the day
// after the spring DST change (CET+1 to CEST+2 at 02:00 on the 29th).
func parisNow(t *testing.T) time.Time {
	t.Helper()
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skipf("no time zone database: %v", err)
	}
	return time.Date(2026, 3, 30, 9, 15, 0, 0, paris)
}

func wall(s string) time.Time {
	t, err := time.Parse("2006-01-02T15:04:05", s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestParseWhenRelative(t *testing.T) {
	now := parisNow(t)
	cases := []struct {
		in         string
		start, end string
	}{
		// Days and weeks are calendar days on the wall clock: 09:15 stays
		// 09:15 across the DST change.
		{"7d", "2026-03-23T09:15:00", "2026-03-23T09:15:00"},
		{"1D", "2026-03-29T09:15:00", "2026-03-29T09:15:00"},
		{"2w", "2026-03-16T09:15:00", "2026-03-16T09:15:00"},
		{"0d", "2026-03-30T09:15:00", "2026-03-30T09:15:00"},
		// Hours are elapsed time: 36 hours before 09:15 CEST is 20:15 CET,
		// one hour of the wall clock skipped at the change.
		{"36h", "2026-03-28T20:15:00", "2026-03-28T20:15:00"},
		{"today", "2026-03-30T00:00:00", "2026-03-31T00:00:00"},
		{" Yesterday ", "2026-03-29T00:00:00", "2026-03-30T00:00:00"},
		// Absolute forms are read as before, whatever the clock.
		{"2021-07", "2021-07-01T00:00:00", "2021-08-01T00:00:00"},
		{"2021", "2021-01-01T00:00:00", "2022-01-01T00:00:00"},
	}
	for _, c := range cases {
		start, end, err := ParseWhen(c.in, now)
		if err != nil {
			t.Errorf("ParseWhen(%q): %v", c.in, err)
			continue
		}
		if !start.Equal(wall(c.start)) || !end.Equal(wall(c.end)) {
			t.Errorf("ParseWhen(%q) = %v, %v; want %s, %s", c.in, start, end, c.start, c.end)
		}
	}
}

// The wall clock is now's own: the same instant is another day in Tokyo.
func TestParseWhenUsesTheClocksZone(t *testing.T) {
	now := parisNow(t)
	tokyo := time.FixedZone("JST", 9*3600)
	start, _, err := ParseWhen("today", now.In(tokyo)) // 16:15 in Tokyo, same day
	if err != nil || !start.Equal(wall("2026-03-30T00:00:00")) {
		t.Errorf("today in Tokyo = %v, %v", start, err)
	}
	late := time.Date(2026, 3, 30, 23, 30, 0, 0, time.UTC) // 08:30 the next day in Tokyo
	start, _, _ = ParseWhen("today", late.In(tokyo))
	if !start.Equal(wall("2026-03-31T00:00:00")) {
		t.Errorf("today at 23:30 UTC seen from Tokyo = %v, want the 31st", start)
	}
}

func TestParseWhenRefuses(t *testing.T) {
	now := parisNow(t)
	for _, in := range []string{"", "d", "7", "-7d", "+7d", "7 d", "7m", "7y", "1.5d", "7dd", "d7",
		"100001d", "14286w", "2400001h", "9999999999d", "tomorrow", "7d ago"} {
		if start, end, err := ParseWhen(in, now); err == nil {
			t.Errorf("ParseWhen(%q) = %v, %v; want an error", in, start, end)
		} else if !strings.Contains(err.Error(), in) && in != "" {
			t.Errorf("ParseWhen(%q): error %q does not name the value", in, err)
		}
	}
	// The largest counts allowed still work.
	for _, in := range []string{"100000d", "14285w", "2400000h"} {
		if _, _, err := ParseWhen(in, now); err != nil {
			t.Errorf("ParseWhen(%q): %v", in, err)
		}
	}
}

// A relative --since admits the last days; a relative --until what is older.
func TestRelativeBoundsAdmit(t *testing.T) {
	now := parisNow(t)
	since, _, _ := ParseWhen("7d", now)
	_, until, _ := ParseWhen("yesterday", now)
	f := &Filter{Since: since}
	paris := now.Location()
	for when, want := range map[time.Time]string{
		time.Date(2026, 3, 23, 9, 15, 0, 0, paris):  "",
		time.Date(2026, 3, 23, 9, 14, 59, 0, paris): "taken before --since 2026-03-23 09:15:00",
		time.Date(2026, 3, 30, 9, 0, 0, 0, paris):   "",
	} {
		if got := f.Reject(File{Path: "a.jpg", Root: ".", Kind: "photo", Taken: when}); got != want {
			t.Errorf("--since 7d, taken %v: %q, want %q", when, got, want)
		}
	}
	f = &Filter{Until: until}
	for when, want := range map[time.Time]string{
		time.Date(2026, 3, 29, 23, 59, 59, 0, paris): "",
		time.Date(2026, 3, 30, 0, 0, 0, 0, paris):    "taken after --until",
	} {
		if got := f.Reject(File{Path: "a.jpg", Root: ".", Kind: "photo", Taken: when}); got != want {
			t.Errorf("--until yesterday, taken %v: %q, want %q", when, got, want)
		}
	}
}

func FuzzParseWhen(f *testing.F) {
	for _, s := range []string{"7d", "2w", "36h", "today", "yesterday", "2021-07-04", "2021-07-04T15:30", "999999999d", "0h", "9w"} {
		f.Add(s)
	}
	now := time.Date(2026, 3, 30, 9, 15, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		start, end, err := ParseWhen(s, now)
		if err == nil && end.Before(start) {
			t.Errorf("ParseWhen(%q) = %v after %v", s, start, end)
		}
	})
}
