package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx/faultfuse"
)

// The same as TestUndoBackupDriveUnplugged with a drive that stays
// plugged in but fails: the backup is on a FUSE drive that answers every
// operation with EIO during the first undo, which must not report
// success, must name the copies it could not reach and exit non-zero;
// once the drive answers again, undo finishes.
func TestUndoBackupDriveFailing(t *testing.T) {
	d := faultfuse.Mount(t)
	root := t.TempDir()
	cardDir, lib, bak := filepath.Join(root, "card"), filepath.Join(root, "lib"), filepath.Join(d.Mount, "Photos")
	writeShots(t, cardDir, "IMG", 3)
	if err := os.Mkdir(bak, 0o755); err != nil {
		t.Fatal(err)
	}
	if r := shoebox("sort", "-q", "--backup", bak, cardDir, lib); r.code != 0 {
		t.Fatal(r)
	}
	undoWithBackupAway(t, lib, bak,
		func() { d.Set(faultfuse.IOError) },
		func() { d.Set(faultfuse.Healthy) })
}

// The library's own drive fails (EIO) in the middle of an undo of a move:
// undo must stop between files saying the library drive fails and exit
// non-zero, every photo must be whole in one place or the other (the card
// or the library), and once the drive answers again undo finishes, every
// photo back on the card with its bytes.
func TestUndoLibraryDriveFailing(t *testing.T) {
	d := faultfuse.Mount(t)
	root := t.TempDir()
	cardDir, lib := filepath.Join(root, "card"), filepath.Join(d.Mount, "lib")
	const n = 6
	writeShots(t, cardDir, "IMG", n)
	want, landed := map[string][]byte{}, map[string]string{}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("IMG_%d.JPG", i)
		landed[name] = filepath.Join(lib, "2021", fmt.Sprintf("2021-03-%02d", 1+i), name)
		b, err := os.ReadFile(filepath.Join(cardDir, name))
		if err != nil {
			t.Fatal(err)
		}
		want[name] = b
	}
	if r := shoebox("sort", "-q", "--mode", "move", cardDir, lib); r.code != 0 {
		t.Fatal(r)
	}
	d.FailAt(faultfuse.OpUnlink, 5, faultfuse.IOError)
	r := shoebox("undo", lib)
	if r.code == 0 {
		t.Errorf("undo with the library drive failing exited 0: %s", r)
	}
	if out := r.stdout + r.stderr; !strings.Contains(out, "library drive") {
		t.Errorf("undo does not say the library drive fails: %s", r)
	}
	if strings.Contains(r.stdout, "undid run") || !strings.Contains(r.stdout, "did not finish undoing run") {
		t.Errorf("an undo that stopped says it undid the run: %s", r)
	}
	if n := strings.Count(r.stderr, "shoebox: "); n != 1 {
		t.Errorf("want one message for the failing drive, got %d: %s", n, r)
	}
	d.Set(faultfuse.Healthy)
	for name, b := range want {
		onCard, _ := os.ReadFile(filepath.Join(cardDir, name))
		inLib, _ := os.ReadFile(landed[name])
		if !bytes.Equal(onCard, b) && !bytes.Equal(inLib, b) {
			t.Errorf("%s is whole neither on the card nor in the library after the failed undo", name)
		}
	}
	if r := shoebox("undo", lib); r.code != 0 {
		t.Fatalf("undo once the drive answers again: %s", r)
	}
	for name, b := range want {
		if got, err := os.ReadFile(filepath.Join(cardDir, name)); err != nil || !bytes.Equal(got, b) {
			t.Errorf("%s is not back on the card whole after the second undo (%v)", name, err)
		}
	}
}
