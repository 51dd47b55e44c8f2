package pipeline

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
)

// TestCorpusLandsInExifToolsDateFolder sorts the real camera corpus and
// checks every photo and video that ExifTool dates lands in that day's folder.
func TestCorpusLandsInExifToolsDateFolder(t *testing.T) {
	corpus := fixture.CorpusDir(t)
	dst := filepath.Join(t.TempDir(), "lib")
	srcs := []string{filepath.Join(corpus, "digicam"), filepath.Join(corpus, "exif-samples"), filepath.Join(corpus, "exiftool-images")}
	sum, rec := sortTree(t, srcs, dst, func(c *Config) { c.Dedup = false })
	landed := map[string]Event{} // source path → its transfer
	for _, ev := range rec.events {
		if ev.Type == "op" && (ev.Outcome == OutTransferred || ev.Outcome == OutRenamed) {
			landed[ev.Src] = ev
		}
	}
	var total, agree int
	perExt := map[string][2]int{}
	for _, e := range fixture.LoadTruth(t, filepath.Join(corpus, "truth-exiftool.json")) {
		src := filepath.Join(corpus, e.Str("SourceFile"))
		ev, sorted := landed[src]
		tag, want := e.CaptureDate()
		if tag == "" {
			continue // ExifTool finds no capture date either
		}
		if !sorted {
			t.Logf("not sorted by shoebox (not media, or a sidecar): %s, ExifTool %s=%s", e.Str("SourceFile"), tag, want)
			continue
		}
		ext := strings.ToLower(filepath.Ext(src))
		if ext == ".xmp" || ext == ".aae" || ext == ".json" {
			t.Logf("not compared: %s is a sidecar, filed under its photo's date whatever its own says", e.Str("SourceFile"))
			continue
		}
		dstPath := ev.Dst
		wantDir := strings.ReplaceAll(want[:4]+"/"+want[:10], ":", "-")
		gotDir := filepath.ToSlash(filepath.Dir(rel(dst, dstPath)))
		c := perExt[ext]
		c[1]++
		total++
		if gotDir == wantDir {
			agree++
			c[0]++
		} else {
			t.Logf("MISS %s: ExifTool %s=%s, landed in %s by %s %s (%s)", e.Str("SourceFile"), tag, want, gotDir, ev.DateSource, ev.DateTag, ev.Reason)
		}
		perExt[ext] = c
	}
	t.Logf("%d of %d dated photos and videos landed in ExifTool's date folder; summary %+v", agree, total, sum)
	if total < 100 {
		t.Fatalf("only %d dated media files compared; the corpus looks incomplete", total)
	}
	if float64(agree) < 0.995*float64(total) {
		t.Errorf("%d/%d in the right folder, want at least 99.5%%", agree, total)
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
