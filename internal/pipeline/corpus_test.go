package pipeline

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// TestCorpusLandsInExifToolsDateFolder sorts the real camera corpus and
// holds it to ExifTool's reading. The denominator is every file ExifTool
// dates: each lands in that day's folder, or is a miss, listed with what
// shoebox did instead — left alone with its reason (not a photo or video
// to shoebox: a PDF, an audio file, a thumbnail without its RAW), filed
// with the photo it travels with, or filed under another day. Left alone
// is the product's choice and is said for each file; another day is a
// wrong date, and may be at most 0.5% of the dated files.
func TestCorpusLandsInExifToolsDateFolder(t *testing.T) {
	fsxtest.SkipSlowUnderWine(t, "a sort of the shared corpus")
	corpus := fixture.CorpusDir(t)
	dst := filepath.Join(t.TempDir(), "lib")
	srcs := []string{filepath.Join(corpus, "digicam"), filepath.Join(corpus, "exif-samples"), filepath.Join(corpus, "exiftool-images")}
	sum, rec := sortTree(t, srcs, dst, func(c *Config) { c.Dedup = false })
	landed, said := map[string]Event{}, map[string]Event{} // source path → its transfer, or what was said of it
	for _, ev := range rec.events {
		switch {
		case ev.Type == "op" && (ev.Outcome == OutTransferred || ev.Outcome == OutRenamed):
			landed[ev.Src] = ev
		case ev.Type == "op":
			said[ev.Src] = ev
		}
	}
	var total, agree, leftAlone, withPhoto, wrong int
	perExt := map[string][2]int{}
	for _, e := range fixture.LoadTruth(t, filepath.Join(corpus, "truth-exiftool.json")) {
		src := filepath.Join(corpus, e.Str("SourceFile"))
		tag, want := e.CaptureDate()
		if tag == "" {
			continue // ExifTool finds no capture date either
		}
		total++
		ext := strings.ToLower(filepath.Ext(src))
		wantDir := strings.ReplaceAll(want[:4]+"/"+want[:10], ":", "-")
		ev, sorted := landed[src]
		if !sorted {
			leftAlone++
			other, ok := said[src]
			if !ok {
				t.Errorf("MISS %s: ExifTool %s=%s; shoebox said nothing of it", e.Str("SourceFile"), tag, want)
				continue
			}
			t.Logf("MISS (left alone) %s: ExifTool %s=%s; shoebox: %s, %s", e.Str("SourceFile"), tag, want, other.Outcome, other.Reason)
			continue
		}
		gotDir := filepath.ToSlash(filepath.Dir(rel(dst, ev.Dst)))
		if gotDir == wantDir {
			agree++
		}
		switch {
		case gotDir == wantDir:
		case ext == ".xmp" || ext == ".aae" || ext == ".json" || ext == ".thm":
			withPhoto++
			t.Logf("MISS (with its photo) %s: ExifTool %s=%s; filed in %s with the photo it travels with", e.Str("SourceFile"), tag, want, gotDir)
			continue
		default:
			wrong++
			t.Logf("MISS (another day) %s: ExifTool %s=%s, landed in %s by %s %s (%s)", e.Str("SourceFile"), tag, want, gotDir, ev.DateSource, ev.DateTag, ev.Reason)
		}
		c := perExt[ext]
		c[1]++
		if gotDir == wantDir {
			c[0]++
		}
		perExt[ext] = c
	}
	t.Logf("%d of %d files ExifTool dates landed in its date folder; misses: %d left alone (not media to shoebox, each said), %d with their photo, %d under another day; summary %+v",
		agree, total, leftAlone, withPhoto, wrong, sum)
	if total < 100 {
		t.Fatalf("only %d dated files compared; the corpus looks incomplete", total)
	}
	if float64(wrong) > 0.005*float64(total) {
		t.Errorf("%d of %d dated files landed under another day, want at most 0.5%%", wrong, total)
	}
	for ext, c := range perExt {
		if c[1] > 3 && c[0] != c[1] {
			t.Errorf("%s: %d/%d in the right folder, want all (a format with more than 3 files)", ext, c[0], c[1])
		}
	}
	if sum.Failed != 0 {
		t.Errorf("%d files failed", sum.Failed)
	}
}

// TestFuzzedFilesSortWithoutHarm runs every corpus file that once crashed
// or hung a metadata parser through a dry run.
func TestFuzzedFilesSortWithoutHarm(t *testing.T) {
	fsxtest.SkipSlowUnderWine(t, "a sort of the hostile corpus")
	corpus := fixture.CorpusDir(t)
	srcs := []string{filepath.Join(corpus, "fuzzed"), filepath.Join(corpus, "hangs")}
	done := make(chan Summary, 1)
	go func() {
		sum, _ := sortTree(t, srcs, filepath.Join(t.TempDir(), "lib"), func(c *Config) { c.DryRun = true })
		done <- sum
	}()
	select {
	case sum := <-done:
		if sum.Scanned < 1200 || sum.Failed != 0 {
			t.Errorf("summary %+v: want every hostile file scanned and none failed", sum)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("dry run over the hostile files did not finish: a parser hangs")
	}
}
