package scan

import "strings"

// clutter are names that operating systems and NAS boxes leave in photo
// folders; none of them is ever a photo the user took.
var clutter = []string{
	"Thumbs.db",
	"desktop.ini",
	"@eaDir",
	"$RECYCLE.BIN",
	"System Volume Information",
}

// IsClutter reports whether a name is skipped unless Options.Hidden: names
// starting with "." (which covers .DS_Store, .Trashes, .Spotlight-V100,
// .fseventsd and ._* AppleDouble files) and the system clutter above,
// matched case-insensitively because they come from case-insensitive
// filesystems.
func IsClutter(name string) bool {
	if strings.HasPrefix(name, ".") {
		return true
	}
	for _, c := range clutter {
		if strings.EqualFold(name, c) {
			return true
		}
	}
	return false
}
