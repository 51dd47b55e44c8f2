package pipeline

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"shoebox/internal/fixture"
)

// Dates in the corpus that live where shoebox does not read, by ExifTool
// tag: the file still sorts (by file name or mtime), just not by that date.
var unreadTags = map[string]string{
	"H264:DateTimeOriginal":     "AVCHD: the date is in H.264 SEI data inside the stream",
	"Matroska:DateTimeOriginal": "Matroska is not parsed",
	"DV:DateTimeOriginal":       "raw DV: the date is in the frame stream",
	"SigmaRaw:DateTimeOriginal": "Sigma X3F is not parsed",
}

// TestCorpusLandsInExifToolsDateFolder sorts the real camera corpus and
// checks every photo and video that ExifTool dates lands in that day's folder.
func TestCorpusLandsInExifToolsDateFolder(t *testing.T) {
	corpus := fixture.CorpusDir(t)
	dst := filepath.Join(t.TempDir(), "lib")
	srcs := []string{filepath.Join(corpus, "digicam"), filepath.Join(corpus, "exif-samples"), filepath.Join(corpus, "exiftool-images")}
	sum, rec := sortTree(t, srcs, dst, func(c *Config) { c.Dedup = false })
	landed := map[string]string{} // source path → destination path
	for _, ev := range rec.events {
		if ev.Type == "op" && (ev.Outcome == OutTransferred || ev.Outcome == OutRenamed) {
			landed[ev.Src] = ev.Dst
		}
	}
	var total, agree int
	perExt := map[string][2]int{}
	for _, e := range fixture.LoadTruth(t, filepath.Join(corpus, "truth-exiftool.json")) {
		src := filepath.Join(corpus, e.Str("SourceFile"))
		dstPath, sorted := landed[src]
		tag, want := e.CaptureDate()
		if !sorted || tag == "" || len(want) < 10 || strings.HasPrefix(want, "0000") {
			continue // not media to shoebox, or no date to compare
		}
		if why, ok := unreadTags[tag]; ok {
			t.Logf("not compared %s: %s", e.Str("SourceFile"), why)
			continue
		}
		ext := strings.ToLower(filepath.Ext(src))
		if ext == ".xmp" || ext == ".aae" || ext == ".json" {
			continue // a sidecar files under its photo's date, whatever its own says
		}
		wantDir := strings.ReplaceAll(want[:4]+"/"+want[:10], ":", "-")
		gotDir := filepath.ToSlash(filepath.Dir(rel(dst, dstPath)))
		c := perExt[ext]
		c[1]++
		total++
		if gotDir == wantDir {
			agree++
			c[0]++
		} else {
			t.Logf("MISS %s: ExifTool %s=%s, landed in %s", e.Str("SourceFile"), tag, want, gotDir)
		}
		perExt[ext] = c
	}
	t.Logf("%d of %d dated photos and videos landed in ExifTool's date folder; summary %+v", agree, total, sum)
	if total < 100 {
		t.Fatalf("only %d dated media files compared; the corpus looks incomplete", total)
	}
	if float64(agree) < 0.99*float64(total) {
		t.Errorf("%d/%d in the right folder, want at least 99%%", agree, total)
	}
	for _, ext := range []string{".jpg", ".jpeg", ".heic"} {
		if c := perExt[ext]; c[0] != c[1] {
			t.Errorf("%s: %d/%d in the right folder, want all", ext, c[0], c[1])
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
