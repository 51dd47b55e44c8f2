package filter

import (
	"testing"
	"time"
)

func TestMatch(t *testing.T) {
	cases := []struct {
		pattern, rel string
		want         bool
	}{
		{"*.png", "a/b/shot.PNG", true},
		{"Trash", "Trash/IMG_1.JPG", true},
		{"Trash", "old/trash/IMG_1.JPG", true},
		{"Trash", "Trashy/IMG_1.JPG", false},
		{"DCIM/**", "DCIM/100/IMG_1.JPG", true},
		{"DCIM/**", "Other/DCIM/IMG_1.JPG", false},
		{"**/DCIM/**", "Other/DCIM/IMG_1.JPG", true},
		{"**/*.jpg", "IMG_1.JPG", true},
		{"2019/*/IMG_*.jpg", "2019/07/IMG_1.jpg", true},
		{"2019/*/IMG_*.jpg", "2019/07/x/IMG_1.jpg", false},
		{"[", "x", false},
	}
	for _, c := range cases {
		if got := Match(c.pattern, c.rel); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.pattern, c.rel, got, c.want)
		}
	}
	if CheckPattern("a/[b") == nil {
		t.Error("an unclosed [ was not reported")
	}
}

func TestReject(t *testing.T) {
	since, _, _ := ParseDay("2021-03")
	_, until, _ := ParseDay("2021-03-31")
	f := &Filter{Exts: ParseExts("jpg, .HEIC"), Kinds: []string{"photo"}, MaxDepth: 2,
		MinSize: 10, MaxSize: 1 << 20, Since: since, Until: until, Exclude: []string{"Trash"}}
	when := time.Date(2021, 3, 31, 23, 59, 59, 0, time.FixedZone("x", 5*3600))
	ok := File{Path: "/card/DCIM/a.JPG", Root: "/card", Size: 100, Kind: "photo", Taken: when}
	if why := f.Reject(ok); why != "" {
		t.Fatalf("admissible file rejected: %s", why)
	}
	for name, file := range map[string]File{
		"ext":      {Path: "/card/a.png", Root: "/card", Size: 100, Kind: "photo", Taken: when},
		"kind":     {Path: "/card/a.jpg", Root: "/card", Size: 100, Kind: "video", Taken: when},
		"depth":    {Path: "/card/a/b/a.jpg", Root: "/card", Size: 100, Kind: "photo", Taken: when},
		"small":    {Path: "/card/a.jpg", Root: "/card", Size: 9, Kind: "photo", Taken: when},
		"large":    {Path: "/card/a.jpg", Root: "/card", Size: 2 << 20, Kind: "photo", Taken: when},
		"before":   {Path: "/card/a.jpg", Root: "/card", Size: 100, Kind: "photo", Taken: since.Add(-time.Second)},
		"after":    {Path: "/card/a.jpg", Root: "/card", Size: 100, Kind: "photo", Taken: until},
		"undated":  {Path: "/card/a.jpg", Root: "/card", Size: 100, Kind: "photo"},
		"excluded": {Path: "/card/Trash/a.jpg", Root: "/card", Size: 100, Kind: "photo", Taken: when},
	} {
		if f.Reject(file) == "" {
			t.Errorf("%s: %+v admitted", name, file)
		}
	}
	if (&Filter{Include: []string{"keep/**"}}).Reject(File{Path: "/c/other/a.jpg", Root: "/c"}) == "" {
		t.Error("a file outside every --include was admitted")
	}
	var none *Filter
	if none.Reject(ok) != "" || (&Filter{}).Active() {
		t.Error("an empty filter rejected something")
	}
}

func TestParse(t *testing.T) {
	for s, want := range map[string]int64{"500": 500, "200K": 200 << 10, "1.5M": 3 << 19, "2GiB": 2 << 30, "10mb": 10 << 20} {
		if got, err := ParseSize(s); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, bad := range []string{"", "x", "-1", "5Q", "1e30G"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) accepted", bad)
		}
	}
	start, end, err := ParseDay("2021-07-04")
	if err != nil || !start.Equal(time.Date(2021, 7, 4, 0, 0, 0, 0, time.UTC)) || !end.Equal(time.Date(2021, 7, 5, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("ParseDay: %v %v %v", start, end, err)
	}
	if _, _, err := ParseDay("July 4"); err == nil {
		t.Error("ParseDay accepted July 4")
	}
}
