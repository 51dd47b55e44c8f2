package pipeline

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// TestMoveThroughStateFolderShortNameKeepsThePhoto: a {make} that spells
// the 8.3 alias the system gave DEST\.shoebox (Wine: "_SHO~E2X") and a
// {model} "run" put a moved photo at DEST\.shoebox\run\IMG_1.JPG, inside
// the run store that Close removes with everything in it: the source was
// gone, the library copy too, and the run reported it transferred.
func TestMoveThroughStateFolderShortNameKeepsThePhoto(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "card"), filepath.Join(root, "lib")
	state := filepath.Join(dst, layout.StateDirName)
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	short := fsxtest.ShortName(t, state)
	if short == layout.StateDirName {
		t.Skipf("this volume gives %s no 8.3 alias", layout.StateDirName)
	}
	content := fixture.JPEG(fixture.EXIF{When: time.Date(2019, 7, 4, 15, 0, 0, 0, time.UTC),
		Camera: fixture.Camera{Make: short, Model: "run"}, Comment: "only copy"})
	tree(t, src, map[string][]byte{"IMG_1.JPG": content})
	sortTree(t, []string{src}, dst, func(c *Config) {
		tmpl, err := layout.Parse("{make}/{model}/{name}{ext}")
		if err != nil {
			t.Fatal(err)
		}
		c.Template, c.Mode = tmpl, transfer.Move
	})
	if _, err := os.Stat(filepath.Join(src, "IMG_1.JPG")); err == nil {
		return // not moved: kept
	}
	for rel, data := range snapshot(t, dst) {
		if data == string(content) {
			t.Logf("the photo is at %s", rel)
			return
		}
	}
	t.Errorf("the photo is gone: moved from the card and not in the library outside %s (alias %q)", layout.StateDirName, short)
}
