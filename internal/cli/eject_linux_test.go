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
	needLoopTools(t)
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
		if r.code != ExitOK || !strings.Contains(r.stderr, "every photo and video on it is in the library and in the backup") {
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

// TestEjectAccountsForEveryPhotoOnTheCard (issue 24): --eject unmounts a
// card only when every photo and video on its volume is in the library,
// not merely every file the run planned. A library reached through a bind
// mount of the card, a photo a filter left out, one in a folder beside
// the one sorted, or one in a hidden folder keeps the card mounted, and
// the line names what stays.
func TestEjectAccountsForEveryPhotoOnTheCard(t *testing.T) {
	needLoopTools(t)
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 12, 0, 0, 0, time.UTC) }
	t.Run("library through a bind mount of the card", func(t *testing.T) {
		mnt := blankLoopCard(t)
		cardPhoto(t, filepath.Join(mnt, "DCIM", "100CANON", "IMG_1.JPG"), day(2019, 7, 4))
		// A folder of the card mounted elsewhere: another mount point,
		// the same device. Unmounting the card would not free it.
		shelf, lib := filepath.Join(mnt, "shelf"), filepath.Join(t.TempDir(), "lib")
		for _, d := range []string{shelf, lib} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		bindMount(t, shelf, lib)
		r := shoebox("sort", "--eject", filepath.Join(mnt, "DCIM"), filepath.Join(lib, "photos"))
		if r.code != ExitOK || !strings.Contains(r.stderr, "left mounted: the library is on the same device") {
			t.Fatalf("want the card left mounted, the library being on its device:\n%s", r)
		}
		if strings.Contains(r.stderr, "can be removed") || !mounted(t, mnt) {
			t.Errorf("the card was unmounted, or called removable, with the library on it:\n%s", r)
		}
	})
	t.Run("a photo left out by --since", func(t *testing.T) {
		mnt := blankLoopCard(t)
		old := filepath.Join(mnt, "DCIM", "100CANON", "IMG_1.JPG")
		cardPhoto(t, old, day(2019, 7, 4))
		cardPhoto(t, filepath.Join(mnt, "DCIM", "100CANON", "IMG_2.JPG"), day(2021, 3, 1))
		lib := filepath.Join(t.TempDir(), "lib")
		r := shoebox("sort", "--eject", "--since", "2020-01-01", mnt, lib)
		want := "left mounted: 1 photo or video on it is not in the library: " + old
		if r.code != ExitOK || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "left out by --since") {
			t.Fatalf("want %q and why (left out by --since):\n%s", want, r)
		}
		if strings.Contains(r.stderr, "can be removed") || !mounted(t, mnt) {
			t.Errorf("the card was unmounted, or called removable, with a photo left out:\n%s", r)
		}
		if _, err := os.Stat(filepath.Join(lib, "2021", "2021-03-01", "IMG_2.JPG")); err != nil {
			t.Errorf("the admitted photo is not in the library: %v", err)
		}
	})
	t.Run("a photo in a folder beside the source", func(t *testing.T) {
		mnt := blankLoopCard(t)
		cardPhoto(t, filepath.Join(mnt, "DCIM", "100CANON", "IMG_1.JPG"), day(2019, 7, 4))
		beside := filepath.Join(mnt, "DCIM", "101CANON", "IMG_2.JPG")
		cardPhoto(t, beside, day(2019, 7, 5))
		lib := filepath.Join(t.TempDir(), "lib")
		r := shoebox("sort", "--eject", filepath.Join(mnt, "DCIM", "100CANON"), lib)
		want := "left mounted: 1 photo or video on it is not in the library: " + beside
		if r.code != ExitOK || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "outside the folders sorted") {
			t.Fatalf("want %q and why (outside the folders sorted):\n%s", want, r)
		}
		if strings.Contains(r.stderr, "can be removed") || !mounted(t, mnt) {
			t.Errorf("the card was unmounted, or called removable, with a photo outside the source:\n%s", r)
		}
	})
	t.Run("a photo in a hidden folder of the source", func(t *testing.T) {
		mnt := blankLoopCard(t)
		cardPhoto(t, filepath.Join(mnt, "DCIM", "IMG_1.JPG"), day(2019, 7, 4))
		hidden := filepath.Join(mnt, "DCIM", ".keep", "IMG_2.JPG")
		cardPhoto(t, hidden, day(2019, 7, 5))
		lib := filepath.Join(t.TempDir(), "lib")
		r := shoebox("sort", "--eject", filepath.Join(mnt, "DCIM"), lib)
		want := "left mounted: 1 photo or video on it is not in the library: " + hidden
		if r.code != ExitOK || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "hidden, which sort skips without --hidden") {
			t.Fatalf("want %q and why (hidden):\n%s", want, r)
		}
		if !mounted(t, mnt) {
			t.Errorf("the card was unmounted with a hidden photo on it")
		}
	})
	t.Run("every photo in the library: unmounted", func(t *testing.T) {
		mnt := blankLoopCard(t)
		dcim := filepath.Join(mnt, "DCIM", "100CANON")
		cardPhoto(t, filepath.Join(dcim, "IMG_1.JPG"), day(2019, 7, 4))
		lib := filepath.Join(t.TempDir(), "lib")
		if r := shoebox("sort", filepath.Join(mnt, "DCIM"), lib); r.code != ExitOK {
			t.Fatalf("first import:\n%s", r)
		}
		// Since then: a new photo, a second copy of it (a duplicate), and
		// files that are not photos or videos, beside and outside the
		// source, none of which keeps the card.
		cardPhoto(t, filepath.Join(dcim, "IMG_2.JPG"), day(2019, 7, 5))
		b, err := os.ReadFile(filepath.Join(dcim, "IMG_2.JPG"))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dcim, "IMG_2 copy.JPG"), b, 0o644)
		writeFile(t, filepath.Join(dcim, "IMG_2.xmp"), []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"/>`), 0o644)
		writeFile(t, filepath.Join(dcim, "._IMG_2.JPG"), []byte("\x00\x05\x16\x07 AppleDouble"), 0o644) // a Mac's metadata, hidden
		writeFile(t, filepath.Join(mnt, "MISC", "notes.txt"), []byte("settings\n"), 0o644)
		writeFile(t, filepath.Join(mnt, "MISC", "EMPTY.JPG"), nil, 0o644)
		r := shoebox("sort", "--eject", filepath.Join(mnt, "DCIM"), lib)
		if r.code != ExitOK || !strings.Contains(r.stderr, "unmounted") || !strings.Contains(r.stderr, "the card can be removed") {
			t.Fatalf("want a clean run that unmounts:\n%s", r)
		}
		if mounted(t, mnt) {
			t.Errorf("%s is still mounted after --eject", mnt)
		}
	})
}

