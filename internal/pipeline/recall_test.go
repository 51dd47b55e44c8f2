package pipeline

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/importlog"
)

// bigPhoto is a real JPEG followed by size bytes of incompressible data
// (what a camera's image data is to a reader).
func bigPhoto(i, size int) []byte {
	b := photo(2019+i%3, time.Month(1+i%12), 1+i%28, 10, filepath.Join("p", string(rune('a'+i%26)), itoa(i)))
	pad := make([]byte, size)
	r := rand.New(rand.NewPCG(uint64(i), 7))
	for j := range pad {
		pad[j] = byte(r.Uint32())
	}
	return append(b, pad...)
}

func itoa(i int) string {
	return string(rune('0'+i/100%10)) + string(rune('0'+i/10%10)) + string(rune('0'+i%10))
}

func cardOf(t *testing.T, root string, n, size int) (string, map[string][]byte) {
	t.Helper()
	src := filepath.Join(root, "card")
	files := map[string][]byte{}
	for i := 0; i < n; i++ {
		files["DCIM/IMG_"+itoa(i)+".JPG"] = bigPhoto(i, size)
	}
	tree(t, src, files)
	return src, files
}

// outcomes maps each source to its op outcome.
func outcomes(rec *recorder) map[string]Outcome {
	out := map[string]Outcome{}
	for _, ev := range rec.events {
		if ev.Type == "op" {
			out[ev.Src] = ev.Outcome
		}
	}
	return out
}

// A re-run recognises every file from the history, with or without dedup,
// and says so; nothing is transferred.
func TestRerunRecognisesImportedFilesFromTheHistory(t *testing.T) {
	root := t.TempDir()
	src, files := cardOf(t, root, 20, 1000)
	lib := filepath.Join(root, "lib")
	if sum, _ := sortTree(t, []string{src}, lib); sum.Transferred != 20 {
		t.Fatalf("first run: %+v", sum)
	}
	for _, dedup := range []bool{true, false} {
		sum, rec := sortTree(t, []string{src}, lib, func(c *Config) { c.Dedup = dedup })
		if sum.Recalled != 20 || sum.Identical != 20 || sum.Transferred != 0 || sum.Media != 20 {
			t.Errorf("dedup=%v: re-run %+v; want all 20 recognised unread", dedup, sum)
		}
		for s, o := range outcomes(rec) {
			if o != OutIdentical {
				t.Errorf("%s: %s", s, o)
			}
		}
	}
	if n := len(snapshot(t, lib)); n != len(files) {
		t.Errorf("library holds %d files, want %d", n, len(files))
	}
}

// The rule trusts the change time: a source edited in place, same size,
// its mtime put back, is not recognised, and lands beside its old copy.
func TestSourceEditedInPlaceIsCaughtByItsChangeTime(t *testing.T) {
	root := t.TempDir()
	src, _ := cardOf(t, root, 3, 1000)
	lib := filepath.Join(root, "lib")
	sortTree(t, []string{src}, lib)
	p := filepath.Join(src, "DCIM/IMG_001.JPG")
	info, _ := os.Stat(p)
	b, _ := os.ReadFile(p)
	b[len(b)-1] ^= 0xff               // same size
	time.Sleep(20 * time.Millisecond) // let the change time move past the import's
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	sum, rec := sortTree(t, []string{src}, lib)
	if sum.Recalled != 2 || sum.Transferred != 1 || sum.Renamed != 1 {
		t.Errorf("summary %+v: want the edited source caught and landed under a new name", sum)
	}
	if o := outcomes(rec)[p]; o != OutRenamed {
		t.Errorf("edited source: %s, want %s", o, OutRenamed)
	}
}

