package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
)

// TestExplainFollowsALivePhotoUnderAnotherName: a Live Photo's video
// named apart from its still (IMG_1_1.MOV after an export) travels with
// the still in sort; explain said "left in place: sidecar without its
// photo or video" (issue 23, bug 3).
func TestExplainFollowsALivePhotoUnderAnotherName(t *testing.T) {
	dir := t.TempDir()
	const cid = "1EA799FF-8384-4BC4-87AA-139A814D9125"
	when := time.Date(2020, 4, 17, 16, 3, 47, 0, time.UTC)
	writeFile(t, filepath.Join(dir, "IMG_1.JPG"), fixture.JPEG(fixture.EXIF{When: when, Camera: fixture.Camera{Make: "Apple", Model: "iPhone XR"}, ContentID: cid}), 0o644)
	writeFile(t, filepath.Join(dir, "IMG_1_1.MOV"), fixture.LiveMOV(when, cid), 0o644)
	r := shoebox("explain", filepath.Join(dir, "IMG_1_1.MOV"))
	if !strings.Contains(r.stdout, "→ travels with IMG_1.JPG") {
		t.Errorf("explain of the video:\n%s\nwant it to travel with IMG_1.JPG", r.stdout)
	}
	explainMatchesSort(t, dir)
}

// TestExplainMarksUsedOnlyTheDateUsed: a candidate meta would use is not
// "(used)" when the verdict takes another date (the Takeout JSON's) or
// none (a copy's modification time, not trusted) (issue 23, bug 3).
func TestExplainMarksUsedOnlyTheDateUsed(t *testing.T) {
	dir := t.TempDir()
	undated := func(c string) []byte { return fixture.JPEG(fixture.EXIF{Comment: c}) }
	writeFile(t, filepath.Join(dir, "beach.jpg"), undated("takeout"), 0o644)
	writeFile(t, filepath.Join(dir, "beach.jpg.supplemental-metadata.json"), []byte(`{"title":"beach.jpg","photoTakenTime":{"timestamp":"1562252400"}}`), 0o644)
	writeFile(t, filepath.Join(dir, "copy.jpg"), undated("fresh copy"), 0o644)
	old := time.Date(2015, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(dir, "beach.jpg"), old, old); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"beach.jpg", "copy.jpg"} {
		r := shoebox("explain", filepath.Join(dir, f))
		for _, line := range strings.Split(r.stdout, "\n") {
			if strings.Contains(line, "File:ModifyDate") && (strings.Contains(line, "(used") || strings.HasPrefix(strings.TrimSpace(line), "*")) {
				t.Errorf("%s: %q: the verdict does not use the modification time\n%s", f, line, r.stdout)
			}
		}
		rj := shoebox("explain", "--json", filepath.Join(dir, f))
		if strings.Contains(rj.stdout, `"note":"used`) {
			t.Errorf("%s: --json says a date not used is used:\n%s", f, rj.stdout)
		}
	}
	explainMatchesSort(t, dir)
}
