package pipeline

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/meta"
)

// A Decider deciding every file of a folder in turn (relayout's use, with
// its folder listed once and each file read once) makes, for each, the
// decision DecideWith makes for that file alone: sidecars, a RAW+JPEG
// pair, Live Photo halves of other stems, one identifier on two stills,
// a text file named like a photo, an empty file, a hidden file.
func TestDeciderDecidesAsDecideWith(t *testing.T) {
	when := time.Date(2019, 7, 4, 15, 0, 0, 0, time.UTC)
	iphone := fixture.Camera{Make: "Apple", Model: "iPhone XR"}
	still := func(at time.Time, cid, comment string) []byte {
		return fixture.JPEG(fixture.EXIF{When: at, Camera: iphone, ContentID: cid, Comment: comment})
	}
	const live, edited = "1EA799FF-8384-4BC4-87AA-000000000004", "1EA799FF-8384-4BC4-87AA-000000000001"
	dir := t.TempDir()
	tree(t, dir, map[string][]byte{
		"IMG_1.JPG":      photo(2020, 5, 6, 7, "one"),
		"IMG_1.xmp":      []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"/>`),
		"IMG_1.JPG.json": []byte(`{"photoTakenTime":{"timestamp":"1588748400"}}`),
		"PAIR.JPG":       photo(2020, 5, 7, 7, "pair"),
		"PAIR.DNG":       append([]byte("II*\x00"), make([]byte, 4000)...),
		"IMG_3578.JPG":   still(when, live, ""),
		"IMG_3578_1.MOV": fixture.LiveMOV(when.Add(time.Second), live),
		"IMG_2927.JPG":   still(when, edited, "original"),
		"IMG_E2927.jpg":  still(when, edited, "edited"),
		"notes.jpg":      []byte("just text, named like a photo"),
		"empty.jpg":      nil,
		".hidden.jpg":    photo(2021, 1, 1, 1, "hidden"),
		"orphan.xmp":     []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"/>`),
	})
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, hidden := range []bool{false, true} {
		d := NewDecider(meta.Options{VideoTZ: time.UTC}, DecideOptions{Hidden: hidden})
		for _, e := range ents {
			p := filepath.Join(dir, e.Name())
			got, errGot := d.Decide(p)
			want, errWant := DecideWith(p, meta.Options{VideoTZ: time.UTC}, DecideOptions{Hidden: hidden})
			if (errGot == nil) != (errWant == nil) || !reflect.DeepEqual(got, want) {
				t.Errorf("hidden=%v %s: the Decider decides\n%+v (%v)\nDecideWith\n%+v (%v)", hidden, e.Name(), got, errGot, want, errWant)
			}
		}
	}
}
