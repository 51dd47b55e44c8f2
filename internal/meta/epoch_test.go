package meta

import (
	"strings"
	"testing"
	"time"
)

// mvhdAt is the mvhd value (seconds since 1904) of a UTC time.
func mvhdAt(t time.Time) uint32 { return uint32(t.Unix() + qtEpochOffset) }

// TestClockZeroIsNoCaptureDate: a QuickTime time in 1904 (mvhd counted
// from its own zero: a camera whose clock was never set) and the zero of
// the Unix or DOS clock are not capture dates; the next source is used
// and the rejection says why.
func TestClockZeroIsNoCaptureDate(t *testing.T) {
	r := NewReader(Options{Explain: true, VideoTZ: time.UTC})
	for _, c := range []struct {
		name string
		data []byte
		tag  string // tag of the date used
		want string
	}{
		{"mvhd 1904-01-01 01:00", buildMOV(3600, nil), tagModTime, "2001-02-03T04:05:06"},
		{"mvhd 1904-07-04", buildMOV(mvhdAt(time.Date(1904, 7, 4, 12, 0, 0, 0, time.UTC)), nil), tagModTime, "2001-02-03T04:05:06"},
		{"mvhd 1970-01-01 00:00:00", buildMOV(mvhdAt(time.Unix(0, 0)), nil), tagModTime, "2001-02-03T04:05:06"},
		{"Keys 1904 beside a real mvhd", buildMOV(mvhdAt(time.Date(2019, 7, 4, 15, 30, 0, 0, time.UTC)),
			map[string]string{"com.apple.quicktime.creationdate": "1904-01-01T00:00:00Z"}), tagMvhd, "2019-07-04T15:30:00"},
		{"mvhd of a real day", buildMOV(mvhdAt(time.Date(2019, 7, 4, 15, 30, 0, 0, time.UTC)), nil), tagMvhd, "2019-07-04T15:30:00"},
	} {
		info := r.Bytes("clip.mov", c.data, fixedMtime)
		got := info.Date.Wall.Format("2006-01-02T15:04:05")
		if info.Date.Tag != c.tag || got != c.want {
			t.Errorf("%s: dated %s %s, want %s %s; candidates %+v", c.name, info.Date.Tag, got, c.tag, c.want, info.Candidates)
		}
		if c.tag == tagModTime && !hasRejection(info.Candidates, tagMvhd) {
			t.Errorf("%s: no rejection of the mvhd among %+v", c.name, info.Candidates)
		}
	}
}

func TestEpochZeroTextIsRejectedButNewYearIsNot(t *testing.T) {
	for _, c := range []struct {
		text   string
		reject bool
	}{
		{"1970:01:01 00:00:00", true},
		{"1980:01:01 00:00:00", true},
		{"1904-01-01T00:00:00Z", true},
		{"1980:01:01 00:00:01", false},
		{"2000:01:01 00:00:00", false}, // a second people did photograph
		{"2001:01:01 00:00:00", false},
	} {
		_, reason := parseDateTime([]byte(c.text), 2100)
		if (reason != "") != c.reject || c.reject && !strings.Contains(reason, "never set") {
			t.Errorf("%s: reason %q, want rejected=%v", c.text, reason, c.reject)
		}
	}
}
