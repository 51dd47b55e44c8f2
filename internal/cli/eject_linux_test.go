package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
)

// TestEjectUnmountsALoopMountedCard: a card image mounted through a loop
// device is unmounted by --eject after a clean run, and stays mounted
// after a run where a file failed.
func TestEjectUnmountsALoopMountedCard(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a loop device")
	}
	for _, tool := range []string{"losetup", "mkfs.ext4", "mount", "umount"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s: %v", tool, err)
		}
	}
	t.Run("clean run unmounts", func(t *testing.T) {
		mnt := loopCard(t)
		lib := filepath.Join(t.TempDir(), "lib")
		r := shoebox("sort", "--eject", mnt, lib)
		if r.code != ExitOK || !strings.Contains(r.stderr, "unmounted") {
			t.Fatalf("want a clean run that unmounts:\n%s", r)
		}
		if mounted(t, mnt) {
			t.Errorf("%s is still mounted after --eject", mnt)
		}
		if _, err := os.Stat(filepath.Join(lib, "2019", "2019-07-04", "IMG_1.JPG")); err != nil {
			t.Errorf("the photo is not in the library: %v", err)
		}
	})
	t.Run("with --backup, unmounts once both copies are in", func(t *testing.T) {
		mnt := loopCard(t)
		base := t.TempDir()
		lib, bak := filepath.Join(base, "lib"), filepath.Join(base, "bak")
		if err := os.Mkdir(bak, 0o755); err != nil { // a backup folder must exist
			t.Fatal(err)
		}
		r := shoebox("sort", "--eject", "--backup", bak, mnt, lib)
		if r.code != ExitOK || !strings.Contains(r.stderr, "every file is in the library and in the backup") {
			t.Fatalf("want a clean run that unmounts, naming the backup:\n%s", r)
		}
		if mounted(t, mnt) {
			t.Errorf("%s is still mounted after --eject", mnt)
		}
		for _, root := range []string{lib, bak} {
			if _, err := os.Stat(filepath.Join(root, "2019", "2019-07-04", "IMG_1.JPG")); err != nil {
				t.Errorf("the photo is not in %s: %v", root, err)
			}
		}
	})
	t.Run("a failure leaves it mounted", func(t *testing.T) {
		mnt := loopCard(t)
		base := t.TempDir()
		lib := filepath.Join(base, "lib")
		if err := os.MkdirAll(lib, 0o755); err != nil {
			t.Fatal(err)
		}
		// A folder of the library that is a link: the file headed there fails.
		if err := os.Symlink(base, filepath.Join(lib, "2019")); err != nil {
			t.Fatal(err)
		}
		r := shoebox("sort", "--eject", mnt, lib)
		if r.code != ExitIncomplete || !strings.Contains(r.stderr, "eject: not done: 1 files failed") {
			t.Fatalf("want a failed file and no eject:\n%s", r)
		}
		if !mounted(t, mnt) {
			t.Errorf("%s was unmounted although a file failed", mnt)
		}
	})
}

// loopCard makes an ext4 image with one photo, mounts it through a loop
// device and returns the mount point; cleanup unmounts and detaches it.
func loopCard(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	img, mnt := filepath.Join(dir, "card.img"), filepath.Join(dir, "card")
	run := func(name string, args ...string) string {
		out, err := exec.Command(name, args...).CombinedOutput()
		if err != nil {
			t.Skipf("%s %s: %v: %s (no loop devices here?)", name, strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if err := os.WriteFile(img, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 16<<20); err != nil {
		t.Fatal(err)
	}
	run("mkfs.ext4", "-q", img)
	dev := run("losetup", "-f", "--show", img)
	t.Cleanup(func() { exec.Command("losetup", "-d", dev).Run() })
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	run("mount", dev, mnt)
	t.Cleanup(func() {
		if mounted(t, mnt) {
			exec.Command("umount", mnt).Run()
		}
	})
	photo := fixture.JPEG(fixture.EXIF{When: time.Date(2019, 7, 4, 15, 30, 0, 0, time.UTC), Comment: "card"})
	if err := os.WriteFile(filepath.Join(mnt, "IMG_1.JPG"), photo, 0o644); err != nil {
		t.Fatal(err)
	}
	return mnt
}

// mounted reports whether path is a mount point in this namespace.
func mounted(t *testing.T, path string) bool {
	t.Helper()
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 4 && f[4] == path {
			return true
		}
	}
	return false
}
