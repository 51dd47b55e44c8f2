package pipeline

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// warnings lists a run's warnings, sorted.
func warnings(rec *recorder) []string {
	var out []string
	for _, ev := range rec.events {
		if ev.Type == "warning" {
			out = append(out, ev.Reason)
		}
	}
	sort.Strings(out)
	return out
}

// assertIdempotent runs one more time the command that gave first and
// checks that it transfers nothing, warns nothing new, and reports every
// file as already there, or as before: a duplicate may now be already
// there (its kept copy landed), a file left out is left out for the same
// reason (issue 23: "a second run of an unchanged pile must do and say
// nothing new").
func assertIdempotent(t *testing.T, root string, first *recorder, sources []string, lib string, o ...opts) {
	t.Helper()
	sum, again := sortTree(t, sources, lib, o...)
	if sum.Transferred+sum.Renamed+sum.DuplicatesRemoved != 0 || sum.Failed != 0 {
		t.Errorf("the second run did something: %+v", sum)
	}
	seen := map[string]bool{}
	for _, w := range warnings(first) {
		seen[w] = true
	}
	for _, w := range warnings(again) {
		if !seen[w] {
			t.Errorf("the second run warns anew: %s", w)
		}
	}
	before := verdicts(first, root)
	for src, v := range verdicts(again, root) {
		was, ok := before[src]
		switch {
		case v == string(OutIdentical) || v == string(OutImportedBefore):
		case !ok && strings.HasPrefix(v, string(OutFiltered)):
			// a sidecar whose photo the first run moved away is not seen again
		case v != was:
			t.Errorf("%s: %q on the second run, %q on the first", src, v, was)
		}
	}
}

