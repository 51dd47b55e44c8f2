package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The same as TestUndoBackupUnreachable with a real drive: the backup is
// on a loop-mounted ext4 image, unmounted during the first undo (its
// mount point is then an empty folder) and mounted again for the second.
func TestUndoBackupDriveUnplugged(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("loop-mounting an image needs root")
	}
	for _, tool := range []string{"mkfs.ext4", "mount", "umount"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: %v", tool, err)
		}
	}
	root := t.TempDir()
	img, mnt := filepath.Join(root, "backup.img"), filepath.Join(root, "mnt")
	run := func(name string, args ...string) {
		t.Helper()
		if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
			t.Skipf("%s %v: %v %s", name, args, err, out)
		}
	}
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	run("truncate", "-s", "16M", img)
	run("mkfs.ext4", "-q", img)
	run("mount", "-o", "loop", img, mnt)
	mounted := true
	t.Cleanup(func() {
		if mounted {
			exec.Command("umount", mnt).Run()
		}
	})
	cardDir, lib, bak := filepath.Join(root, "card"), filepath.Join(root, "lib"), filepath.Join(mnt, "Photos")
	writeShots(t, cardDir, "IMG", 3)
	if err := os.Mkdir(bak, 0o755); err != nil {
		t.Fatal(err)
	}
	if r := shoebox("sort", "-q", "--backup", bak, cardDir, lib); r.code != 0 {
		t.Fatal(r)
	}
	undoWithBackupAway(t, lib, bak,
		func() {
			if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
				t.Fatalf("umount: %v %s", err, out)
			}
			mounted = false
		},
		func() {
			if out, err := exec.Command("mount", "-o", "loop", img, mnt).CombinedOutput(); err != nil {
				t.Fatalf("mount again: %v %s", err, out)
			}
			mounted = true
		})
}
