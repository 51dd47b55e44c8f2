package pipeline

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// drive is an ext4 image file loop-mounted at mnt, standing for a USB
// disk that can be pulled (umount -l) in the middle of a run.
type drive struct {
	t        *testing.T
	img, mnt string
}

// newDrive makes and mounts a fresh ext4 image; it skips, saying why,
// where that cannot be done (not root, no mkfs.ext4, no loop device).
func newDrive(t *testing.T) *drive {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("loop-mounting an ext4 image needs root")
	}
	mkfs, err := exec.LookPath("mkfs.ext4")
	if err != nil {
		t.Skipf("mkfs.ext4 is not installed (apt-get install e2fsprogs): %v", err)
	}
	dir := t.TempDir()
	d := &drive{t: t, img: filepath.Join(dir, "usb.img"), mnt: filepath.Join(dir, "media", "usb")}
	if err := os.MkdirAll(d.mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("truncate", "-s", "32M", d.img).CombinedOutput(); err != nil {
		t.Fatalf("truncate: %v %s", err, out)
	}
	if out, err := exec.Command(mkfs, "-q", d.img).CombinedOutput(); err != nil {
		t.Skipf("mkfs.ext4: %v %s", err, out)
	}
	if out, err := exec.Command("mount", "-o", "loop", d.img, d.mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot loop-mount an ext4 image here: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", d.mnt).Run() })
	return d
}

// pull detaches the drive lazily, as a desktop does when a USB disk is
// pulled: its mount point is at once the empty folder underneath, while
// whatever is still open on it stays usable.
func (d *drive) pull() {
	if out, err := exec.Command("umount", "-l", d.mnt).CombinedOutput(); err != nil {
		d.t.Errorf("umount -l %s: %v %s", d.mnt, err, out)
	}
}

// plugBack mounts the image again (once the run let go of it) so that
// the test can see what the run wrote on the drive.
func (d *drive) plugBack() {
	d.t.Helper()
	if out, err := exec.Command("mount", "-o", "loop", d.img, d.mnt).CombinedOutput(); err != nil {
		d.t.Fatalf("mount the drive again: %v %s", err, out)
	}
}

// underneath lists what the run put in the mount point folder while the
// drive was away: it must be nothing.
func (d *drive) underneath() []string {
	var out []string
	filepath.WalkDir(d.mnt, func(p string, e os.DirEntry, err error) error {
		if err == nil && p != d.mnt {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// pullAt makes a Faults that pulls the drive when the protocol reaches
// point for the nth time (one worker: the same file every time).
func pullAt(d *drive, point string, nth int) *fsx.Faults {
	f := fsx.NewFaults(fsx.OS)
	var mu sync.Mutex
	seen := 0
	f.OnCrashPoint(func(p string) {
		mu.Lock()
		defer mu.Unlock()
		if p != point {
			return
		}
		if seen++; seen == nth {
			d.pull()
		}
	})
	return f
}

func eightDays() map[string][]byte { return days(8) }

// days is a card of n photos, one a day.
func days(n int) map[string][]byte {
	files := map[string][]byte{}
	for i := 1; i <= n; i++ {
		files[fmt.Sprintf("IMG_%d.JPG", i)] = photo(2019, 7, i, 10, fmt.Sprint("day ", i))
	}
	return files
}

// The backup drive is pulled (umount -l) during a move with --backup,
// after the third source is removed. Nothing may be written into the
// empty mount point underneath, no source may be removed without both of
// its copies on the drive and in the library, and the run stops between
// files with one message (no error per file) that says how many files
// are safe in both places.
func TestBackupDrivePulledDuringAMove(t *testing.T) {
	d := newDrive(t)
	backup := filepath.Join(d.mnt, "Photos")
	if err := os.Mkdir(backup, 0o755); err != nil {
		t.Fatal(err)
	}
	c := newRelCase(t, eightDays())
	before := snapshot(t, c.src)
	c.cfg.Mode, c.cfg.Backup, c.cfg.Workers = transfer.Move, backup, 1
	c.cfg.FS = pullAt(d, fsx.AfterRemoveSource, 3)
	sum, err := c.sortAll()
	if got := d.underneath(); len(got) != 0 {
		t.Errorf("written into the empty mount point after the drive went away: %v", got)
	}
	want := fmt.Sprintf("the backup drive at %q went away after 3 files; 3 are safe in both places, the rest are untouched on the card; run the same command again when it is back", d.mnt)
	if !errors.Is(err, ErrDriveGone) || !strings.Contains(fmt.Sprint(err), want) {
		t.Errorf("err = %v, want ErrDriveGone saying %q", err, want)
	}
	if f := c.rec.failed(); len(f) != 0 {
		t.Errorf("a failure reported per file: %v", f)
	}
	if sum.Transferred != 3 || sum.NotAttempted != 5 || sum.Failed != 0 {
		t.Errorf("transferred %d, not attempted %d, failed %d; want 3, 5, 0", sum.Transferred, sum.NotAttempted, sum.Failed)
	}
	d.plugBack()
	assertBothCopies(t, before, snapshot(t, c.src), snapshot(t, c.dst), snapshot(t, backup))
}

// assertBothCopies: every source gone from the card is, byte for byte, in
// the library and in the backup; every other source is untouched.
func assertBothCopies(t *testing.T, before, card, lib, bak map[string]string) {
	t.Helper()
	byContent := func(m map[string]string) map[string]bool {
		out := map[string]bool{}
		for _, v := range m {
			out[v] = true
		}
		return out
	}
	inLib, inBak := byContent(lib), byContent(bak)
	for name, data := range before {
		if now, ok := card[name]; ok {
			if now != data {
				t.Errorf("%s changed on the card", name)
			}
			continue
		}
		if !inLib[data] || !inBak[data] {
			t.Errorf("%s was removed from the card, but in the library: %v, in the backup: %v", name, inLib[data], inBak[data])
		}
	}
}

// The library's own drive is pulled during a copy: the same, for the
// library. Nothing lands in the empty mount point, the run stops with one
// message, and what landed before is on the drive. Copies are made
// durable and renamed in batches, so the files in flight when the drive
// goes (a batch) still land, through the open library folder, on the
// drive: the message counts them.
func TestLibraryDrivePulledDuringACopy(t *testing.T) {
	d := newDrive(t)
	const total = 40 // more than a batch (batchFiles)
	c := newRelCase(t, days(total))
	before := snapshot(t, c.src)
	c.dst = filepath.Join(d.mnt, "Library")
	c.cfg.Dest, c.cfg.Workers = c.dst, 1
	c.cfg.FS = pullAt(d, fsx.AfterRename, 3)
	sum, err := c.sortAll()
	if got := d.underneath(); len(got) != 0 {
		t.Errorf("written into the empty mount point after the drive went away: %v", got)
	}
	n := sum.Transferred
	want := fmt.Sprintf("the library drive at %q went away after %d files; %d are in the library, the rest are untouched on the card; run the same command again when it is back", d.mnt, n, n)
	if !errors.Is(err, ErrDriveGone) || !strings.Contains(fmt.Sprint(err), want) {
		t.Errorf("err = %v, want ErrDriveGone saying %q", err, want)
	}
	if f := c.rec.failed(); len(f) != 0 {
		t.Errorf("a failure reported per file: %v", f)
	}
	if n < 3 || n >= total || sum.Failed != 0 || sum.NotAttempted != total-n {
		t.Errorf("transferred %d, failed %d, not attempted %d; want the run stopped between files, none failed", n, sum.Failed, sum.NotAttempted)
	}
	assertSame(t, snapshot(t, c.src), before)
	d.plugBack()
	lib := snapshot(t, c.dst)
	onCard := map[string]bool{}
	for _, data := range before {
		onCard[data] = true
	}
	photos := int64(0)
	for rel, data := range lib {
		if strings.HasPrefix(rel, ".shoebox/") {
			continue
		}
		photos++
		if !onCard[data] {
			t.Errorf("%s: not a whole copy of a photo of the card", rel)
		}
	}
	if photos != n {
		t.Errorf("the library on the drive holds %d photos, want the %d the run counts", photos, n)
	}
}
