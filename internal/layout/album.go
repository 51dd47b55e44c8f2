package layout

import (
	"path/filepath"
	"regexp"
	"strings"
)

// Google Takeout puts a photo library under "Takeout/Google Photos/": one
// folder per album (named by the user) and one per year for the photos in
// no album ("Photos from 2019"; both names are translated in the user's
// language). A photo in an album is there and in its year folder, byte
// for byte. {album} names the album folder a source file is in, at any
// depth below the "Google Photos" folder, in a folder or inside a Takeout
// archive (whose members are paths below the archive's own path).

// takeoutRoots are the names Takeout gives its Google Photos folder.
var takeoutRoots = map[string]bool{"google photos": true, "google fotos": true, "google foto": true}

// yearFolder matches Takeout's folders of the photos in no album:
// "Photos from 2019", "Fotos von 2019", "Photos de 2019", "Foto del 2019".
var yearFolder = regexp.MustCompile(`(?i)^(photos|fotos|foto|zdjęcia)( [\p{L}]+){1,2} (1[89]|2\d)\d\d$`)

// TakeoutAlbum is the Takeout album folder that dir (a source file's
// folder) lies in: the folder right below "Google Photos", unless it is a
// year folder. "" when dir is in no album.
func TakeoutAlbum(dir string) string {
	parts := strings.FieldsFunc(filepath.ToSlash(dir), func(r rune) bool { return r == '/' })
	for i := len(parts) - 2; i >= 0; i-- {
		if takeoutRoots[strings.ToLower(parts[i])] {
			if album := parts[i+1]; !yearFolder.MatchString(album) {
				return album
			}
			return ""
		}
	}
	return ""
}

// InTakeout reports whether dir lies in a Takeout's Google Photos folder
// (at any depth), where Takeout's own naming rules hold: an edited copy
// IMG_1-edited.jpg, which has no JSON of its own, is its original's.
func InTakeout(dir string) bool {
	for _, part := range strings.FieldsFunc(filepath.ToSlash(dir), func(r rune) bool { return r == '/' }) {
		if takeoutRoots[strings.ToLower(part)] {
			return true
		}
	}
	return false
}
