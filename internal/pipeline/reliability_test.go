package pipeline

// The reliability suite: one test per fault, each through the real pipeline
// on real temp dirs, with faults injected only through fsx.Faults. Every test
// checks the promise: no source modified or lost, no half-written file at a
// final name, no temp left behind, and every file not done reported with its
// path and the reason. docs/reliability.md maps faults to these tests.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/text/unicode/norm"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// relCase is one source tree, one library and the config that sorts them.
type relCase struct {
	t        *testing.T
	src, dst string
	cfg      Config
	rec      *recorder
}

func newRelCase(t *testing.T, files map[string][]byte) *relCase {
	t.Helper()
	root := t.TempDir()
	c := &relCase{t: t, src: filepath.Join(root, "card"), dst: filepath.Join(root, "lib"), rec: &recorder{}}
	tree(t, c.src, files)
	c.cfg = relConfig([]string{c.src}, c.dst, c.rec)
	return c
}

func relConfig(src []string, dst string, rec *recorder) Config {
	tmpl, err := layout.Parse("{year}/{year}-{month}-{day}/{name}{ext}")
	if err != nil {
		panic(err) // a constant template
	}
	return Config{Sources: src, Dest: dst, Template: tmpl, Mode: transfer.Copy, Workers: 2,
		Dedup: true, VideoTZ: time.UTC, Events: rec.add}
}

// sortAll runs every stage and returns the summary and the run's error.
func (c *relCase) sortAll() (Summary, error) {
	c.t.Helper()
	run, err := Open(c.cfg)
	if err != nil {
		return Summary{}, err
	}
	runErr := run.All(context.Background())
	if err := run.Close(); err != nil && runErr == nil {
		runErr = err
	}
	return run.Summary(), runErr
}

func (c *relCase) mustSort() Summary {
	c.t.Helper()
	sum, err := c.sortAll()
	if err != nil {
		c.t.Fatalf("run failed: %v", err)
	}
	return sum
}

// failed returns the reason of every failed op, keyed by source path.
func (r *recorder) failed() map[string]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]string{}
	for _, ev := range r.events {
		if ev.Outcome == OutFailed {
			out[ev.Src] = ev.Reason
		}
	}
	return out
}

func (r *recorder) ofType(typ string) []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Event
	for _, ev := range r.events {
		if ev.Type == typ {
			out = append(out, ev)
		}
	}
	return out
}

// assertNoTemps fails if a shoebox temp file is left anywhere under root.
func assertNoTemps(t *testing.T, root string) {
	t.Helper()
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && transfer.IsTempName(d.Name()) {
			t.Errorf("temp file left behind: %s", p)
		}
		return nil
	})
}

// assertFailedOnly checks that exactly the given sources failed, each with
// a reason naming its path and containing every want fragment.
func assertFailedOnly(t *testing.T, rec *recorder, want map[string][]string) {
	t.Helper()
	got := rec.failed()
	for src, parts := range want {
		reason, ok := got[src]
		if !ok {
			t.Errorf("%s should be reported failed; failures: %v", src, got)
			continue
		}
		for _, p := range append(parts, src) {
			if !strings.Contains(reason, p) {
				t.Errorf("failure of %s: %q lacks %q", src, reason, p)
			}
		}
	}
	for src, reason := range got {
		if _, ok := want[src]; !ok {
			t.Errorf("unexpected failure of %s: %s", src, reason)
		}
	}
}

// threePhotos is a small card: three photos of one day.
func threePhotos() map[string][]byte {
	return map[string][]byte{
		"IMG_1.JPG": photo(2019, 7, 4, 10, "one"),
		"IMG_2.JPG": photo(2019, 7, 4, 11, "two"),
		"IMG_3.JPG": photo(2019, 7, 4, 12, "three"),
	}
}

const day = "2019/2019-07-04/"