// needLoopTools skips a test that needs root and the tools to make and
// mount a loop device.
func needLoopTools(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a loop device")
	}
	for _, tool := range []string{"losetup", "mkfs.ext4", "mount", "umount"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s: %v", tool, err)
		}
	}
}

// cardPhoto writes a photo taken at when to path.
func cardPhoto(t *testing.T, path string, when time.Time) {
	t.Helper()
	writeFile(t, path, fixture.JPEG(fixture.EXIF{When: when, Comment: path}), 0o644)
}

// bindMount mounts dir at point too; cleanup unmounts it.
func bindMount(t *testing.T, dir, point string) {
	t.Helper()
	if out, err := exec.Command("mount", "--bind", dir, point).CombinedOutput(); err != nil {
		t.Skipf("mount --bind: %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", point).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", point, err, out)
		}
	})
}

// loopCard makes an ext4 image with one photo, mounts it through a loop
// device and returns the mount point; cleanup unmounts and detaches it.
func loopCard(t *testing.T) string {
	t.Helper()
	mnt := blankLoopCard(t)
	photo := fixture.JPEG(fixture.EXIF{When: time.Date(2019, 7, 4, 15, 30, 0, 0, time.UTC), Comment: "card"})
	if err := os.WriteFile(filepath.Join(mnt, "IMG_1.JPG"), photo, 0o644); err != nil {
		t.Fatal(err)
	}
	return mnt
}

// blankLoopCard makes an empty ext4 image, mounts it through a loop device
// and returns the mount point; cleanup unmounts and detaches it.
func blankLoopCard(t *testing.T) string {
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