// TestSidecarOfADuplicateFollowsTheKeptCopy: a sidecar whose photo is a
// duplicate of another source travels with the copy that is kept, on the
// first run; the second run does and says nothing new. It was "left in
// place: sidecar without its photo" on the first run and imported under
// the kept copy's name on the second (issue 23, bug 2).
func TestSidecarOfADuplicateFollowsTheKeptCopy(t *testing.T) {
	for _, mode := range []string{"copy", "move --delete-duplicates"} {
		t.Run(mode, func(t *testing.T) {
			root := t.TempDir()
			card, lib := filepath.Join(root, "card"), filepath.Join(root, "lib")
			x := photo(2019, 7, 4, 10, "x")
			xmp := []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><!-- edit --></x:xmpmeta>`)
			tree(t, card, map[string][]byte{"DCIM/IMG_0001.JPG": x, "backup/IMG_0001 copy.JPG": x, "backup/IMG_0001 copy.JPG.xmp": xmp})
			o := []opts{}
			if mode != "copy" {
				o = append(o, moveDeletingDuplicates)
			}
			sum, rec := sortTree(t, []string{card}, lib, o...)
			assertSame(t, snapshot(t, lib), map[string]string{
				"2019/2019-07-04/IMG_0001.JPG": string(x), "2019/2019-07-04/IMG_0001.JPG.xmp": string(xmp)})
			if v := verdicts(rec, root)["card/backup/IMG_0001 copy.JPG.xmp"]; v != string(OutTransferred) {
				t.Errorf("the duplicate's sidecar: %q, want transferred beside the kept copy", v)
			}
			if sum.Ignored != 0 {
				t.Errorf("summary %+v: nothing should be left in place", sum)
			}
			if mode != "copy" {
				if left := snapshot(t, card); len(left) != 0 {
					t.Errorf("the card still holds %v", keys(left))
				}
			}
			assertIdempotent(t, root, rec, []string{card}, lib, o...)
		})
	}
}

// TestSidecarOfADuplicateBesideTheKeptCopysOwn: when the kept copy has a
// sidecar of the same name, the duplicate's (different) sidecar is left
// in place with a warning naming the file that has its name, the same on
// every run; an identical one is already there.
func TestSidecarOfADuplicateBesideTheKeptCopysOwn(t *testing.T) {
	root := t.TempDir()
	card, lib := filepath.Join(root, "card"), filepath.Join(root, "lib")
	x := photo(2019, 7, 4, 10, "x")
	mine := []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><!-- mine --></x:xmpmeta>`)
	other := []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><!-- other one --></x:xmpmeta>`)
	tree(t, card, map[string][]byte{
		"DCIM/IMG_0001.JPG": x, "DCIM/IMG_0001.xmp": mine,
		"a/IMG_0001 copy.JPG": x, "a/IMG_0001 copy.xmp": other,
		"b/IMG_0001 (1).JPG": x, "b/IMG_0001 (1).xmp": mine,
	})
	_, rec := sortTree(t, []string{card}, lib, func(c *Config) { c.Mode = transfer.Copy })
	assertSame(t, snapshot(t, lib), map[string]string{
		"2019/2019-07-04/IMG_0001.JPG": string(x), "2019/2019-07-04/IMG_0001.xmp": string(mine)})
	v := verdicts(rec, root)
	if !strings.Contains(v["card/a/IMG_0001 copy.xmp"], "a different file has its name") {
		t.Errorf("the different sidecar: %q", v["card/a/IMG_0001 copy.xmp"])
	}
	if got := v["card/b/IMG_0001 (1).xmp"]; got != string(OutIdentical) {
		t.Errorf("the identical sidecar: %q, want already there", got)
	}
	if len(warnings(rec)) != 1 {
		t.Errorf("warnings %q, want one naming the sidecar left in place", warnings(rec))
	}
	assertIdempotent(t, root, rec, []string{card}, lib)
}

// TestTakeoutJSONJoiningItsPhotoInTheLibraryIsDated: a Takeout photo
// with no date of its own, dated by its JSON, is in the library already;
// its JSON joins it there and is counted under the date it is filed
// under, not as "no date" (issue 23, bug 2).
func TestTakeoutJSONJoiningItsPhotoInTheLibraryIsDated(t *testing.T) {
	root := t.TempDir()
	card, lib := filepath.Join(root, "card"), filepath.Join(root, "lib")
	undated := stripDates(fixture.JPEG(fixture.EXIF{Comment: "takeout"}))
	json := []byte(`{"title":"beach.jpg","photoTakenTime":{"timestamp":"1562252400"}}`)
	tree(t, card, map[string][]byte{"Takeout/beach.jpg": undated, "Takeout/beach.jpg.supplemental-metadata.json": json})
	tree(t, lib, map[string][]byte{"2019/2019-07-04/beach.jpg": undated})
	noMtime := func(c *Config) { c.NoModTime = true; c.VideoTZ = time.UTC }
	sum, rec := sortTree(t, []string{card}, lib, noMtime)
	if sum.UnknownDate != 0 || sum.Transferred != 1 {
		t.Errorf("summary %+v: the JSON lands beside its photo, under its date", sum)
	}
	for _, ev := range rec.events {
		if ev.Outcome == OutTransferred && ev.Date == "" {
			t.Errorf("%s transferred with no date", ev.Src)
		}
	}
	assertSame(t, snapshot(t, lib), map[string]string{
		"2019/2019-07-04/beach.jpg": string(undated), "2019/2019-07-04/beach.jpg.supplemental-metadata.json": string(json)})
	assertIdempotent(t, root, rec, []string{card}, lib, noMtime)
}

// TestWarningNamesTheDateTheFileIsFiledUnder: a Takeout photo whose EXIF
// date is unreadable is dated by its JSON; the warning about its header
// says so, not "dated by mtime" (the file's own best date, which sort
// does not use).
func TestWarningNamesTheDateTheFileIsFiledUnder(t *testing.T) {
	root := t.TempDir()
	card, lib := filepath.Join(root, "card"), filepath.Join(root, "lib")
	tree(t, card, map[string][]byte{
		"beach.jpg":                            stripDates(fixture.JPEG(fixture.EXIF{Comment: "takeout"})),
		"beach.jpg.supplemental-metadata.json": []byte(`{"title":"beach.jpg","photoTakenTime":{"timestamp":"1562252400"}}`),
	})
	old := time.Date(2015, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(card, "beach.jpg"), old, old); err != nil {
		t.Fatal(err)
	}
	_, rec := sortTree(t, []string{card}, lib)
	ws := warnings(rec)
	if len(ws) != 1 || !strings.Contains(ws[0], "dated by sidecar") {
		t.Errorf("warnings %q, want one saying the photo is dated by its sidecar", ws)
	}
}