// TestInjectedWriteFaultsFailOnlyThatFile covers a lying device on the copy
// of one file: that file fails whole and is reported, the others land, and
// a re-run once the fault is gone completes the job.
func TestInjectedWriteFaultsFailOnlyThatFile(t *testing.T) {
	cases := []struct {
		name string
		rule fsx.Rule
		want string
	}{
		{"short write, no error", fsx.Rule{Op: "write", Short: true}, "short write"},
		{"EIO on fsync", fsx.Rule{Op: "sync", Err: syscall.EIO}, "input/output error"},
		{"EIO on rename", fsx.Rule{Op: "rename", Err: syscall.EIO}, "input/output error"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newRelCase(t, threePhotos())
			before := snapshot(t, c.src)
			rule := tc.rule
			rule.Path = "IMG_2.JPG"
			c.cfg.FS = fsx.NewFaults(fsx.OS).Add(rule)
			sum := c.mustSort()

			bad := filepath.Join(c.src, "IMG_2.JPG")
			assertFailedOnly(t, c.rec, map[string][]string{bad: {tc.want}})
			if sum.Failed != 1 || sum.Transferred != 2 || !sum.Incomplete() {
				t.Errorf("summary %+v, want 1 failed, 2 transferred, incomplete", sum)
			}
			assertSame(t, snapshot(t, c.dst), map[string]string{
				day + "IMG_1.JPG": before["IMG_1.JPG"], day + "IMG_3.JPG": before["IMG_3.JPG"]})
			assertNoTemps(t, c.dst)
			assertSame(t, snapshot(t, c.src), before)
			c.rerunCompletes(before)
		})
	}
}

// rerunCompletes runs again on a healthy disk and expects the full library.
func (c *relCase) rerunCompletes(before map[string]string) {
	c.t.Helper()
	c.cfg.FS = nil // the disk has been fixed
	sum := c.mustSort()
	if sum.Failed != 0 || sum.NotAttempted != 0 {
		c.t.Errorf("re-run summary %+v, want the missing files transferred", sum)
	}
	assertSame(c.t, snapshot(c.t, c.dst), map[string]string{
		day + "IMG_1.JPG": before["IMG_1.JPG"], day + "IMG_2.JPG": before["IMG_2.JPG"], day + "IMG_3.JPG": before["IMG_3.JPG"]})
}

// TestFullDestinationStopsTheRun: when the library is full (or over quota)
// every further file would fail the same way, so the run stops after the
// files in flight, says why and how to finish, and leaves nothing partial.
func TestFullDestinationStopsTheRun(t *testing.T) {
	cases := []struct {
		name string
		rule fsx.Rule
		want string
	}{
		{"ENOSPC on write", fsx.Rule{Op: "write", Err: syscall.ENOSPC}, "no space left on device"},
		{"ENOSPC on create", fsx.Rule{Op: "create", Err: syscall.ENOSPC}, "no space left on device"},
		{"ENOSPC on fsync", fsx.Rule{Op: "sync", Err: syscall.ENOSPC}, "no space left on device"},
		{"EDQUOT on write", fsx.Rule{Op: "write", Err: syscall.EDQUOT}, "quota exceeded"},
		{"short write with ENOSPC", fsx.Rule{Op: "write", Short: true, Err: syscall.ENOSPC}, "no space left on device"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newRelCase(t, threePhotos())
			before := snapshot(t, c.src)
			rule := tc.rule
			rule.Path = "IMG_2.JPG"
			c.cfg.FS = fsx.NewFaults(fsx.OS).Add(rule)
			sum, err := c.sortAll()
			if !errors.Is(err, ErrStopped) || !strings.Contains(err.Error(), "run the same command again") {
				t.Fatalf("run error = %v, want a stop that says how to finish", err)
			}
			bad := filepath.Join(c.src, "IMG_2.JPG")
			assertFailedOnly(t, c.rec, map[string][]string{bad: {tc.want}})
			if sum.Failed != 1 || sum.Transferred+sum.NotAttempted != 2 || !sum.Incomplete() {
				t.Errorf("summary %+v, want 1 failed and the other 2 transferred or not attempted", sum)
			}
			for name, content := range snapshot(t, c.dst) {
				if content != before[strings.TrimPrefix(name, day)] {
					t.Errorf("%s in the library is not a complete copy", name)
				}
			}
			assertNoTemps(t, c.dst)
			assertSame(t, snapshot(t, c.src), before)
			c.rerunCompletes(before)
		})
	}
}

