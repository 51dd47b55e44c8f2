package meta

import (
	"os"
	"path/filepath"
	"shoebox/internal/fixture"
	"testing"
	"time"
)

func corpusDir(t testing.TB) string { return fixture.CorpusDir(t) }

type truthEntry = fixture.Truth

func loadTruth(t testing.TB, path string) []truthEntry { return fixture.LoadTruth(t, path) }

// Truth dates we cannot read, by ExifTool group, with the reason.
var unreadableTruth = map[string]string{
	"H264:DateTimeOriginal":     "AVCHD date is in H.264 SEI user data inside the video stream, not a header",
	"Matroska:DateTimeOriginal": "Matroska/EBML is not parsed; filename/mtime fallback",
	"DV:DateTimeOriginal":       "raw DV date is in the frame stream, not a header",
	"ASF:CreationDate":          "ASF/WMV is not parsed; filename/mtime fallback",
	"SigmaRaw:DateTimeOriginal": "Sigma X3F is not parsed",
	"Minolta:DateTimeOriginal":  "Minolta MRW is not parsed",
}

// Photo formats we recognise but do not parse.
var unreadableFormat = map[string]string{
	"x3f": "Sigma X3F keeps EXIF in a proprietary section; not parsed, filename/mtime fallback",
}

type corpusMiss struct{ file, format, tag, want, got, gotTag string }

func TestCorpusAgreesWithExifTool(t *testing.T) {
	dir := corpusDir(t)
	entries := loadTruth(t, filepath.Join(dir, "truth-exiftool.json"))
	r := NewReader(Options{VideoTZ: time.UTC})
	var total, agree, hmsMiss int
	perFormat := map[string][2]int{}
	var misses []corpusMiss
	for _, e := range entries {
		rel := e.Str("SourceFile")
		path := filepath.Join(dir, rel)
		st, err := os.Stat(path)
		if err != nil {
			t.Errorf("stat %s: %v", rel, err)
			continue
		}
		info := r.File(path, st.Size(), st.ModTime())
		if info.Kind != KindPhoto && info.Kind != KindVideo {
			continue
		}
		tag, want := e.CaptureDate()
		if tag == "" {
			continue
		}
		if reason, skip := unreadableFormat[info.Format]; skip {
			t.Logf("excluded %s (%s): %s", rel, info.Format, reason)
			continue
		}
		if _, reason := parseDateTime([]byte(want), 9999); reason != "" {
			t.Logf("excluded %s: ExifTool's own %s=%q is %s; we fall through to %s", rel, tag, want, reason, info.Date.Tag)
			continue
		}
		if reason, skip := unreadableTruth[tag]; skip {
			t.Logf("excluded %s (%s): %s", rel, tag, reason)
			continue
		}
		total++
		pf := perFormat[info.Format]
		pf[1]++
		got := info.Date.Wall.Format("2006:01:02 15:04:05")
		if len(want) >= 10 && got[:10] == want[:10] {
			agree++
			pf[0]++
			if len(want) >= 19 && got[11:19] != want[11:19] {
				hmsMiss++
				t.Logf("time differs %s: exiftool %s=%s, we %s=%s", rel, tag, want, info.Date.Tag, got)
			}
		} else {
			misses = append(misses, corpusMiss{rel, info.Format, tag, want, got, info.Date.Tag})
		}
		perFormat[info.Format] = pf
	}
	for _, m := range misses {
		t.Logf("MISS %-60s %-5s exiftool %s=%q, we %s=%q", m.file, m.format, m.tag, m.want, m.gotTag, m.got)
	}
	for f, c := range perFormat {
		t.Logf("format %-5s %d/%d", f, c[0], c[1])
	}
	t.Logf("calendar date agrees on %d/%d files; %d of those differ in H:M:S", agree, total, hmsMiss)
	if total == 0 {
		t.Fatal("no dated photo/video in the corpus")
	}
	if float64(agree) < 0.99*float64(total) {
		t.Errorf("agreement %d/%d below 99%%", agree, total)
	}
	for _, f := range []string{"jpeg", "heic"} {
		if c := perFormat[f]; c[0] != c[1] {
			t.Errorf("%s: %d/%d agree, want all", f, c[0], c[1])
		}
	}
}
