package meta

import (
	"path/filepath"
	"regexp"
	"strings"
)

// Google Takeout names a photo's JSON sidecar after the photo: "NAME.json"
// in older exports, "NAME.supplemental-metadata.json" since 2024. The part
// before ".json" is clipped to 46 bytes (so long names lose the end of
// the suffix, or of the name itself: "Screenshot_2017-07-05-10-05-26.png.supplementa.json"),
// and a duplicate's counter moves behind the clipped part:
// "image(1).jpg" → "image.jpg(1).json". Edited copies ("IMG_1-edited.jpg")
// have no sidecar of their own and share the original's.
const (
	takeoutStemMax   = 46
	takeoutSuffix    = ".supplemental-metadata"
	takeoutEditedTag = "-edited"
)

var duplicateCounter = regexp.MustCompile(`^(.*)\((\d+)\)(\.[^.()]*)?$`)

// SidecarCandidates lists the paths, in the media file's folder, that a
// sidecar of mediaPath could have, most specific first: XMP
// (IMG_1.CR2.xmp, IMG_1.xmp), Apple edits (IMG_1.AAE, IMG_O1.AAE), THM
// thumbnails (IMG_1.THM) and Google Takeout JSON in its plain, supplemental,
// clipped and numbered forms. Upper- and lower-case extensions are both
// listed for filesystems that tell them apart. The media path itself is
// never listed.
func SidecarCandidates(mediaPath string) []string {
	dir, base := filepath.Split(mediaPath)
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	var names []string
	add := func(n ...string) { names = append(names, n...) }
	add(base+".xmp", base+".XMP", stem+".xmp", stem+".XMP")
	add(stem+".AAE", stem+".aae")
	if rest, ok := strings.CutPrefix(stem, "IMG_"); ok {
		add("IMG_O" + rest + ".AAE") // iOS 16+ keeps the original's edits under IMG_O
	}
	add(stem+".THM", stem+".thm")
	add(takeoutNames(base)...)
	if orig, ok := strings.CutSuffix(stem, takeoutEditedTag); ok && orig != "" {
		add(takeoutNames(orig + ext)...)
	}
	add(stem + ".json")
	return uniquePaths(dir, base, names)
}

// takeoutNames lists the Takeout JSON names for a media file named base.
func takeoutNames(base string) []string {
	names := []string{
		clip(base) + ".json",
		clip(base+takeoutSuffix) + ".json",
	}
	if m := duplicateCounter.FindStringSubmatch(base); m != nil && m[1] != "" {
		orig, counter := m[1]+m[3], "("+m[2]+")"
		names = append(names, clip(orig)+counter+".json", clip(orig+takeoutSuffix)+counter+".json")
	}
	return names
}

// clip cuts s to Takeout's 46-byte limit without splitting a UTF-8 rune.
func clip(s string) string {
	if len(s) <= takeoutStemMax {
		return s
	}
	n := takeoutStemMax
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

func uniquePaths(dir, self string, names []string) []string {
	out := make([]string, 0, len(names))
	seen := map[string]bool{self: true}
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, dir+n)
		}
	}
	return out
}
