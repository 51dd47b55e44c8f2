package pipeline

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/scan"
)

func albumFile(album, name string) fileInfo {
	p := filepath.Join(string(filepath.Separator)+"t", "Takeout", "Google Photos", album, name)
	return fileInfo{File: scan.File{Path: p, Root: filepath.Dir(p)}, albumTitle: "title of " + album + "/" + name}
}

// Sources crafted with ever more album folders cannot grow the titles
// kept past maxAlbums; a folder already known still takes its preferred
// file's title.
func TestAlbumTitlesAreBounded(t *testing.T) {
	var a albumTitles
	for i := range maxAlbums {
		if !a.note(albumFile(fmt.Sprint(i), "x.json")) {
			t.Fatalf("album %d dropped below the bound", i)
		}
	}
	if a.note(albumFile("one more", "metadata.json")) {
		t.Fatal("an album past the bound was kept")
	}
	if len(a) != maxAlbums {
		t.Fatalf("%d titles kept, want %d", len(a), maxAlbums)
	}
	if !a.note(albumFile("7", "metadata.json")) {
		t.Fatal("a known album's metadata.json was dropped")
	}
	f := albumFile("7", "IMG_1.JPG").File
	if got := a.of(f.Path, f); got != "title of 7/metadata.json" {
		t.Fatalf("album 7 is titled %q, want its metadata.json's title", got)
	}
}

// Which of two title files names a folder does not depend on the order
// the meta workers finish in: metadata.json, else the first path.
func TestAlbumTitleChoiceIsOrderFree(t *testing.T) {
	files := []fileInfo{albumFile("Trip", "b.json"), albumFile("Trip", "Metadata.json"), albumFile("Trip", "a.json")}
	for _, order := range [][]int{{0, 1, 2}, {2, 1, 0}, {1, 0, 2}, {2, 0, 1}} {
		var a albumTitles
		for _, i := range order {
			a.note(files[i])
		}
		f := albumFile("Trip", "IMG_1.JPG").File
		if got := a.of(f.Path, f); got != "title of Trip/Metadata.json" {
			t.Errorf("order %v: title %q", order, got)
		}
		if !a.holds(files[1].File) || a.holds(files[0].File) {
			t.Errorf("order %v: the wrong file is the album's description", order)
		}
	}
	var b albumTitles
	b.note(albumFile("Trip", "b.json"))
	b.note(albumFile("Trip", "a.json"))
	if f := albumFile("Trip", "x").File; b.of(f.Path, f) != "title of Trip/a.json" {
		t.Error("without metadata.json the first path does not win")
	}
}

// Only a JSON right in an album folder, not named as a photo's, may be
// an album's description.
func TestMayBeAlbumJSON(t *testing.T) {
	g := filepath.Join(string(filepath.Separator)+"t", "Takeout", "Google Photos")
	for path, want := range map[string]bool{
		filepath.Join(g, "Trip", "metadata.json"):                         true,
		filepath.Join(g, "Trip", "Metadaten.JSON"):                        true,
		filepath.Join(g, "Trip", "IMG_1.JPG.json"):                        false,
		filepath.Join(g, "Trip", "IMG_1.JPG.supplemental-metadata.json"):  false,
		filepath.Join(g, "Trip", "IMG_1.j.json"):                          false,
		filepath.Join(g, "Trip", ".json"):                                 false,
		filepath.Join(g, "Trip", "metadata.xmp"):                          false,
		filepath.Join(g, "Trip", "day 1", "metadata.json"):                false,
		filepath.Join(g, "Photos from 2019", "metadata.json"):             false,
		filepath.Join(g, "metadata.json"):                                 false,
		filepath.Join(string(filepath.Separator)+"card", "metadata.json"): false,
	} {
		if got := mayBeAlbumJSON(path); got != want {
			t.Errorf("mayBeAlbumJSON(%q) = %v, want %v", path, got, want)
		}
	}
}