// TestFsyncUnsupportedIsTolerated: filesystems that cannot fsync (some FUSE
// and network mounts) say ENOTSUP or EINVAL; that is not a failed copy.
func TestFsyncUnsupportedIsTolerated(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.ENOTSUP, syscall.EINVAL} {
		t.Run(errno.Error(), func(t *testing.T) {
			c := newRelCase(t, threePhotos())
			before := snapshot(t, c.src)
			c.cfg.FS = fsx.NewFaults(fsx.OS).Add(fsx.Rule{Op: "sync", Err: errno})
			sum := c.mustSort()
			if sum.Transferred != 3 || sum.Failed != 0 {
				t.Errorf("summary %+v, want all 3 transferred", sum)
			}
			assertFailedOnly(t, c.rec, nil)
			if got := snapshot(t, c.dst); len(got) != 3 || got[day+"IMG_2.JPG"] != before["IMG_2.JPG"] {
				t.Errorf("library = %v", keys(got))
			}
		})
	}
}

// TestVerifyCatchesSilentCorruption: a device that flips a bit and reports
// success is caught by --verify; the bad temp is discarded and the file
// reported, never published.
func TestVerifyCatchesSilentCorruption(t *testing.T) {
	c := newRelCase(t, threePhotos())
	before := snapshot(t, c.src)
	c.cfg.Verify = true
	c.cfg.FS = fsx.NewFaults(fsx.OS).Add(fsx.Rule{Op: "write", Path: "IMG_2.JPG", Corrupt: true})
	sum := c.mustSort()
	bad := filepath.Join(c.src, "IMG_2.JPG")
	assertFailedOnly(t, c.rec, map[string][]string{bad: {"verification failed"}})
	if sum.Failed != 1 || sum.Transferred != 2 {
		t.Errorf("summary %+v", sum)
	}
	assertSame(t, snapshot(t, c.dst), map[string]string{
		day + "IMG_1.JPG": before["IMG_1.JPG"], day + "IMG_3.JPG": before["IMG_3.JPG"]})
	assertNoTemps(t, c.dst)
	assertSame(t, snapshot(t, c.src), before)
}

