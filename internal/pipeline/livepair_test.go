package pipeline

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/meta"
)

// A shared Apple ContentIdentifier alone does not make a pair: an edited
// copy (IMG_E2927) carries its original's identifier, and so can a
// restored or re-exported file. A pair is a still and a video, of one
// capture time (liveWindow); anything else lands under its own name and
// its own date.
func TestSharedContentIdentifierAloneIsNoPair(t *testing.T) {
	const (
		edited  = "1EA799FF-8384-4BC4-87AA-000000000001"
		late    = "1EA799FF-8384-4BC4-87AA-000000000002"
		nextDay = "1EA799FF-8384-4BC4-87AA-000000000003"
		live    = "1EA799FF-8384-4BC4-87AA-000000000004"
		twice   = "1EA799FF-8384-4BC4-87AA-000000000005"
	)
	when := time.Date(2019, 7, 4, 15, 0, 0, 0, time.UTC)
	iphone := fixture.Camera{Make: "Apple", Model: "iPhone XR"}
	still := func(at time.Time, cid, comment string) []byte {
		return fixture.JPEG(fixture.EXIF{When: at, Camera: iphone, ContentID: cid, Comment: comment})
	}
	root := t.TempDir()
	src, dst := filepath.Join(root, "export"), filepath.Join(root, "lib")
	tree(t, src, map[string][]byte{
		// Two stills, one time, one identifier: an original and its edit.
		"IMG_2927.JPG":  still(when, edited, "original"),
		"IMG_E2927.jpg": still(when, edited, "edited"),
		// A still and a video an hour apart: not one shot.
		"IMG_3000.JPG":   still(when, late, ""),
		"IMG_3000_1.MOV": fixture.LiveMOV(when.Add(time.Hour), late),
		// The same stem and identifier, a day apart: not one shot either.
		"IMG_5.JPG": still(when, nextDay, ""),
		"IMG_5.MOV": fixture.LiveMOV(when.AddDate(0, 0, 1), nextDay),
		// A real pair: still and video a second apart.
		"IMG_3578.JPG":   still(when.Add(2*time.Hour), live, ""),
		"IMG_3578_1.MOV": fixture.LiveMOV(when.Add(2*time.Hour+time.Second), live),
		// Two videos claim one still: the nearer is its pair, the other
		// keeps its own name.
		"IMG_7.JPG":   still(when.Add(3*time.Hour), twice, ""),
		"IMG_7_1.MOV": fixture.LiveMOV(when.Add(3*time.Hour+2*time.Second), twice),
		"IMG_7_2.MOV": fixture.LiveMOV(when.Add(3*time.Hour+time.Second), twice),
	})
	sum, _ := sortTree(t, []string{src}, dst)
	want := []string{
		"2019/2019-07-04/IMG_7.JPG", "2019/2019-07-04/IMG_7.MOV", "2019/2019-07-04/IMG_7_1.MOV",
		"2019/2019-07-04/IMG_2927.JPG", "2019/2019-07-04/IMG_E2927.jpg",
		"2019/2019-07-04/IMG_3000.JPG", "2019/2019-07-04/IMG_3000_1.MOV",
		"2019/2019-07-04/IMG_5.JPG", "2019/2019-07-05/IMG_5.MOV",
		"2019/2019-07-04/IMG_3578.JPG", "2019/2019-07-04/IMG_3578.MOV",
	}
	got := snapshot(t, dst)
	for _, w := range want {
		if _, ok := got[w]; !ok {
			t.Errorf("missing %s; library = %v", w, keys(got))
		}
	}
	if len(got) != len(want) || sum.Failed != 0 {
		t.Errorf("library = %v (failed %d), want %v", keys(got), sum.Failed, want)
	}
}

// A real iPhone Live Photo video from the corpus and a still carrying its
// ContentIdentifier and capture time pair whatever their names; the same
// still a minute later does not.
func TestCorpusLivePhotoVideoPairsOnlyWithItsCaptureTime(t *testing.T) {
	corpus := fixture.CorpusDir(t)
	video, err := os.ReadFile(filepath.Join(corpus, "digicam/Apple/iPhone XR/IMG_3589.mov"))
	if err != nil {
		t.Fatal(err)
	}
	const cid = "1EA799FF-8384-4BC4-87AA-139A814D9125"      // its Keys:ContentIdentifier
	taken := time.Date(2020, 4, 17, 10, 3, 47, 0, time.UTC) // its Keys:CreationDate, 10:03:47-06:00
	for _, c := range []struct {
		name  string
		after time.Duration
		want  []string
	}{
		{"same time", 0, []string{"2020/2020-04-17/IMG_3589.JPG", "2020/2020-04-17/IMG_3589.mov"}},
		{"a minute later", time.Minute, []string{"2020/2020-04-17/IMG_3589.JPG", "2020/2020-04-17/IMG_3589_1.mov"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			src, dst := filepath.Join(root, "export"), filepath.Join(root, "lib")
			tree(t, src, map[string][]byte{
				"IMG_3589.JPG": fixture.JPEG(fixture.EXIF{When: taken.Add(c.after), Offset: "-06:00",
					Camera: fixture.Camera{Make: "Apple", Model: "iPhone XR"}, ContentID: cid}),
				"IMG_3589_1.mov": video, // as an export names a Live Photo's video
			})
			sortTree(t, []string{src}, dst)
			got := snapshot(t, dst)
			for _, w := range c.want {
				if _, ok := got[w]; !ok {
					t.Errorf("missing %s; library = %v", w, keys(got))
				}
			}
			if len(got) != len(c.want) {
				t.Errorf("library = %v, want %v", keys(got), c.want)
			}
		})
	}
}

// explain's Decide pairs through the same livePairs as sort: the video a
// second from its still follows it, the one an hour away and the edited
// copy of a still lead themselves.
func TestDecidePairsByContentIdentifierAsSortDoes(t *testing.T) {
	const cid = "1EA799FF-8384-4BC4-87AA-000000000009"
	when := time.Date(2019, 7, 4, 15, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	tree(t, dir, map[string][]byte{
		"IMG_1.JPG":   fixture.JPEG(fixture.EXIF{When: when, ContentID: cid, Comment: "original"}),
		"IMG_E1.JPG":  fixture.JPEG(fixture.EXIF{When: when, ContentID: cid, Comment: "edited"}),
		"IMG_1_1.MOV": fixture.LiveMOV(when.Add(time.Second), cid),
		"IMG_1_2.MOV": fixture.LiveMOV(when.Add(time.Hour), cid),
	})
	for name, want := range map[string]struct {
		role   Role
		leader string
	}{
		"IMG_1.JPG":   {RoleLeads, ""},
		"IMG_E1.JPG":  {RoleLeads, ""},
		"IMG_1_1.MOV": {RoleFollows, "IMG_1.JPG"},
		"IMG_1_2.MOV": {RoleLeads, ""},
	} {
		d, err := Decide(filepath.Join(dir, name), meta.Options{VideoTZ: time.UTC}, false)
		if err != nil {
			t.Fatal(err)
		}
		if leader := filepath.Base(d.Leader); d.Role != want.role || (want.leader != "" && leader != want.leader) {
			t.Errorf("%s: %s (leader %q), want %s (leader %q)", name, d.Role, d.Leader, want.role, want.leader)
		}
	}
}
