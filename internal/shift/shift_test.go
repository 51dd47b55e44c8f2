package shift

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseDuration(t *testing.T) {
	good := map[string]time.Duration{
		"+1h30m": 90 * time.Minute, "-2d3h": -51 * time.Hour, "45s": 45 * time.Second,
		"+0d": 0, "+1d1h1m1s": 25*time.Hour + time.Minute + time.Second, "-90m": -90 * time.Minute,
	}
	for in, want := range good {
		if got, err := ParseDuration(in); err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "+", "1", "1x", "+1h2d", "1h1h", "h", "+-1h", "1.5h", "+1 h", "+99999999d", "1234567890s"} {
		if got, err := ParseDuration(in); err == nil {
			t.Errorf("ParseDuration(%q) = %v, want an error", in, got)
		}
	}
}

func TestFormatRoundTrips(t *testing.T) {
	for _, d := range []time.Duration{0, time.Second, -90 * time.Minute, 51 * time.Hour, -(24*time.Hour + 5*time.Second)} {
		back, err := ParseDuration(Format(d))
		if err != nil || back != d {
			t.Errorf("Format(%v) = %q parses back as %v, %v", d, Format(d), back, err)
		}
	}
}

func TestTheMostSpecificRuleWins(t *testing.T) {
	base := t.TempDir()
	rules, err := Parse([]string{"+1h", "Canon EOS 5D=+2h", "folder:" + base + "=+3h", "folder:" + filepath.Join(base, "deep") + "=+4h"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path, model string
		want        time.Duration
	}{
		{"/elsewhere/a.jpg", "Pixel 7", time.Hour},
		{"/elsewhere/a.jpg", "canon  eos 5d", 2 * time.Hour},
		{filepath.Join(base, "a.jpg"), "Canon EOS 5D", 3 * time.Hour},
		{filepath.Join(base, "deep", "x", "a.jpg"), "", 4 * time.Hour},
		{filepath.Join(base+"er", "a.jpg"), "", time.Hour}, // a sibling that shares the prefix is not inside
	}
	for _, c := range cases {
		r, ok := rules.For(c.path, c.model)
		if !ok || r.By != c.want {
			t.Errorf("For(%q, %q) = %v, %v; want %v", c.path, c.model, r.By, ok, c.want)
		}
	}
	only, _ := Parse([]string{"EOS=+1h"})
	if _, ok := only.For("/a.jpg", "Pixel"); ok {
		t.Error("a model rule applied to another model")
	}
	if _, ok := (*Rules)(nil).For("/a.jpg", "EOS"); ok {
		t.Error("nil rules shifted a file")
	}
}

func TestMalformedRulesSaySo(t *testing.T) {
	for in, want := range map[string]string{
		"EOS=+1x":               "is not a shift",
		"=+1h":                  "nothing before '='",
		"folder:=+1h":           "needs a path",
		"EOS":                   "is not a shift",
		"EOS=+200000d":          "100 years",
		"Canon EOS 5D 1":        "is not a shift",
		"EOS=":                  "nothing after '='",
		"+9223372036854775807s": "is not a shift",
		"-99999999d99999999h":   "100 years",
	} {
		_, err := Parse([]string{in})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), in) {
			t.Errorf("Parse(%q) = %v, want an error naming it and saying %q", in, err, want)
		}
	}
	if _, err := Parse([]string{"EOS=+1h", "eos=-1h"}); err == nil || !strings.Contains(err.Error(), "already shifted") {
		t.Errorf("two rules for one model: %v", err)
	}
}

// The largest shift keeps every date meta accepts (1900 to next year)
// within four-digit years: a layout never sees year 0, a negative year or
// year 10000, and a shifted date is never the zero time ("no date").
func TestLargestShiftKeepsFourDigitYears(t *testing.T) {
	most, err := ParseDuration("+36600d")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseDuration("+36601d"); err == nil {
		t.Fatal("a shift past the bound was accepted")
	}
	lo := time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC).Add(-most)
	hi := time.Date(time.Now().Year()+1, 12, 31, 23, 59, 59, 0, time.UTC).Add(most)
	if lo.Year() < 1000 || hi.Year() > 9999 || lo.IsZero() {
		t.Errorf("shifted bounds %v .. %v leave four-digit years", lo, hi)
	}
}
