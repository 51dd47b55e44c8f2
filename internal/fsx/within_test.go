package fsx

import (
	"os"
	"path/filepath"
	"testing"
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
	if err := os.Symlink(filepath.Join(root, "card", "sub"), filepath.Join(root, "alias")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(root, filepath.Join(root, "up")); err != nil {
		t.Fatal(err)
	}
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
		if got := Within(j(c.p), j(c.root)); got != c.want {
			t.Errorf("Within(%s, %s) = %v, want %v", c.p, c.root, got, c.want)
		}
	}
}
