package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/transfer"
	"github.com/shoebox-photos/shoebox/internal/undo"
)

// Attack: --mode move from a source whose root is writable but one of
// whose folders is read-only (a bind mount with -o ro, a write-protected
// share folder): renaming out of it fails (EXDEV across the mount), the
// copy lands, and removing the source fails with EROFS. That is a problem
// of one source file, not of the library. It once stopped the run as a
// full destination would (every later file "not attempted", one more file
// through per run) and called the file "cross-device, copied then removed
// source". Now the file is reported copied with its source kept, the run
// goes on with the others, and undo takes the copies back and leaves
// every source where it is.
func TestAttackMoveFromAReadOnlySubfolder(t *testing.T) {
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
		if _, err := os.Stat(ev.Src); err == nil && (ev.Outcome == OutTransferred || ev.Outcome == OutRenamed) &&
			(ev.Action == "move" || !strings.Contains(ev.Reason, "the source could not be removed")) {
			t.Errorf("%s: reported %s %s (%q), but its source is still there", filepath.Base(ev.Src), ev.Outcome, ev.Action, ev.Reason)
		}
	}
	if _, err := undo.Last(context.Background(), filepath.Join(root, "lib"), undo.Options{}); err != nil {
		t.Fatalf("undo: %v", err)
	}
	for i := 0; i < 6; i++ {
		dir := card
		if i%2 == 1 {
			dir = ro
		}
		if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("IMG_%d.JPG", i))); err != nil {
			t.Errorf("after undo: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "lib", "2021")); !os.IsNotExist(err) {
		t.Errorf("after undo the library still holds its copies: %v", err)
	}
}
