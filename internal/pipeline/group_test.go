package pipeline

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/meta"
)

func TestSidecarsKeepTheirPhotosNameThroughARename(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "card"), filepath.Join(root, "lib")
	xmp := []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="5"/></rdf:RDF></x:xmpmeta>`)
	tree(t, src, map[string][]byte{
		"IMG_1.JPG":      photo(2019, 7, 4, 15, "new"),
		"IMG_1.xmp":      xmp,
		"IMG_1.JPG.json": []byte(`{"title":"IMG_1.JPG","photoTakenTime":{"timestamp":"1562252400"}}`),
		"lonely.xmp":     xmp,
	})
	// Another photo already holds the name: the whole group must move to -1.
	tree(t, dst, map[string][]byte{"2019/2019-07-04/IMG_1.JPG": photo(2019, 7, 4, 15, "someone else")})
	sum, _ := sortTree(t, []string{src}, dst, func(c *Config) { c.Dedup = false })
	got := snapshot(t, dst)
	for _, want := range []string{"2019/2019-07-04/IMG_1-1.JPG", "2019/2019-07-04/IMG_1-1.xmp", "2019/2019-07-04/IMG_1-1.JPG.json"} {
		if _, ok := got[want]; !ok {
			t.Errorf("missing %s; library = %v", want, keys(got))
		}
	}
	if len(got) != 4 {
		t.Errorf("library = %v; the lonely sidecar must stay behind", keys(got))
	}
	if _, err := os.Stat(filepath.Join(src, "lonely.xmp")); err != nil || sum.Ignored != 1 {
		t.Errorf("lonely.xmp should be left in place and counted as ignored (ignored=%d): %v", sum.Ignored, err)
	}
}

func TestLivePhotoStillAndVideoLandSideBySide(t *testing.T) {
	corpus := fixture.CorpusDir(t)
	root := t.TempDir()
	src, dst := filepath.Join(root, "card"), filepath.Join(root, "lib")
	// A real iPhone still and a real iPhone video, captured five seconds
	// apart, named as a Live Photo pair is: they must stay together even
	// though the video's own date is read from a different header.
	still, err := os.ReadFile(filepath.Join(corpus, "digicam/Apple/iPhone XR/IMG_3580.JPG"))
	if err != nil {
		t.Fatal(err)
	}
	video, err := os.ReadFile(filepath.Join(corpus, "digicam/Apple/iPhone XR/IMG_3589.mov"))
	if err != nil {
		t.Fatal(err)
	}
	tree(t, src, map[string][]byte{"IMG_3580.JPG": still, "IMG_3580.MOV": video})
	sortTree(t, []string{src}, dst)
	got := snapshot(t, dst)
	for _, want := range []string{"2020/2020-04-17/IMG_3580.JPG", "2020/2020-04-17/IMG_3580.MOV"} {
		if _, ok := got[want]; !ok {
			t.Errorf("missing %s; library = %v", want, keys(got))
		}
	}
}

func TestSameStemDifferentShotsStayApart(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "card"), filepath.Join(root, "lib")
	// A camera whose counter wrapped: one stem, two days.
	tree(t, src, map[string][]byte{"a/IMG_0001.JPG": photo(2019, 1, 1, 10, "x")})
	tree(t, src, map[string][]byte{"a/IMG_0001.jpeg": photo(2020, 6, 6, 10, "y")})
	sortTree(t, []string{src}, dst)
	got := snapshot(t, dst)
	if _, ok := got["2019/2019-01-01/IMG_0001.JPG"]; !ok {
		t.Errorf("library = %v", keys(got))
	}
	if _, ok := got["2020/2020-06-06/IMG_0001.jpeg"]; !ok {
		t.Errorf("library = %v", keys(got))
	}
}

func TestTakeoutPhotoWithoutExifTakesItsJSONDate(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "Takeout/Google Photos/Trip"), filepath.Join(root, "lib")
	stripped := stripDates(fixture.JPEG(fixture.EXIF{}))
	tree(t, src, map[string][]byte{
		"beach.jpg": stripped,
		// 1562252400 is 2019-07-04 15:00:00 UTC; the test runs with video/UTC times in UTC.
		"beach.jpg.supplemental-metadata.json": []byte(`{"title":"beach.jpg","photoTakenTime":{"timestamp":"1562252400","formatted":"4 Jul 2019, 15:00:00 UTC"}}`),
	})
	sortTree(t, []string{src}, dst)
	got := snapshot(t, dst)
	for _, want := range []string{"2019/2019-07-04/beach.jpg", "2019/2019-07-04/beach.jpg.supplemental-metadata.json"} {
		if _, ok := got[want]; !ok {
			t.Errorf("missing %s; library = %v", want, keys(got))
		}
	}
}

// Phones store video times in UTC. An evening video must land on the day
// it was shot in the zone it was shot in, not on the next day.
func TestEveningVideoLandsOnItsLocalDay(t *testing.T) {
	newYork, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skipf("no time zone database: %v", err)
	}
	root := t.TempDir()
	src, dst := filepath.Join(root, "phone"), filepath.Join(root, "lib")
	// 2019-07-05 03:30 UTC is 23:30 on July 4th in New York (EDT, -04:00).
	tree(t, src, map[string][]byte{"VID_0001.MOV": fixture.MOV(time.Date(2019, 7, 5, 3, 30, 0, 0, time.UTC))})
	sortTree(t, []string{src}, dst, func(c *Config) { c.VideoTZ = newYork })
	if _, ok := snapshot(t, dst)["2019/2019-07-04/VID_0001.MOV"]; !ok {
		t.Errorf("library = %v, want the video on 2019-07-04", keys(snapshot(t, dst)))
	}
}

// A Live Photo's video carries UTC, its still the local time and offset:
// they pair by instant and the video files under the still's local day,
// whatever zone the machine sorting them is in.
func TestLivePhotoVideoTakesItsStillsLocalDay(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "phone"), filepath.Join(root, "lib")
	still := fixture.JPEG(fixture.EXIF{When: time.Date(2019, 7, 4, 23, 29, 58, 0, time.UTC), Offset: "-04:00",
		Camera: fixture.Camera{Make: "Apple", Model: "iPhone 12"}})
	tree(t, src, map[string][]byte{
		"IMG_0001.JPG": still,
		"IMG_0001.MOV": fixture.MOV(time.Date(2019, 7, 5, 3, 30, 0, 0, time.UTC)),
	})
	sortTree(t, []string{src}, dst) // VideoTZ is UTC here: the video alone would file under July 5th
	got := snapshot(t, dst)
	for _, want := range []string{"2019/2019-07-04/IMG_0001.JPG", "2019/2019-07-04/IMG_0001.MOV"} {
		if _, ok := got[want]; !ok {
			t.Errorf("missing %s; library = %v", want, keys(got))
		}
	}
}

func TestGroupStemOfSidecarNames(t *testing.T) {
	for name, want := range map[string]string{
		"IMG_1.CR2":                               "IMG_1",
		"IMG_1.xmp":                               "IMG_1",
		"IMG_1.CR2.xmp":                           "IMG_1",
		"IMG_1.jpg.supplemental-metadata.json":    "IMG_1",
		"IMG_20190704_153000123.jp.json":          "IMG_20190704_153000123", // Takeout clipped the name
		"IMG_1.HEIC.json":                         "IMG_1",
		"notes.json":                              "notes",
		"archive.tar.json":                        "archive.tar",
		".hidden.xmp":                             ".hidden",
		"IMG_1-edited.JPG":                        "IMG_1-edited", // a name like any other here (groupStemOf: in a Takeout)
		"-edited.jpg":                             "-edited",
		"image.jpg(1).json":                       "image(1)", // Takeout moves a duplicate's counter behind the name
		"image.jpg.supplemental-metadata(2).json": "image(2)",
		"PXL_20230704_153000123.jpg.supplemental-metad.json": "PXL_20230704_153000123", // clipped at 46 bytes
		"PXL_20230704_153000123.jpg.s.json":                  "PXL_20230704_153000123",
		"IMG_1.supplemental-metadata.json":                   "IMG_1", // a photo with no extension
		"notes.supplemental.json":                            "notes.supplemental",
		"notes(1).json":                                      "notes(1)",
		"(1).json":                                           "(1)",
	} {
		if got := groupStem(name); got != want {
			t.Errorf("groupStem(%q) = %q, want %q", name, got, want)
		}
	}
}

// In a Takeout an edited copy groups under its original's stem, which
// Takeout names its JSON after; elsewhere it keeps its own, and so its own
// sidecars (IMG_1-edited.xmp).
func TestGroupStemOfEditedCopies(t *testing.T) {
	takeout := filepath.Join("dl", "Takeout", "Google Photos", "Photos from 2019")
	for path, want := range map[string]string{
		filepath.Join(takeout, "IMG_1-edited.JPG"):           "IMG_1",
		filepath.Join(takeout, "IMG_1-EDITED.jpg"):           "IMG_1",
		filepath.Join(takeout, "-edited.jpg"):                "-edited",
		filepath.Join(takeout, "IMG_1.JPG"):                  "IMG_1",
		filepath.Join("card", "IMG_1-edited.JPG"):            "IMG_1-edited",
		filepath.Join("card", "IMG_1-edited.xmp"):            "IMG_1-edited",
		filepath.Join("dl", "Google Photos", "x-edited.png"): "x",
	} {
		if got := groupStemOf(path); got != want {
			t.Errorf("groupStemOf(%q) = %q, want %q", path, got, want)
		}
	}
}

// A companion follows its leader keeping the rest of its name, and a
// numbered Takeout JSON follows as the name every tool reads as its
// photo's (image(1).jpg.json, not image(1).jpg(1).json).
func TestSuffixAfterStem(t *testing.T) {
	for name, want := range map[string]string{
		"IMG_1.CR2.xmp":                           ".CR2.xmp",
		"IMG_1.xmp":                               ".xmp",
		"IMG_1.jpg.supplemental-metadata.json":    ".jpg.supplemental-metadata.json",
		"image.jpg(1).json":                       ".jpg.json",
		"image.jpg.supplemental-metadata(2).json": ".jpg.supplemental-metadata.json",
		"IMG_1-edited.JPG":                        ".JPG",
		filepath.Join("Takeout", "Google Photos", "Trip", "IMG_1-edited.JPG"): "-edited.JPG",
		"IMG_1.MOV":     ".MOV",
		"notes(1).json": ".json",
	} {
		if got := suffixAfterStem(name); got != want {
			t.Errorf("suffixAfterStem(%q) = %q, want %q", name, got, want)
		}
	}
}

// Every name splits into a stem and suffix without panicking, and,
// Takeout's numbered JSON aside, the two make the name.
func FuzzSplitCompanion(f *testing.F) {
	for _, seed := range []string{"IMG_1.CR2.xmp", "image.jpg(1).json", "a.jpg.s(12).json", "(1).json", ".json", "x-edited", "-edited.jpg"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, base string) {
		stem, suffix := splitCompanion(base)
		if !takeoutCounter.MatchString(stem) && stem+suffix != base {
			t.Fatalf("splitCompanion(%q) = %q + %q", base, stem, suffix)
		}
	})
}

// The halves of a Live Photo that an export renamed apart still land side
// by side under the still's name: they share Apple's ContentIdentifier.
func TestLivePhotoHalvesWithDifferentNamesPairByContentIdentifier(t *testing.T) {
	const cid = "1EA799FF-8384-4BC4-87AA-139A814D9125"
	root := t.TempDir()
	src, dst := filepath.Join(root, "export"), filepath.Join(root, "lib")
	when := time.Date(2020, 4, 17, 10, 3, 47, 0, time.UTC)
	tree(t, src, map[string][]byte{
		"IMG_3578.JPG":   fixture.JPEG(fixture.EXIF{When: when, Camera: fixture.Camera{Make: "Apple", Model: "iPhone XR"}, ContentID: cid}),
		"IMG_3578_1.MOV": fixture.LiveMOV(when.Add(time.Second), cid),
		// Same content id elsewhere does not count: another folder is another export.
		"other/IMG_9.MOV": fixture.LiveMOV(when.Add(time.Hour), cid),
	})
	sortTree(t, []string{src}, dst)
	got := snapshot(t, dst)
	for _, want := range []string{"2020/2020-04-17/IMG_3578.JPG", "2020/2020-04-17/IMG_3578.MOV", "2020/2020-04-17/IMG_9.MOV"} {
		if _, ok := got[want]; !ok {
			t.Errorf("missing %s; library = %v", want, keys(got))
		}
	}
	if len(got) != 3 {
		t.Errorf("library = %v", keys(got))
	}
}

// A real Canon RAW and the JPEG the camera wrote beside it are one shot:
// when the RAW's name is taken in the library, both move to -1 together.
func TestRawPlusJpegMoveTogetherThroughAConflict(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "meta", "testdata", "CanonRaw.cr2"))
	if err != nil {
		t.Fatal(err)
	}
	info := meta.NewReader(meta.Options{}).Bytes("CanonRaw.cr2", raw, time.Now())
	if info.Date.Source != meta.SourceEXIF {
		t.Fatalf("the test RAW should carry an EXIF date, got %+v", info.Date)
	}
	when := info.Date.Wall
	day := when.Format("2006/2006-01-02/")
	root := t.TempDir()
	src, dst := filepath.Join(root, "card"), filepath.Join(root, "lib")
	tree(t, src, map[string][]byte{
		"IMG_0001.CR2": raw,
		"IMG_0001.JPG": fixture.JPEG(fixture.EXIF{When: when, Camera: fixture.Camera{Make: "Canon", Model: info.Model}}),
	})
	tree(t, dst, map[string][]byte{day + "IMG_0001.CR2": []byte("an older raw that happens to share the name")})
	sortTree(t, []string{src}, dst, func(c *Config) { c.Dedup = false })
	got := snapshot(t, dst)
	for _, want := range []string{day + "IMG_0001-1.CR2", day + "IMG_0001-1.JPG"} {
		if _, ok := got[want]; !ok {
			t.Errorf("missing %s; library = %v", want, keys(got))
		}
	}
}

// undatedPNG is a real, minimal PNG (one pixel) that carries no date.
func undatedPNG() []byte {
	return []byte("\x89PNG\r\n\x1a\n" +
		"\x00\x00\x00\x0dIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x00\x00\x00\x00\x3a\x7e\x9b\x55" +
		"\x00\x00\x00\x0aIDAT\x78\x9c\x63\x60\x00\x00\x00\x02\x00\x01\xe5\x27\xde\xfc" +
		"\x00\x00\x00\x00IEND\xae\x42\x60\x82")
}

// eventFor is the op event of the file src.
func eventFor(t *testing.T, rec *recorder, src string) Event {
	t.Helper()
	for _, ev := range rec.events {
		if ev.Type == "op" && ev.Src == src {
			return ev
		}
	}
	t.Fatalf("no op event for %s", src)
	return Event{}
}

// An undated file beside a dated one of the same stem is not its pair
// (only RAW+JPEG and a Live Photo's still and video are): it keeps its own
// date (here its mtime) and its record names its own source, not the
// other file's tag.
func TestUndatedSameStemFileKeepsItsOwnDate(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "card"), filepath.Join(root, "lib")
	tree(t, src, map[string][]byte{
		"x.jpg":  photo(2019, 7, 4, 15, "dated"),
		"x.png":  undatedPNG(),
		"y.JPG":  photo(2019, 7, 4, 16, "dated"),
		"y.jpeg": fixture.JPEG(fixture.EXIF{Comment: "no exif date"}),
		"c.MOV":  fixture.MOV(time.Date(2019, 7, 4, 17, 0, 0, 0, time.UTC)),
		"c.mp4":  fixture.MOV(time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)),
	})
	mtime := time.Date(2007, 3, 3, 12, 0, 0, 0, time.Local)
	for _, n := range []string{"x.png", "y.jpeg", "c.mp4"} {
		if err := os.Chtimes(filepath.Join(src, n), mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	_, rec := sortTree(t, []string{src}, dst, func(c *Config) { c.Dedup = false })
	got := snapshot(t, dst)
	for _, want := range []string{"2019/2019-07-04/x.jpg", "2007/2007-03-03/x.png", "2019/2019-07-04/y.JPG",
		"2007/2007-03-03/y.jpeg", "2019/2019-07-04/c.MOV", "2007/2007-03-03/c.mp4"} {
		if _, ok := got[want]; !ok {
			t.Errorf("missing %s; library = %v", want, keys(got))
		}
	}
	for _, n := range []string{"x.png", "y.jpeg", "c.mp4"} {
		if ev := eventFor(t, rec, filepath.Join(src, n)); ev.DateSource != "mtime" || ev.DateTag != "File:ModifyDate" {
			t.Errorf("%s: recorded as dated by %s %q, want its own mtime", n, ev.DateSource, ev.DateTag)
		}
	}
}

// The undated video of a Live Photo does take its still's date, and its
// record says the date is the still's.
func TestLivePhotoVideoRecordNamesTheStillsDate(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "card"), filepath.Join(root, "lib")
	tree(t, src, map[string][]byte{
		"IMG_1.JPG": photo(2019, 7, 4, 15, "still"),
		"IMG_1.MOV": fixture.MOV(time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)), // mvhd 0: no date of its own
	})
	_, rec := sortTree(t, []string{src}, dst)
	got := snapshot(t, dst)
	if _, ok := got["2019/2019-07-04/IMG_1.MOV"]; !ok {
		t.Fatalf("the video did not follow its still; library = %v", keys(got))
	}
	if ev := eventFor(t, rec, filepath.Join(src, "IMG_1.MOV")); ev.DateTag != "IMG_1.JPG ExifIFD:DateTimeOriginal" {
		t.Errorf("video recorded with date tag %q, want the still's named", ev.DateTag)
	}
	if ev := eventFor(t, rec, filepath.Join(src, "IMG_1.JPG")); ev.DateTag != "ExifIFD:DateTimeOriginal" {
		t.Errorf("still recorded with date tag %q", ev.DateTag)
	}
}
