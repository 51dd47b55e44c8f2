package meta

import (
	"fmt"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func corpusDir(t testing.TB) string { return fixture.CorpusDir(t) }

type truthEntry = fixture.Truth

func loadTruth(t testing.TB, path string) []truthEntry { return fixture.LoadTruth(t, path) }

type corpusMiss struct{ file, format, tag, want, got, gotTag, why string }

// onPurpose says why shoebox dates a file otherwise than the reference
// (ExifTool's fields in the README's order, want its value) by design,
// "" when it does not: a field whose time part is damaged keeps its day
// here and is skipped there; a date form the reference does not parse
// (2005.09.15) but ExifTool shows in the field shoebox used.
func onPurpose(e truthEntry, info Info, want string) string {
	day := info.Date.Wall.Format("2006:01:02")
	switch {
	case len(want) >= 10 && want[:10] == day:
		return ""
	case info.Date.TimeLost != "":
		return fmt.Sprintf("%s %s has an unreadable time (%s): filed by its day, which the reference skips", info.Date.Tag, day, info.Date.TimeLost)
	case info.Date.Source.FromFile() && sameDay(e.Str(info.Date.Tag), day):
		return fmt.Sprintf("ExifTool shows %s=%q, a form the reference does not parse; shoebox reads it as %s", info.Date.Tag, e.Str(info.Date.Tag), day)
	}
	return ""
}

// sameDay reports whether text holds the calendar day (YYYY:MM:DD) in
// its first eight digits, whatever the separators.
func sameDay(text, day string) bool {
	var ds []byte
	for i := 0; i < len(text) && len(ds) < 8; i++ {
		if c := text[i]; c >= '0' && c <= '9' {
			ds = append(ds, c)
		}
	}
	return len(ds) == 8 && string(ds) == day[:4]+day[5:7]+day[8:10]
}

func TestCorpusAgreesWithExifTool(t *testing.T) {
	dir := corpusDir(t)
	entries := loadTruth(t, filepath.Join(dir, "truth-exiftool.json"))
	r := NewReader(Options{VideoTZ: time.UTC})
	var total, agree, hmsMiss int
	perFormat := map[string][2]int{}
	var misses, deliberate []corpusMiss
	var sidecars [2]int
	var others []string
	for _, e := range entries {
		rel := e.Str("SourceFile")
		path := filepath.Join(dir, rel)
		st, err := os.Stat(path)
		if err != nil {
			t.Errorf("stat %s: %v", rel, err)
			continue
		}
		info := r.File(path, st.Size(), st.ModTime())
		tag, want := e.CaptureDate()
		if tag == "" {
			continue
		}
		if info.Kind == KindSidecar {
			// A THM or XMP sidecar is not sorted alone, but its date is
			// the one its video or RAW may take: it must agree too.
			sidecars[1]++
			if got := info.Date.Wall.Format("2006:01:02"); len(want) >= 10 && got == want[:10] {
				sidecars[0]++
			} else {
				t.Errorf("sidecar %s: exiftool %s=%s, we %s=%s", rel, tag, want, info.Date.Tag, got)
			}
			continue
		}
		if info.Kind != KindPhoto && info.Kind != KindVideo {
			others = append(others, rel)
			t.Logf("not a photo or video to shoebox, left where it is (%s %s): %s, dated %s=%s by ExifTool", info.Format, info.Kind, rel, tag, want)
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
		} else if why := onPurpose(e, info, want); why != "" {
			// A miss all the same (ExifTool's day is the reference): listed
			// with its reason, and the only kind of miss the rule allows
			// beyond the 0.5% below.
			deliberate = append(deliberate, corpusMiss{rel, info.Format, tag, want, got, info.Date.Tag, why})
		} else {
			misses = append(misses, corpusMiss{rel, info.Format, tag, want, got, info.Date.Tag, missReason(info)})
		}
		perFormat[info.Format] = pf
	}
	for _, m := range misses {
		t.Logf("MISS %-60s %-5s exiftool %s=%q, we %s=%q: %s", m.file, m.format, m.tag, m.want, m.gotTag, m.got, m.why)
	}
	for _, m := range deliberate {
		t.Logf("ON PURPOSE %-54s %-5s exiftool %s=%q, we %s=%q: %s", m.file, m.format, m.tag, m.want, m.gotTag, m.got, m.why)
	}
	for f, c := range perFormat {
		t.Logf("format %-5s %d/%d", f, c[0], c[1])
	}
	dated := total + sidecars[1] + len(others)
	t.Logf("of the %d files ExifTool dates: %d photos and videos on its calendar day, %d sidecars (THM, XMP) too; misses: %d on purpose and %d not (listed above), %d not a photo or video to shoebox (left where they are); %d of the agreeing differ in H:M:S",
		dated, agree, sidecars[0], len(deliberate), len(misses), len(others), hmsMiss)
	if total == 0 {
		t.Fatal("no dated photo/video in the corpus")
	}
	if float64(len(misses)) > 0.005*float64(dated) {
		t.Errorf("%d misses that are not on purpose among %d dated files, want at most 0.5%%", len(misses), dated)
	}
	for f, c := range perFormat {
		if c[1] > 3 && c[0] != c[1] {
			t.Errorf("%s: %d/%d agree, want all (a format with more than 3 files)", f, c[0], c[1])
		}
	}
}

// missReason says why a file was dated otherwise than by ExifTool's date.
func missReason(info Info) string {
	switch {
	case info.Warning != "":
		return "fell back to " + info.Date.Source.String() + ": " + info.Warning
	case info.Date.Source == SourceModTime || info.Date.Source == SourceFilename:
		return "no date read in the file (" + info.Format + "): fell back to " + info.Date.Source.String()
	}
	return "read a different field"
}