// A library copy rewritten in place with its size and mtime put back (bit
// rot, a tool that restores the date) is not what shoebox left: its change
// time moved, so the quick check compares the source by content instead
// of trusting it, and imports it again beside the changed copy. --checksum
// trusts no stat data at all: it compares every file.
func TestLibraryCopyChangedInPlaceIsComparedByContent(t *testing.T) {
	for _, checksum := range []bool{false, true} {
		root := t.TempDir()
		src, files := cardOf(t, root, 3, 1000)
		lib := filepath.Join(root, "lib")
		sortTree(t, []string{src}, lib)
		srcPath := filepath.Join(src, "DCIM/IMG_001.JPG")
		copyPath := landedAt(t, lib, files["DCIM/IMG_001.JPG"])
		info, _ := os.Stat(copyPath)
		b, _ := os.ReadFile(copyPath)
		b[len(b)-1] ^= 0xff // same size
		time.Sleep(20 * time.Millisecond)
		if err := os.WriteFile(copyPath, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(copyPath, info.ModTime(), info.ModTime()); err != nil {
			t.Fatal(err)
		}
		recalled := int64(2)
		if checksum {
			recalled = 0
		}
		sum, rec := sortTree(t, []string{src}, lib, func(c *Config) { c.Checksum = checksum })
		if sum.Recalled != recalled || sum.Identical != 2 || sum.Transferred != 1 {
			t.Errorf("checksum=%v: %+v; want the changed copy caught, the source imported again", checksum, sum)
		}
		if o := outcomes(rec)[srcPath]; o != OutRenamed {
			t.Errorf("checksum=%v: source of the changed copy: %s, want %s", checksum, o, OutRenamed)
		}
	}
}

// A different file put in the copy's place (renamed over it) with the
// copy's size and mtime is another inode: the source is compared by
// content and imported again, never taken as "already in the library".
func TestLibraryCopyReplacedBySameSizeAndMtimeIsNotTrusted(t *testing.T) {
	root := t.TempDir()
	src, files := cardOf(t, root, 3, 1000)
	lib := filepath.Join(root, "lib")
	sortTree(t, []string{src}, lib)
	copyPath := landedAt(t, lib, files["DCIM/IMG_002.JPG"])
	info, _ := os.Stat(copyPath)
	other := bigPhoto(99, 1000-len(bigPhoto(99, 0))+len(bigPhoto(2, 0)))
	if len(other) != int(info.Size()) {
		t.Fatalf("test file of %d bytes, want %d", len(other), info.Size())
	}
	tmp := copyPath + ".other"
	if err := os.WriteFile(tmp, other, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(tmp, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, copyPath); err != nil {
		t.Fatal(err)
	}
	sum, rec := sortTree(t, []string{src}, lib)
	if sum.Recalled != 2 || sum.Transferred != 1 {
		t.Errorf("%+v; want the replaced copy's source compared and imported again", sum)
	}
	if o := outcomes(rec)[filepath.Join(src, "DCIM/IMG_002.JPG")]; o != OutRenamed {
		t.Errorf("source of the replaced copy: %s, want %s", o, OutRenamed)
	}
	landedAt(t, lib, files["DCIM/IMG_002.JPG"])
}

// A library copied elsewhere (mtimes kept, as cp -a or rsync -a do) takes
// its history along, but its files are other inodes: the first sort into
// the copy compares by content (all already there) and records them anew;
// the next reads nothing. Nothing is imported twice, nothing left out.
func TestCopiedLibraryIsComparedByContentOnce(t *testing.T) {
	root := t.TempDir()
	src, files := cardOf(t, root, 4, 1000)
	lib := filepath.Join(root, "lib")
	sortTree(t, []string{src}, lib)
	lib2 := filepath.Join(root, "lib2")
	copyTreeKeepingTimes(t, lib, lib2)
	sum, _ := sortTree(t, []string{src}, lib2)
	if sum.Recalled != 0 || sum.Identical != 4 || sum.Transferred != 0 || sum.ImportedBefore != 0 {
		t.Errorf("first sort into the copied library: %+v; want all 4 found by content", sum)
	}
	if sum, _ := sortTree(t, []string{src}, lib2); sum.Recalled != 4 || sum.Identical != 4 {
		t.Errorf("second sort into the copied library: %+v; want all 4 recognised", sum)
	}
	if n := len(snapshot(t, lib2)); n != len(files) {
		t.Errorf("copied library holds %d files, want %d", n, len(files))
	}
}

// copyTreeKeepingTimes copies dir to dst with every file's mtime.
func copyTreeKeepingTimes(t *testing.T, dir, dst string) {
	t.Helper()
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		to := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(to, b, info.Mode().Perm()); err != nil {
			return err
		}
		return os.Chtimes(to, info.ModTime(), info.ModTime())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A history entry for a file's inode and stat data, but recorded from
// another place (another card whose camera handed out the same numbers, a
// FAT card whose inode numbers the kernel dealt afresh) does not make
// shoebox skip the file: it is read and imported. The same card at
// another mount point is still recognised.
func TestHistoryEntryFromAnotherPlaceIsNotThisFile(t *testing.T) {
	root := t.TempDir()
	src, _ := cardOf(t, root, 2, 1000)
	lib := filepath.Join(root, "lib")
	sortTree(t, []string{src}, lib)
	// Rewrite both entries as if their sources had been elsewhere: one in
	// another folder of a card, one at another mount point.
	l, err := importlog.Open(StateDir(lib), nil)
	if err != nil {
		t.Fatal(err)
	}
	var entries []importlog.Entry
	l.Each(func(e importlog.Entry) error { entries = append(entries, e); return nil })
	if len(entries) != 2 {
		t.Fatalf("history holds %d entries, want 2", len(entries))
	}
	w := l.Recorder()
	for _, e := range entries {
		switch filepath.Base(e.Src) {
		case "IMG_000.JPG":
			e.Src = filepath.Join(root, "other-card", "DCIM", "101CANON", "IMG_000.JPG")
		case "IMG_001.JPG":
			e.Src = filepath.Join("/media/someone/EOS_DIGITAL1", "DCIM", "IMG_001.JPG")
		}
		if err := w.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	l.Close()
	// Cull both copies: a source the history recognises stays out.
	for _, e := range entries {
		if err := os.Remove(e.LibraryPath(lib)); err != nil {
			t.Fatal(err)
		}
	}
	sum, rec := sortTree(t, []string{src}, lib)
	got := outcomes(rec)
	if o := got[filepath.Join(src, "DCIM/IMG_000.JPG")]; o != OutTransferred {
		t.Errorf("source whose entry came from another folder: %s, want %s (%+v)", o, OutTransferred, sum)
	}
	if o := got[filepath.Join(src, "DCIM/IMG_001.JPG")]; o != OutImportedBefore {
		t.Errorf("source recorded under another mount point: %s, want %s (%+v)", o, OutImportedBefore, sum)
	}
}

// SameSource needs every stat field and the place; Check tells an intact
// copy from one that is gone, changed or another file.
func TestSameSourceAndCheckRules(t *testing.T) {
	e := importlog.Entry{Dev: 1, Ino: 2, Size: 3, ModTime: 4, CTime: 5, Src: "/media/a/CARD/DCIM/100/IMG_1.JPG"}
	for _, c := range []struct {
		dev, ino   uint64
		size, m, c int64
		rel        string
		want       bool
	}{
		{1, 2, 3, 4, 5, "DCIM/100/IMG_1.JPG", true},
		{1, 2, 3, 4, 5, "100/IMG_1.JPG", true},
		{1, 2, 3, 4, 5, "IMG_1.JPG", true},
		{1, 2, 3, 4, 5, "MG_1.JPG", false},
		{1, 2, 3, 4, 5, "DCIM/101/IMG_1.JPG", false},
		{1, 2, 3, 4, 5, "", false},
		{1, 2, 3, 4, 6, "DCIM/100/IMG_1.JPG", false}, // inode reused: a new change time
		{1, 2, 3, 5, 5, "DCIM/100/IMG_1.JPG", false},
		{1, 2, 4, 4, 5, "DCIM/100/IMG_1.JPG", false},
		{1, 3, 3, 4, 5, "DCIM/100/IMG_1.JPG", false},
		{2, 2, 3, 4, 5, "DCIM/100/IMG_1.JPG", false},
	} {
		if got := e.SameSource(c.dev, c.ino, c.size, c.m, c.c, filepath.FromSlash(c.rel)); got != c.want {
			t.Errorf("SameSource(%v) = %v, want %v", c, got, c.want)
		}
	}
	lib := t.TempDir()
	p := filepath.Join(lib, "x.jpg")
	if err := os.WriteFile(p, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(p)
	dev, ino, ctime := importlog.Identity(p, info)
	ok := importlog.Entry{Path: "x.jpg", LibSize: 3, LibModTime: info.ModTime().UnixNano(), LibDev: dev, LibIno: ino, LibCTime: ctime}
	old := ok
	old.LibDev, old.LibIno, old.LibCTime = 0, 0, 0 // an entry of version 1
	moved := ok
	moved.LibIno++
	resized := ok
	resized.LibSize = 4
	gone := ok
	gone.Path = "y.jpg"
	for _, c := range []struct {
		e    importlog.Entry
		want importlog.State
	}{{ok, importlog.Intact}, {moved, importlog.Unsure}, {resized, importlog.Changed}, {gone, importlog.Gone}} {
		if got := c.e.Check(lib); got != c.want {
			t.Errorf("Check(%+v) = %s, want %s", c.e, got, c.want)
		}
	}
	if ino != 0 {
		if got := old.Check(lib); got != importlog.Unsure {
			t.Errorf("entry without the copy's identity: %s, want %s", got, importlog.Unsure)
		}
	}
}

// landedAt finds the library file holding content.
func landedAt(t *testing.T, lib string, content []byte) string {
	t.Helper()
	for rel, got := range snapshot(t, lib) {
		if got == string(content) {
			return filepath.Join(lib, filepath.FromSlash(rel))
		}
	}
	t.Fatal("not in the library")
	return ""
}

// Culled photos stay culled; an edited copy does not bring its original
// back as -1; --reimport brings them back on purpose.
func TestCulledAndEditedPhotosStayOut(t *testing.T) {
	root := t.TempDir()
	src, files := cardOf(t, root, 4, 1000)
	lib := filepath.Join(root, "lib")
	sortTree(t, []string{src}, lib)
	culled := landedAt(t, lib, files["DCIM/IMG_000.JPG"])
	edited := landedAt(t, lib, files["DCIM/IMG_001.JPG"])
	if err := os.Remove(culled); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(edited, []byte("edited in an editor"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, lib)
	for _, dedup := range []bool{true, false} {
		sum, rec := sortTree(t, []string{src}, lib, func(c *Config) { c.Dedup = dedup })
		if sum.ImportedBefore != 2 || sum.Identical != 2 || sum.Transferred != 0 {
			t.Errorf("dedup=%v: %+v; want 2 imported before, 2 already there", dedup, sum)
		}
		got := outcomes(rec)
		for _, name := range []string{"IMG_000.JPG", "IMG_001.JPG"} {
			if o := got[filepath.Join(src, "DCIM", name)]; o != OutImportedBefore {
				t.Errorf("dedup=%v: %s: %s, want %s", dedup, name, o, OutImportedBefore)
			}
		}
	}
	assertSame(t, snapshot(t, lib), before)
	sum, _ := sortTree(t, []string{src}, lib, func(c *Config) { c.Reimport = true })
	if sum.Transferred != 2 || sum.ImportedBefore != 0 {
		t.Errorf("--reimport: %+v; want both brought back", sum)
	}
	if _, err := os.Stat(culled); err != nil {
		t.Errorf("culled photo not brought back to its place: %v", err)
	}
	// Brought back, they are in the history again: the next run reads nothing.
	if sum, _ := sortTree(t, []string{src}, lib); sum.Recalled != 4 || sum.Identical != 4 {
		t.Errorf("after --reimport: %+v; want all four recognised", sum)
	}
}

// A history from before this feature (or lost to a kill) heals itself:
// the first re-run compares by content and records, the next reads nothing.
func TestLostHistoryIsRebuiltByContent(t *testing.T) {
	root := t.TempDir()
	src, _ := cardOf(t, root, 5, 1000)
	lib := filepath.Join(root, "lib")
	sortTree(t, []string{src}, lib)
	if err := os.RemoveAll(importlog.Dir(StateDir(lib))); err != nil {
		t.Fatal(err)
	}
	if sum, _ := sortTree(t, []string{src}, lib); sum.Recalled != 0 || sum.Identical != 5 {
		t.Fatalf("without history: %+v", sum)
	}
	if sum, _ := sortTree(t, []string{src}, lib); sum.Recalled != 5 || sum.Identical != 5 {
		t.Errorf("after the healing run: %+v; want all recognised", sum)
	}
	// A torn history (a kill while pebble created it) is started anew with a warning.
	manifest, _ := filepath.Glob(filepath.Join(importlog.Dir(StateDir(lib)), "MANIFEST-*"))
	for _, m := range manifest {
		if err := os.Truncate(m, 3); err != nil {
			t.Fatal(err)
		}
	}
	sum, rec := sortTree(t, []string{src}, lib)
	if sum.Identical != 5 || sum.Failed != 0 {
		t.Errorf("torn history: %+v", sum)
	}
	if !rec.reportedWith("", "import history") && len(manifest) > 0 {
		t.Error("no warning about the torn history")
	}
}

// A dry run reads the history and predicts what the real run does,
// without writing to the library.
func TestDryRunPredictsFromTheHistory(t *testing.T) {
	root := t.TempDir()
	src, files := cardOf(t, root, 3, 1000)
	lib := filepath.Join(root, "lib")
	sortTree(t, []string{src}, lib)
	if err := os.Remove(landedAt(t, lib, files["DCIM/IMG_002.JPG"])); err != nil {
		t.Fatal(err)
	}
	state := snapshotAll(t, StateDir(lib))
	sum, _ := sortTree(t, []string{src}, lib, func(c *Config) { c.DryRun = true })
	if sum.ImportedBefore != 1 || sum.Identical != 2 || sum.Transferred != 0 {
		t.Errorf("dry run: %+v", sum)
	}
	if got := snapshotAll(t, StateDir(lib)); !bytes.Equal([]byte(got), []byte(state)) {
		t.Errorf("the dry run changed the library's state folder:\n%s\n%s", state, got)
	}
}

// snapshotAll lists every file under dir with its size and mtime.
func snapshotAll(t *testing.T, dir string) string {
	t.Helper()
	var b bytes.Buffer
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			b.WriteString(p + " " + info.ModTime().String() + " " + itoa(int(info.Size())) + "\n")
		}
		return nil
	})
	return b.String()
}

// A library copied elsewhere (to a new disk, or beside itself) with its
// state folder, but not whole (an interrupted copy, a folder left out):
// the history's records came along, and a photo missing from the copy was
// never deleted from it. Its absence proves nothing about this library,
// so the file is imported, not left out as "imported before". A photo
// deleted from the copied library after a sort into it has recorded its
// own files stays out, as in any library.
func TestPartlyCopiedLibraryImportsWhatItLacks(t *testing.T) {
	root := t.TempDir()
	src, files := cardOf(t, root, 4, 1000)
	lib := filepath.Join(root, "lib")
	sortTree(t, []string{src}, lib)
	lib2 := filepath.Join(root, "lib2")
	copyTreeKeepingTimes(t, lib, lib2)
	photos := snapshot(t, lib2)
	var missing string
	for p := range photos {
		missing = p
		break
	}
	if err := os.Remove(filepath.Join(lib2, filepath.FromSlash(missing))); err != nil {
		t.Fatal(err)
	}
	sum, _ := sortTree(t, []string{src}, lib2)
	if sum.ImportedBefore != 0 || sum.Transferred != 1 || sum.Identical != 3 {
		t.Errorf("sort into the partly copied library: %+v; want the missing photo imported, the 3 others found by content", sum)
	}
	if n := len(snapshot(t, lib2)); n != len(files) {
		t.Errorf("copied library holds %d files, want %d", n, len(files))
	}
	// Culled in the copy once the copy's own sort recorded it: stays out.
	if err := os.Remove(filepath.Join(lib2, filepath.FromSlash(missing))); err != nil {
		t.Fatal(err)
	}
	if sum, _ := sortTree(t, []string{src}, lib2); sum.ImportedBefore != 1 || sum.Transferred != 0 {
		t.Errorf("sort after a cull in the copied library: %+v; want it left out as imported before", sum)
	}
}

// A re-run with nothing to do leaves the import history as it found it:
// it reads the history without opening it for writing (which would write
// a new manifest and log). A re-run that does import something opens it
// for writing then, and records the file: the run after recognises it.
func TestNoOpRerunLeavesTheImportHistoryUntouched(t *testing.T) {
	root := t.TempDir()
	src, _ := cardOf(t, root, 12, 500)
	lib := filepath.Join(root, "lib")
	if sum, _ := sortTree(t, []string{src}, lib); sum.Transferred != 12 {
		t.Fatalf("first run: %+v", sum)
	}
	history := importlog.Dir(StateDir(lib))
	before := snapshotAll(t, history)
	if sum, _ := sortTree(t, []string{src}, lib); sum.Recalled != 12 || sum.Transferred != 0 {
		t.Fatalf("no-op re-run: %+v", sum)
	}
	if after := snapshotAll(t, history); after != before {
		t.Errorf("a no-op re-run changed the import history:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	tree(t, src, map[string][]byte{"DCIM/IMG_900.JPG": bigPhoto(900, 500)})
	if sum, _ := sortTree(t, []string{src}, lib); sum.Recalled != 12 || sum.Transferred != 1 {
		t.Fatalf("re-run with one new file: %+v", sum)
	}
	if sum, _ := sortTree(t, []string{src}, lib); sum.Recalled != 13 || sum.Transferred != 0 {
		t.Errorf("the new file was not recorded in the history: %+v", sum)
	}
}
