package pipeline

import (
	"path/filepath"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/archive"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/scan"
)

// albumTitles are the titles of the Takeout albums met in the sources, by
// the folder they are grouped under (seriesDir: an album's metadata.json
// may be in another part of the export than its photos). An export has
// a few hundred albums at most, so the map stays small however many
// files there are.
type albumTitles map[string]albumJSON

// albumJSON is the file an album's title was read from, and the title.
type albumJSON struct{ path, title string }

// albumTitleOf reads the album title from f when f may be a Takeout
// album's metadata JSON: a .json file right in an album folder whose name
// is not a photo's sidecar name. "" for any other file. set holds f when
// f is an archive member.
func albumTitleOf(f scan.File, set *archive.Set) string {
	if !mayBeAlbumJSON(f.Path) {
		return ""
	}
	if m, inside := set.Lookup(f.Path); inside {
		if m == nil {
			return ""
		}
		src := m.OpenReaderAt()
		defer src.Close()
		title, _ := meta.AlbumTitleAt(f.Path, src, f.Size)
		return title
	}
	title, _ := meta.AlbumTitle(f.Path, f.Size)
	return title
}

// mayBeAlbumJSON: Takeout names it metadata.json (translated in newer
// exports: Metadaten.json, métadonnées.json …), so the name is not
// trusted, only that it is no photo's JSON and lies right in an album
// folder. Whether a JSON is a photo's is grouping's rule (splitCompanion):
// one that names no photo (IMG_1.JPG.json, a clipped IMG_1.j.json,
// IMG_1.JPG.supplemental-metadata.json) follows its group as plain
// ".json". The content decides (meta.AlbumTitle).
func mayBeAlbumJSON(path string) bool {
	dir, base := filepath.Split(path)
	if _, suffix := splitCompanion(base); !strings.EqualFold(suffix, ".json") {
		return false
	}
	folder := filepath.Clean(dir)
	album := layout.TakeoutAlbum(folder)
	return album != "" && album == filepath.Base(folder)
}

// note records fi's album title, if it carries one. Two titles for one
// folder (metadata.json and a stray JSON) are settled the same way
// whatever order the meta workers finish in: the file named
// metadata.json, else the first path. false: a title is dropped, as
// maxAlbums are kept already.
func (a *albumTitles) note(fi fileInfo) bool {
	if fi.albumTitle == "" {
		return true
	}
	dir, _ := filepath.Split(fi.File.Path)
	key := seriesDir(fi.File, dir)
	cand := albumJSON{path: fi.File.Path, title: fi.albumTitle}
	if *a == nil {
		*a = albumTitles{}
	}
	old, ok := (*a)[key]
	switch {
	case !ok && len(*a) >= maxAlbums:
		return false
	case !ok || preferAlbumJSON(cand.path, old.path):
		(*a)[key] = cand
	}
	return true
}

// maxAlbums bounds the titles a run keeps (Google Photos allows 20,000
// albums an account): sources crafted with a million album folders cannot
// grow the map without bound. Past it, albums are named by their folders.
const maxAlbums = 20000

func preferAlbumJSON(p, than string) bool {
	pm, tm := strings.EqualFold(filepath.Base(p), "metadata.json"), strings.EqualFold(filepath.Base(than), "metadata.json")
	if pm != tm {
		return pm
	}
	return p < than
}

// of is the album title for the file at src (f gives its device and
// source root, which seriesDir needs); "" when its folder has none.
func (a albumTitles) of(src string, f scan.File) string {
	if len(a) == 0 {
		return ""
	}
	dir, _ := filepath.Split(src)
	return a[seriesDir(f, dir)].title
}

func cutSuffixFold(s, suffix string) (string, bool) {
	if hasSuffixFold(s, suffix) {
		return s[:len(s)-len(suffix)], true
	}
	return s, false
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// holds reports whether f is the file its folder's album title was read
// from.
func (a albumTitles) holds(f scan.File) bool {
	dir, _ := filepath.Split(f.Path)
	t, ok := a[seriesDir(f, dir)]
	return ok && t.path == f.Path
}

// orphanReason is why a sidecar that goes with no photo or video stays
// where it is; a Takeout album's metadata JSON is one by design, and says
// what it is for.
func orphanReason(albumJSON bool) string {
	if albumJSON {
		return "a Takeout album's description, whose title {album} uses: left in place"
	}
	return "sidecar without its photo or video in the same folder: left in place"
}
