package cli

import (
	"os"
	"path/filepath"
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
