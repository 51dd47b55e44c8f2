package pipeline

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/meta"
)

// A group is one unit: whatever the template does to its leader's name
// (a counter, :lower or :upper on {name} or {ext}, literals), it does to
// every member, sidecars and the other half of a pair included, so that
// IMG_1.JPG's video and edits land as 0001.mov and 0001.aae beside
// 0001.jpg, not as 0001.MOV and 0001.AAE.
func TestEveryNameTransformAppliesToEveryMemberOfAGroup(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "meta", "testdata", "CanonRaw.cr2"))
	if err != nil {
		t.Fatal(err)
	}
	rawDate := meta.NewReader(meta.Options{}).Bytes("CanonRaw.cr2", raw, time.Now()).Date.Wall
	rawYear := rawDate.Format("2006")
	when := time.Date(2019, 7, 4, 15, 0, 0, 0, time.UTC)
	xmp := []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="5"/></rdf:RDF></x:xmpmeta>`)
	aae := []byte(`<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>adjustmentFormatVersion</key><string>1.4</string></dict></plist>`)
	files := map[string][]byte{
		// A Live Photo with its edits and an XMP: four names, one shot.
		"live/IMG_1.JPG":     fixture.JPEG(fixture.EXIF{When: when, Camera: fixture.Camera{Make: "Apple", Model: "iPhone XR"}}),
		"live/IMG_1.mov":     fixture.MOV(when.Add(time.Second)),
		"live/IMG_1.AAE":     aae,
		"live/IMG_1.jpg.xmp": xmp,
		// A RAW and the JPEG the camera wrote beside it.
		"raw/IMG_0001.CR2": raw,
		"raw/IMG_0001.jpg": fixture.JPEG(fixture.EXIF{When: rawDate, Camera: fixture.Camera{Make: "Canon", Model: "EOS"}}),
	}
	for _, c := range []struct {
		template string
		want     []string
	}{
		{"{year}/{counter:4}{ext:lower}", []string{
			"2019/0001.jpg", "2019/0001.mov", "2019/0001.aae", "2019/0001.jpg.xmp",
			rawYear + "/0001.cr2", rawYear + "/0001.jpg"}},
		{"{year}/{name:lower}{ext:upper}", []string{
			"2019/img_1.JPG", "2019/img_1.MOV", "2019/img_1.AAE", "2019/img_1.JPG.XMP",
			rawYear + "/img_0001.CR2", rawYear + "/img_0001.JPG"}},
		{"{year}/{yy}_{counter:2}_{name:upper}{ext}", []string{
			"2019/19_01_IMG_1.JPG", "2019/19_01_IMG_1.mov", "2019/19_01_IMG_1.AAE", "2019/19_01_IMG_1.jpg.xmp",
			rawYear + "/" + rawYear[2:] + "_01_IMG_0001.CR2", rawYear + "/" + rawYear[2:] + "_01_IMG_0001.jpg"}},
	} {
		t.Run(c.template, func(t *testing.T) {
			root := t.TempDir()
			src, dst := filepath.Join(root, "card"), filepath.Join(root, "lib")
			tree(t, src, files)
			tmpl, err := layout.Parse(c.template)
			if err != nil {
				t.Fatal(err)
			}
			sortTree(t, []string{src}, dst, func(cfg *Config) { cfg.Template = tmpl })
			got := keys(snapshot(t, dst))
			want := append([]string(nil), c.want...)
			sort.Strings(got)
			sort.Strings(want)
			if len(got) != len(want) {
				t.Fatalf("library = %v, want %v", got, want)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("library = %v, want %v", got, want)
					break
				}
			}
		})
	}
}
