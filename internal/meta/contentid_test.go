package meta

import (
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
)

func TestContentIdentifierOfBothLivePhotoHalves(t *testing.T) {
	const cid = "1EA799FF-8384-4BC4-87AA-139A814D9125"
	when := time.Date(2020, 4, 17, 16, 3, 47, 0, time.UTC)
	r := NewReader(Options{VideoTZ: time.UTC})
	a := r.Bytes("IMG_1.JPG", fixture.JPEG(fixture.EXIF{When: when, Camera: fixture.Camera{Make: "Apple", Model: "iPhone XR"}, ContentID: cid}), when)
	b := r.Bytes("IMG_1.MOV", fixture.LiveMOV(when, cid), when)
	// The still keeps it in an Apple maker note, the video in QuickTime keys.
	if a.ContentID != cid || b.ContentID != cid {
		t.Fatal("content id not read")
	}
}
