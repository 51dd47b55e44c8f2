package meta

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"unicode/utf8"
)

// maxAlbumTitle bounds the album title taken from a Takeout album's
// metadata.json, in bytes: a folder name is at most 255 bytes anyway, and
// the template shortens what it must.
const maxAlbumTitle = 255

// takeoutAlbumJSON is what Takeout writes into each album folder as
// metadata.json (localized in newer exports: Metadaten.json,
// métadonnées.json …): the album's title as the user typed it, which the
// folder's name spells only approximately (Takeout replaces characters a
// file system refuses, and clips long names). A photo's own JSON has a
// title too (its file name) but also a photoTakenTime.
type takeoutAlbumJSON struct {
	Title          *string         `json:"title"`
	PhotoTakenTime json.RawMessage `json:"photoTakenTime"`
}

// AlbumTitle reads the album title from a Takeout album's metadata JSON
// at path. ok is false for any other file (a photo's JSON, no title, not
// JSON, over 1 MiB) or a title that is empty or not text.
func AlbumTitle(path string, size int64) (title string, ok bool) {
	if size > maxSidecarBytes {
		return "", false
	}
	data, err := readSidecar(path, size)
	if err != nil {
		return "", false
	}
	return albumTitle(data)
}

// AlbumTitleAt is AlbumTitle for a file whose bytes src gives (an
// archive member).
func AlbumTitleAt(path string, src io.ReaderAt, size int64) (string, bool) {
	if size > maxSidecarBytes {
		return "", false
	}
	data, err := readSidecarAt(path, src, size)
	if err != nil {
		return "", false
	}
	return albumTitle(data)
}

func albumTitle(data []byte) (string, bool) {
	data = bytes.TrimLeft(data, "\xef\xbb\xbf \t\r\n")
	var doc takeoutAlbumJSON
	if len(data) == 0 || data[0] != '{' || json.Unmarshal(data, &doc) != nil {
		return "", false
	}
	if doc.Title == nil || doc.PhotoTakenTime != nil {
		return "", false
	}
	title := strings.TrimSpace(*doc.Title)
	if title == "" || !utf8.ValidString(title) || len(title) > maxAlbumTitle {
		return "", false
	}
	return title, true
}
