package layout

import (
	"path/filepath"
	"testing"
	"time"
)

func TestTakeoutAlbum(t *testing.T) {
	cases := map[string]string{
		"/home/me/Takeout/Google Photos/Trip to Rome":                "Trip to Rome",
		"/dl/takeout-001.zip/Takeout/Google Photos/Trip":             "Trip",
		"/dl/takeout-001.zip/Takeout/Google Photos/Photos from 2019": "",
		"/dl/Takeout/Google Fotos/Fotos von 2021":                    "",
		"/dl/Takeout/Google Photos/Photos de 2020":                   "",
		"/dl/Takeout/google photos/Urlaub":                           "Urlaub",
		"/dl/Takeout/Google Photos/Trip/nested":                      "Trip",
		"/dl/Takeout/Google Photos/Photos from 2019 and friends":     "Photos from 2019 and friends",
		"/card/DCIM/100CANON":                                        "",
		"/dl/Takeout/Google Photos":                                  "",
		"/a/Google Photos/Trip/Google Photos/Inner":                  "Inner",
		"": "",
	}
	if filepath.Separator == '\\' {
		cases[`C:\Users\me\Takeout\Google Photos\Wedding`] = "Wedding"
	}
	for dir, want := range cases {
		if got := TakeoutAlbum(dir); got != want {
			t.Errorf("TakeoutAlbum(%q) = %q, want %q", dir, got, want)
		}
	}
}

// {album} names the album folder, made safe as every segment is, and
// "unknown" outside an album.
func TestAlbumToken(t *testing.T) {
	tmpl, err := Parse("{album:lower}/{name}{ext}")
	if err != nil {
		t.Fatal(err)
	}
	when := time.Date(2019, 7, 4, 15, 30, 0, 0, time.UTC)
	for dir, want := range map[string]string{
		"/t/Takeout/Google Photos/Trip: Rome?":      "trip_ rome_",
		"/t/Takeout/Google Photos/Photos from 2019": "unknown",
		"/card/DCIM": "unknown",
	} {
		got, _ := tmpl.Expand(Fields{Time: when, Name: "IMG_1", Ext: ".JPG", Dir: dir, Root: "/t"})
		if got != want {
			t.Errorf("{album:lower} in %q = %q, want %q", dir, got, want)
		}
	}
}

// The title from the album's metadata.json wins over the folder's name,
// made safe as every segment is; it never makes an album of a folder
// that is none.
func TestAlbumTitleToken(t *testing.T) {
	tmpl, err := Parse("{album}/{name}{ext}")
	if err != nil {
		t.Fatal(err)
	}
	when := time.Date(2019, 7, 4, 15, 30, 0, 0, time.UTC)
	for _, c := range []struct{ dir, title, want string }{
		{"/t/Takeout/Google Photos/Rome_ day 1_2", "Rome: day 1/2", "Rome_ day 1_2"},
		{"/t/Takeout/Google Photos/Sommer", "Sommer 2019", "Sommer 2019"},
		{"/t/Takeout/Google Photos/x", "..", "_"},
		{"/t/Takeout/Google Photos/x", ".shoebox", "_.shoebox"},
		{"/t/Takeout/Google Photos/Photos from 2019", "Trip", "unknown"},
		{"/card/DCIM", "Trip", "unknown"},
	} {
		got, _ := tmpl.Expand(Fields{Time: when, Name: "IMG_1", Ext: ".JPG", Dir: c.dir, Root: "/t", Album: c.title})
		if got != c.want {
			t.Errorf("{album} in %q titled %q = %q, want %q", c.dir, c.title, got, c.want)
		}
	}
}
