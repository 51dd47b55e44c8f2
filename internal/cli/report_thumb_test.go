package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReportThumbnails: a real HEIF with an EXIF thumbnail, a Fujifilm
// RAW and an MP4 with cover art, each on two cards, show as duplicate
// pairs with both thumbnails inlined; an AVI shows its THM's where one is
// beside it and "no thumbnail" where not; the MP4,
// which has no date, shows one in the no-date list too. (The browser
// tests check that they decode.)
func TestReportThumbnails(t *testing.T) {
	base := t.TempDir()
	card1, card2, lib := filepath.Join(base, "card1"), filepath.Join(base, "card2"), filepath.Join(base, "lib")
	files := map[string]string{"MVI_0001.AVI": "RIFF.avi", "MVI_0001.THM": "CRW_0101.THM"}
	for name, rel := range previewFiles {
		files[name] = rel
	}
	for name, rel := range files {
		b, err := os.ReadFile(filepath.Join("..", "meta", "testdata", rel))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(card1, name), b, 0o644)
		if filepath.Ext(name) != ".THM" {
			writeFile(t, filepath.Join(card2, "copy of "+name), b, 0o644)
		}
	}
	page := filepath.Join(base, "r.html")
	if r := shoebox("sort", "--dry-run", "--no-mtime", "--report", page, card1, card2, lib); r.code != ExitOK {
		t.Fatalf("sort:\n%s", r)
	}
	html := readFileString(t, page)
	figure := regexp.MustCompile(`<figure>(<img src="data:image/jpeg;base64,[^"]+" alt="thumbnail">|<div class="noimg">[^<]*</div>)<figcaption>\w+<br><code>([^<]*)</code>`)
	shown := map[string]bool{}
	for _, m := range figure.FindAllStringSubmatch(html, -1) {
		shown[m[2]] = strings.HasPrefix(m[1], "<img")
	}
	for name := range previewFiles {
		for _, p := range []string{filepath.Join(card1, name), filepath.Join(card2, "copy of "+name)} {
			if !shown[p] {
				t.Errorf("%s has no thumbnail in the duplicates (pairs: %v)", p, shown)
			}
		}
	}
	if p := filepath.Join(card1, "MVI_0001.AVI"); !shown[p] {
		t.Errorf("%s has no thumbnail, though its THM is beside it", p)
	}
	// The AVI's copy has no THM beside it: it has no thumbnail, and says so.
	if p := filepath.Join(card2, "copy of MVI_0001.AVI"); shown[p] {
		t.Errorf("%s shows a thumbnail, though no THM is beside it", p)
	} else if !strings.Contains(html, `<div class="noimg">no thumbnail</div><figcaption>skipped<br><code>`+p) &&
		!strings.Contains(html, `<div class="noimg">no thumbnail</div><figcaption>kept<br><code>`+p) {
		t.Errorf("%s is not shown as a pair without a thumbnail", p)
	}
	if !regexp.MustCompile(`<img class="mini" src="data:image/jpeg;base64,[^"]+" alt="preview"><code>`+regexp.QuoteMeta(filepath.Join(card1, "clip.mp4"))).MatchString(html) &&
		!regexp.MustCompile(`<img class="mini" src="data:image/jpeg;base64,[^"]+" alt="preview"><code>`+regexp.QuoteMeta(filepath.Join(card2, "copy of clip.mp4"))).MatchString(html) {
		t.Errorf("the undated clip.mp4 has no thumbnail in the no-date list")
	}
}
