package fsx

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// Within by name, through links, for paths still to be made, and never
// for a sibling whose name merely starts the same.
func TestWithin(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"card/sub", "lib", "library2"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := makeLinkOrLog(t, filepath.Join(root, "card", "sub"), filepath.Join(root, "alias")) &&
		makeLinkOrLog(t, root, filepath.Join(root, "up"))
	j := func(s string) string { return filepath.Join(root, filepath.FromSlash(s)) }
	for _, c := range []struct {
		p, root string
		want    bool
	}{
		{"card", "card", true},
		{"card/sub/x.jpg", "card", true},
		{"alias", "card", true},
		{"alias/new/deeper", "card", true}, // through a link, still to be made
		{"up/lib/new", "lib", true},        // a link above
		{"lib/new", "up/lib", true},        // the root named through a link
		{"up/newlib/x", "newlib", true},    // a root that does not exist yet
		{"library2", "lib", false},         // a name that starts the same
		{"lib", "card", false},
		{"card", "card/sub", false},
	} {
		if !links && (strings.HasPrefix(c.p, "alias") || strings.HasPrefix(c.p, "up") || strings.HasPrefix(c.root, "up")) {
			continue // through a link that could not be made (logged above)
		}
		if got := Within(j(c.p), j(c.root)); got != c.want {
			t.Errorf("Within(%s, %s) = %v, want %v", c.p, c.root, got, c.want)
		}
	}
}

// makeLinkOrLog makes a symbolic link, or on Windows says why it cannot
// and returns false: Windows refuses without Developer Mode, and Wine 8
// reports a link made that is not there. Elsewhere a failure fails.
func makeLinkOrLog(t *testing.T, oldname, newname string) bool {
	t.Helper()
	err := os.Symlink(oldname, newname)
	if err == nil {
		_, err = os.Lstat(newname)
	}
	switch {
	case err == nil:
		return true
	case runtime.GOOS != "windows":
		t.Fatal(err)
	case fsxtest.UnderWine():
		t.Logf("the cases through links are left out: Wine 8 reports a link made that is not there: %v", err)
	default:
		t.Logf("the cases through links are left out: no symbolic links (Developer Mode needed): %v", err)
	}
	return false
}
