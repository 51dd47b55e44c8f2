package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// Attack: --mode move from a source whose root is writable but one of
// whose folders is read-only (a bind mount with -o ro, a write-protected
// share folder): renaming out of it fails (EXDEV across the mount), the
// copy lands, and removing the source fails with EROFS. That is a problem
// of one source file, not of the library, yet:
//   - the file is reported "transferred", "cross-device, copied then removed
//     source", although its source is still there (only a warning says so);
//   - the run stops ("free some space (or fix the destination)"): every
//     later file is "not attempted", and each run of the same command gets
//     one more file of the folder through before stopping again.
//
// It should fail (or keep) that one file, say the source was kept, and go
// on with the others.
func TestAttackMoveFromAReadOnlySubfolder(t *testing.T) {
	t.Skip("known defect, open (issue 24 note): a source that cannot be removed in a read-only subfolder stops the run as a full destination would and is reported \"copied then removed source\"; nothing is lost")
	root := t.TempDir()
	card := filepath.Join(root, "card")
	ro := filepath.Join(card, "locked")
	for i := 0; i < 6; i++ {
		dir := card
		if i%2 == 1 {
			dir = ro
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		b := fixture.JPEG(fixture.EXIF{When: time.Date(2021, 1, 1+i, 10, 0, 0, 0, time.UTC), Comment: fmt.Sprint(i)})
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("IMG_%d.JPG", i)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	locked := "card" + string(filepath.Separator) + "locked" + string(filepath.Separator)
	faults := fsx.NewFaults(fsx.OS).
		Add(fsx.Rule{Op: "rename", Path: locked, Err: syscall.EXDEV}).
		Add(fsx.Rule{Op: "remove", Path: locked, Err: syscall.EROFS})
	tmpl, err := layout.Parse("{year}/{year}-{month}-{day}/{name}{ext}")
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	run, err := Open(Config{Sources: []string{card}, Dest: filepath.Join(root, "lib"), Template: tmpl,
		Mode: transfer.Move, Workers: 1, Dedup: true, VideoTZ: time.UTC, Events: rec.add, FS: faults})
	if err != nil {
		t.Fatal(err)
	}
	runErr := run.All(context.Background())
	run.Close()
	if runErr != nil {
		t.Errorf("the run stopped on a source folder it cannot remove from: %v", runErr)
	}
	for _, ev := range rec.events {
		if ev.Type != "op" {
			continue
		}
		if ev.Outcome == OutNotAttempted {
			t.Errorf("%s: not attempted", filepath.Base(ev.Src))
		}
		if _, err := os.Stat(ev.Src); err == nil && (ev.Outcome == OutTransferred || ev.Outcome == OutRenamed) && ev.Action == "move" {
			t.Errorf("%s: reported %s (%q), but its source is still there", filepath.Base(ev.Src), ev.Outcome, ev.Reason)
		}
	}
}
