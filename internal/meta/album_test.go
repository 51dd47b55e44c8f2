package meta

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Only an album's metadata JSON gives a title: a photo's JSON (which has a
// title too, its file name) does not, nor anything that is not such JSON.
func TestAlbumTitle(t *testing.T) {
	cases := map[string]string{
		`{"title":"Rome: day 1/2","description":"","access":"protected","date":{"timestamp":"1562247000"}}`: "Rome: day 1/2",
		"\xef\xbb\xbf  {\"title\":\"  Été  \"}":                                                             "Été",
		`{"title":"IMG_1.JPG","photoTakenTime":{"timestamp":"1562247000"}}`:                                 "",
		`{"title":""}`:        "",
		`{"title":null}`:      "",
		`{"description":"x"}`: "",
		`{"title":1}`:         "",
		`["title"]`:           "",
		`<x:xmpmeta/>`:        "",
		`{"title":"\ud800"}`:  "\ufffd", // a lone surrogate decodes to U+FFFD
		`{"title":"` + strings.Repeat("a", 256) + `"}`: "",
	}
	dir := t.TempDir()
	for body, want := range cases {
		p := filepath.Join(dir, "metadata.json")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		got, ok := AlbumTitle(p, int64(len(body)))
		if got != want || ok != (want != "") {
			t.Errorf("AlbumTitle(%q) = %q, %v; want %q", body, got, ok, want)
		}
	}
	if _, ok := AlbumTitle(filepath.Join(dir, "missing.json"), 10); ok {
		t.Error("a missing file gave a title")
	}
	if _, ok := AlbumTitle(filepath.Join(dir, "metadata.json"), maxSidecarBytes+1); ok {
		t.Error("a file over the sidecar bound was read")
	}
}

func FuzzAlbumTitle(f *testing.F) {
	f.Add([]byte(`{"title":"Trip"}`))
	f.Add([]byte(`{"title":"IMG_1.JPG","photoTakenTime":{"timestamp":"1"}}`))
	f.Add([]byte("\xef\xbb\xbf{\"title\":\"\\u0000/..\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		title, ok := albumTitle(data)
		if ok && (title == "" || len(title) > maxAlbumTitle) {
			t.Fatalf("albumTitle gave %q", title)
		}
	})
}