// crossDeviceDirs returns a source dir on /dev/shm and a library dir on
// the temp dir's filesystem, or skips when they share a device.
func crossDeviceDirs(t *testing.T) (src, dst string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the other filesystem to move from is Linux's tmpfs /dev/shm (under Wine it is the Z: drive, whose volume Wine cannot read)")
	}
	shm, err := os.MkdirTemp("/dev/shm", "shoebox-reliability-")
	if err != nil {
		t.Skipf("no /dev/shm to move from: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(shm) })
	dst = filepath.Join(t.TempDir(), "lib")
	a, errA := os.Stat(shm)
	b, errB := os.Stat(filepath.Dir(dst))
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if devA, _ := fsx.DevIno(a); devA == func() uint64 { d, _ := fsx.DevIno(b); return d }() {
		t.Skip("/dev/shm and the temp dir are on the same device")
	}
	return filepath.Join(shm, "card"), dst
}

// TestCrossDeviceMoveRemovesSourceOnlyAfterVerifiedCopy moves across
// filesystems (a copy, then the source's removal): good copies remove their
// source; a copy corrupted on the way keeps its source untouched.
func TestCrossDeviceMoveRemovesSourceOnlyAfterVerifiedCopy(t *testing.T) {
	src, dst := crossDeviceDirs(t)
	files := threePhotos()
	tree(t, src, files)
	rec := &recorder{}
	cfg := relConfig([]string{src}, dst, rec)
	cfg.Mode = transfer.Move
	cfg.FS = fsx.NewFaults(fsx.OS).Add(fsx.Rule{Op: "write", Path: "IMG_2.JPG", Corrupt: true})
	c := &relCase{t: t, src: src, dst: dst, cfg: cfg, rec: rec}
	sum := c.mustSort()

	bad := filepath.Join(src, "IMG_2.JPG")
	assertFailedOnly(t, rec, map[string][]string{bad: {"verification failed"}})
	if sum.Transferred != 2 || sum.Failed != 1 {
		t.Errorf("summary %+v", sum)
	}
	assertSame(t, snapshot(t, src), map[string]string{"IMG_2.JPG": string(files["IMG_2.JPG"])})
	assertSame(t, snapshot(t, dst), map[string]string{
		day + "IMG_1.JPG": string(files["IMG_1.JPG"]), day + "IMG_3.JPG": string(files["IMG_3.JPG"])})
	assertNoTemps(t, dst)
	fallbacks := 0
	for _, ev := range rec.ofType("op") {
		if ev.Outcome == OutTransferred && strings.Contains(ev.Reason, "cross-device") {
			fallbacks++
		}
	}
	if fallbacks != 2 {
		t.Errorf("%d moves reported as cross-device copies, want 2", fallbacks)
	}
}

// stagedCase runs scan, meta and plan, lets the test meddle with the
// sources, then runs transfer: the window between planning and copying.
func (c *relCase) stagedSort(meddle func()) Summary {
	c.t.Helper()
	run, err := Open(c.cfg)
	if err != nil {
		c.t.Fatal(err)
	}
	defer run.Close()
	ctx := context.Background()
	for _, stage := range []func(context.Context) error{run.Scan, run.Meta, run.Plan} {
		if err := stage(ctx); err != nil {
			c.t.Fatal(err)
		}
	}
	meddle()
	if err := run.Transfer(ctx); err != nil {
		c.t.Fatalf("transfer: %v", err)
	}
	return run.Summary()
}

// TestSourceChangedOrVanishedAfterScan: a file edited or deleted between
// the scan and its copy fails with "changed" or "missing"; nothing lands at
// its destination, and the run says it is incomplete.
func TestSourceChangedOrVanishedAfterScan(t *testing.T) {
	for _, mode := range []transfer.Mode{transfer.Copy, transfer.Move, transfer.Hardlink} {
		t.Run(mode.String(), func(t *testing.T) {
			c := newRelCase(t, threePhotos())
			c.cfg.Mode = mode
			edited, gone := filepath.Join(c.src, "IMG_1.JPG"), filepath.Join(c.src, "IMG_2.JPG")
			sum := c.stagedSort(func() {
				f, err := os.OpenFile(edited, os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				f.WriteString("edited by another program")
				f.Close()
				if err := os.Remove(gone); err != nil {
					t.Fatal(err)
				}
			})
			assertFailedOnly(t, c.rec, map[string][]string{edited: {"changed"}, gone: {"missing", "vanished"}})
			if sum.Failed != 2 || sum.Transferred != 1 || !sum.Incomplete() {
				t.Errorf("summary %+v, want 2 failed, 1 transferred", sum)
			}
			got := snapshot(t, c.dst)
			if len(got) != 1 || got[day+"IMG_3.JPG"] == "" {
				t.Errorf("library = %v, want only IMG_3.JPG", keys(got))
			}
			if _, err := os.Stat(edited); err != nil {
				t.Errorf("the edited source is gone: %v", err)
			}
			assertNoTemps(t, c.dst)
		})
	}
}

// TestSourceChangedDuringCopy: a write to the source while it is being
// copied is caught after the copy; the temp is discarded.
func TestSourceChangedDuringCopy(t *testing.T) {
	c := newRelCase(t, map[string][]byte{"IMG_1.JPG": photo(2019, 7, 4, 10, "one")})
	srcPath := filepath.Join(c.src, "IMG_1.JPG")
	faults := fsx.NewFaults(fsx.OS)
	var once sync.Once
	faults.OnCrashPoint(func(point string) {
		if point != fsx.AfterTempWrite {
			return
		}
		once.Do(func() {
			if err := os.WriteFile(srcPath, photo(2019, 7, 4, 10, "rewritten"), 0o644); err != nil {
				t.Error(err)
			}
		})
	})
	c.cfg.FS = faults
	sum := c.mustSort()
	assertFailedOnly(t, c.rec, map[string][]string{srcPath: {"changed"}})
	if sum.Failed != 1 || len(snapshot(t, c.dst)) != 0 {
		t.Errorf("summary %+v, library %v: want the file failed and nothing published", sum, keys(snapshot(t, c.dst)))
	}
	assertNoTemps(t, c.dst)
}

// TestHardLinkedSourcesLandOnce: two names of one inode are one photo.
func TestHardLinkedSourcesLandOnce(t *testing.T) {
	c := newRelCase(t, map[string][]byte{"a/IMG_1.JPG": photo(2019, 7, 4, 10, "one")})
	if err := os.Link(filepath.Join(c.src, "a/IMG_1.JPG"), filepath.Join(c.src, "IMG_1_link.JPG")); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	sum := c.mustSort()
	if got := snapshot(t, c.dst); len(got) != 1 {
		t.Errorf("library = %v, want one copy of the hard-linked photo", keys(got))
	}
	if sum.Transferred != 1 || sum.Duplicates != 1 || sum.Failed != 0 {
		t.Errorf("summary %+v, want 1 transferred and 1 duplicate", sum)
	}
}

// TestLibraryInsideSourceIsNotRescanned: sorting a folder into a subfolder
// of itself must not pick up the library as new sources, now or next time.
func TestLibraryInsideSourceIsNotRescanned(t *testing.T) {
	c := newRelCase(t, threePhotos())
	c.cfg.Dest = filepath.Join(c.src, "sorted")
	c.dst = c.cfg.Dest
	for i := 0; i < 2; i++ {
		sum := c.mustSort()
		if sum.Scanned != 3 {
			t.Errorf("run %d scanned %d files, want the 3 sources only", i+1, sum.Scanned)
		}
	}
	if got := snapshot(t, c.dst); len(got) != 3 {
		t.Errorf("library = %v, want the 3 photos once", keys(got))
	}
}

// TestSourceInsideLibrary: an "incoming" folder inside the library is a
// source like any other; its files are sorted, not mistaken for library
// copies of themselves.
func TestSourceInsideLibrary(t *testing.T) {
	c := newRelCase(t, nil)
	c.dst = c.src
	c.src = filepath.Join(c.dst, "incoming")
	tree(t, c.src, threePhotos())
	c.cfg.Sources, c.cfg.Dest = []string{c.src}, c.dst
	sum := c.mustSort()
	for name := range threePhotos() {
		if _, err := os.Stat(filepath.Join(c.dst, day, name)); err != nil {
			t.Errorf("%s was not sorted into the library: %v (summary %+v)", name, err, sum)
		}
		if _, err := os.Stat(filepath.Join(c.src, name)); err != nil {
			t.Errorf("copy mode removed the source %s: %v", name, err)
		}
	}
}

// TestSymlinkLoopWithFollowLinks: a loop is reported once and the walk
// ends; every real file is sorted once.
func TestSymlinkLoopWithFollowLinks(t *testing.T) {
	c := newRelCase(t, map[string][]byte{"a/IMG_1.JPG": photo(2019, 7, 4, 10, "one")})
	fsxtest.Symlink(t, "..", filepath.Join(c.src, "a", "up"))                    // or skip where links cannot be made
	fsxtest.Symlink(t, filepath.Join(c.src, "a"), filepath.Join(c.src, "again")) // or skip where links cannot be made
	c.cfg.FollowLinks = true
	sum := c.mustSort()
	if got := snapshot(t, c.dst); len(got) != 1 {
		t.Errorf("library = %v, want the one photo", keys(got))
	}
	loops := 0
	for _, ev := range c.rec.ofType("problem") {
		if strings.Contains(ev.Reason, "loop") {
			loops++
		}
	}
	if loops == 0 || sum.Transferred != 1 {
		t.Errorf("summary %+v with %d loop problems, want the loop reported and one file transferred", sum, loops)
	}
}

// TestHostileNames: names that are not UTF-8, near NAME_MAX, differing
// only in case, or in Unicode normalization, all land, none overwrites
// another, and each final name fits the filesystem.
func TestHostileNames(t *testing.T) {
	long := strings.Repeat("x", 251) + ".JPG" // 255 bytes, NAME_MAX
	nfc, nfd := norm.NFC.String("café.jpg"), norm.NFD.String("café.jpg")
	files := map[string][]byte{
		"bad/IMG_\xff\xfe.JPG": photo(2019, 7, 4, 1, "not utf-8"),
		"long1/" + long:        photo(2019, 7, 4, 2, "long one"),
		"long2/" + long:        photo(2019, 7, 4, 3, "long two"),
		"upper/IMG_1.JPG":      photo(2019, 7, 4, 4, "upper"),
		"lower/img_1.jpg":      photo(2019, 7, 4, 5, "lower"),
		"nfc/" + nfc:           photo(2019, 7, 4, 6, "composed"),
		"nfd/" + nfd:           photo(2019, 7, 4, 7, "decomposed"),
	}
	c := newRelCase(t, files)
	before := snapshot(t, c.src)
	c.cfg.Dedup = false
	sum := c.mustSort()
	assertFailedOnly(t, c.rec, nil)
	got := snapshot(t, c.dst)
	if len(got) != len(files) || sum.Transferred != int64(len(files)) {
		t.Fatalf("library = %q (summary %+v), want all %d files", keys(got), sum, len(files))
	}
	seen, contents := map[string]bool{}, map[string]bool{}
	for rel, content := range got {
		name := filepath.Base(rel)
		if len(name) > 255 {
			t.Errorf("name of %d bytes: %q", len(name), name)
		}
		if seen[layout.FoldKey(name)] {
			t.Errorf("%q collides with another name on a case-insensitive filesystem", name)
		}
		seen[layout.FoldKey(name)] = true
		contents[content] = true
	}
	for name, content := range files {
		if !contents[string(content)] {
			t.Errorf("the content of %q is not in the library", name)
		}
	}
	if sum.Renamed != 3 {
		t.Errorf("renamed = %d, want 3 (one of each colliding pair)", sum.Renamed)
	}
	assertSame(t, snapshot(t, c.src), before)
	assertNoTemps(t, c.dst)
}

// jpegWithDate returns a fixture JPEG whose EXIF date fields read raw,
// which may be no date at all ("0000:00:00 00:00:00").
func jpegWithDate(raw string) []byte {
	const placeholder = "2011:11:11 11:11:11"
	b := fixture.JPEG(fixture.EXIF{When: time.Date(2011, 11, 11, 11, 11, 11, 0, time.UTC), Comment: raw})
	return bytes.ReplaceAll(b, []byte(placeholder), []byte(raw))
}

// TestAbsurdDatesFallBack: impossible capture dates are not believed; the
// file is dated by the next source (here its modification time) with a
// warning, and lands.
func TestAbsurdDatesFallBack(t *testing.T) {
	dates := map[string]string{
		"zero.jpg":    "0000:00:00 00:00:00",
		"future.jpg":  "9999:12:31 23:59:59",
		"feb30.jpg":   "2021:02:30 12:00:00",
		"month13.jpg": "2021:13:01 12:00:00",
		"old.jpg":     "1850:01:01 00:00:00",
		"epoch.jpg":   "1970:01:01 00:00:00",
	}
	files := map[string][]byte{}
	for name, raw := range dates {
		files[name] = jpegWithDate(raw)
	}
	c := newRelCase(t, files)
	mtime := time.Date(2016, 5, 17, 9, 0, 0, 0, time.Local)
	for name := range files {
		os.Chtimes(filepath.Join(c.src, name), mtime, mtime)
	}
	sum := c.mustSort()
	if sum.Transferred != int64(len(files)) || sum.ModTimeOnly+sum.Sources["mtime"] == 0 {
		t.Errorf("summary %+v, want every file transferred, dated by mtime", sum)
	}
	got := snapshot(t, c.dst)
	for name := range files {
		if _, ok := got["2016/2016-05-17/"+name]; !ok {
			t.Errorf("%s not dated by its mtime; library = %v", name, keys(got))
		}
	}
	warned := map[string]bool{}
	for _, ev := range c.rec.ofType("warning") {
		warned[filepath.Base(ev.Src)] = true
	}
	for name := range files {
		if !warned[name] {
			t.Errorf("no warning that %s (%s) has an unusable date", name, dates[name])
		}
	}
}

// damaged writes truncated and bit-flipped variants of data into dir,
// deterministically.
func damaged(t *testing.T, dir, name string, data []byte, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x5ee0))
	write := func(suffix string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, suffix+"-"+name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, cut := range []int{1, 11, len(data) / 3, len(data) - 1} {
		if cut > 0 && cut < len(data) {
			write(fmt.Sprintf("cut%d", cut), data[:cut])
		}
	}
	for v := 0; v < 3; v++ {
		b := append([]byte(nil), data...)
		head := min(len(b), 64<<10)
		for i := 0; i < 8 && head > 0; i++ {
			b[rng.IntN(head)] ^= byte(1 << rng.IntN(8))
		}
		write(fmt.Sprintf("flip%d", v), b)
	}
}

// TestDamagedFilesNeverCrashTheRun: truncated and bit-flipped photos go
// through the whole pipeline: each is sorted or reported, none crashes it.
func TestDamagedFilesNeverCrashTheRun(t *testing.T) {
	c := newRelCase(t, nil)
	if err := os.MkdirAll(c.src, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, when := range []time.Time{time.Date(2019, 7, 4, 10, 0, 0, 0, time.UTC), time.Date(2020, 2, 29, 23, 59, 59, 0, time.UTC)} {
		data := fixture.JPEG(fixture.EXIF{When: when, SubSec: "123", Offset: "+02:00", Camera: fixture.Camera{Make: "Canon", Model: "EOS"}})
		damaged(t, c.src, fmt.Sprintf("gen%d.jpg", i), data, uint64(i))
	}
	checkDamagedRun(t, c)
}

// TestDamagedCorpusFilesNeverCrashTheRun does the same with real camera
// files from the shared corpus.
func TestDamagedCorpusFilesNeverCrashTheRun(t *testing.T) {
	fsxtest.SkipSlowUnderWine(t, "a sort of the damaged corpus")
	corpus := fixture.CorpusDir(t)
	c := newRelCase(t, nil)
	if err := os.MkdirAll(c.src, 0o755); err != nil {
		t.Fatal(err)
	}
	n := 0
	filepath.WalkDir(filepath.Join(corpus, "digicam"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || n >= 40 {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > 4<<20 {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		n++
		damaged(t, c.src, fmt.Sprintf("%03d-%s", n, d.Name()), data, uint64(n))
		return nil
	})
	if n == 0 {
		t.Skip("no corpus files small enough")
	}
	checkDamagedRun(t, c)
}

func checkDamagedRun(t *testing.T, c *relCase) {
	t.Helper()
	before := snapshot(t, c.src)
	sum := c.mustSort()
	assertFailedOnly(t, c.rec, nil)
	if handled := sum.Transferred + sum.Duplicates + sum.Ignored + sum.Identical; handled != sum.Scanned {
		t.Errorf("summary %+v: %d of %d files accounted for", sum, handled, sum.Scanned)
	}
	assertSame(t, snapshot(t, c.src), before)
	assertNoTemps(t, c.dst)
}

// TestHostileCorpusDryRunStaysBounded runs every fuzzer-found and
// parser-hanging file through a dry run, watching the heap.
func TestHostileCorpusDryRunStaysBounded(t *testing.T) {
	fsxtest.SkipSlowUnderWine(t, "a dry run over the hostile corpus")
	corpus := fixture.CorpusDir(t)
	rec := &recorder{}
	cfg := relConfig([]string{filepath.Join(corpus, "fuzzed"), filepath.Join(corpus, "hangs")}, filepath.Join(t.TempDir(), "lib"), rec)
	cfg.DryRun = true
	cfg.Hidden = true
	peak := watchHeap(t)
	c := &relCase{t: t, cfg: cfg, rec: rec}
	sum := c.mustSort()
	if sum.Scanned < 1000 {
		t.Errorf("scanned %d files, want the whole fuzzed/ and hangs/ corpus", sum.Scanned)
	}
	if mb := peak() >> 20; mb > 200 {
		t.Errorf("heap peaked at %d MB, want under 200 MB", mb)
	}
	if _, err := os.Stat(cfg.Dest); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("dry run created the library: %v", err)
	}
}

// watchHeap samples the Go heap until the returned function is called and
// returns the largest HeapInuse seen.
func watchHeap(t *testing.T) func() uint64 {
	runtime.GC() // start from this test's own heap, not earlier tests' garbage
	var peak uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	sample := func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	}
	go func() {
		defer close(done)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			sample()
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	var once sync.Once
	finish := func() uint64 {
		once.Do(func() { close(stop); <-done })
		return peak
	}
	t.Cleanup(func() { finish() })
	return finish
}
