package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestExplainShowsFormatSources: explain names the field each newly read
// format was dated by (generated files, see meta/testdata/gen/gen.sh), and
// the fallback for the formats that carry no date (with --mtime: a file
// fresh from a checkout has a copy's mtime, which is not trusted by default).
func TestExplainShowsFormatSources(t *testing.T) {
	gen := filepath.Join("..", "meta", "testdata", "gen")
	for file, want := range map[string]string{
		"bigtiff-le.btf":        "IFD0:ModifyDate",
		"raw-iiq.iiq":           "ExifIFD:DateTimeOriginal",
		"raw-3fr.3fr":           "ExifIFD:DateTimeOriginal",
		"raw-xmp-mos.mos":       "XMP-xmp:CreateDate",
		"dng-xmp.dng":           "XMP-exif:DateTimeOriginal",
		"heic-xmp.heic":         "XMP-exif:DateTimeOriginal",
		"psd-exif.psd":          "ExifIFD:DateTimeOriginal",
		"psd-xmp.psd":           "XMP-xmp:CreateDate",
		"psd-iptc.psd":          "IPTC:DateCreated",
		"gif-xmp.gif":           "XMP-xmp:CreateDate",
		"jxl-exif.jxl":          "ExifIFD:DateTimeOriginal",
		"jxl-xmp.jxl":           "XMP-xmp:CreateDate",
		"flv-dated.flv":         "Flash:CreateDate",
		"xmp-extended-2001.jpg": "XMP-exif:DateTimeOriginal",
		"avif-xmp.avif":         "XMP-xmp:CreateDate",
		"mpeg-ps.mpg":           "File:ModifyDate",
		"bmp-plain.bmp":         "File:ModifyDate",
	} {
		r := shoebox("explain", "--mtime", filepath.Join(gen, file))
		if r.code != ExitOK {
			t.Fatalf("explain %s: %s", file, r)
		}
		if !strings.Contains(r.stdout, "from "+want+" (") {
			t.Errorf("explain %s does not say it is dated from %s:\n%s", file, want, r.stdout)
		}
	}
}
