package cli

import (
	"testing"

	"github.com/shoebox-photos/shoebox/internal/eject"
)

// TestEjectStayingLine: what keeps a card mounted, counted, the first
// paths named, and why.
func TestEjectStayingLine(t *testing.T) {
	for _, c := range []struct {
		s    eject.Stays
		want string
	}{
		{eject.Stays{Count: 1, Paths: []string{"/media/card/DCIM/IMG_1.JPG"}, Whys: []string{"left out by --since"}},
			"1 photo or video on it is not in the library: /media/card/DCIM/IMG_1.JPG (left out by --since)"},
		{eject.Stays{Count: 3, Paths: []string{"/c/a.JPG", "/c/b.JPG"}, Whys: []string{"left out by --since", "outside the folders sorted"}},
			"3 photos or videos on it are not in the library: /c/a.JPG, /c/b.JPG, … (left out by --since, or outside the folders sorted)"},
		{eject.Stays{Count: 2, Paths: []string{"/c/a.JPG", "/c/b.JPG"}, Whys: []string{"hidden, which sort skips without --hidden"}, Unchecked: "could not read /c/x: permission denied"},
			"at least 2 photos or videos on it are not in the library: /c/a.JPG, /c/b.JPG (hidden, which sort skips without --hidden); not every file on it could be checked: could not read /c/x: permission denied"},
		{eject.Stays{Unchecked: "the look at it stopped after 1000000 files and folders"},
			"not every file on it could be checked: the look at it stopped after 1000000 files and folders"},
	} {
		if got := staying(c.s); got != c.want {
			t.Errorf("staying(%+v):\n got %s\nwant %s", c.s, got, c.want)
		}
	}
}
