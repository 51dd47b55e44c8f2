package pipeline

import (
	"github.com/shoebox-photos/shoebox/internal/digest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/importlog"
	"github.com/shoebox-photos/shoebox/internal/store"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// renumberHistory rewrites the library's import history as if every
// source's inode had been numbered afresh since it was imported (what a
// FUSE mount such as sshfs does once the kernel forgets its files, and a
// FAT card at every mount): same files, same places, other identities.
// With copies, the library copies' too (a library on such a mount).
func renumberHistory(t *testing.T, lib string, copies ...bool) {
	t.Helper()
	l, err := importlog.Open(StateDir(lib), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var all []importlog.Entry
	if err := l.Each(func(e importlog.Entry) error { all = append(all, e); return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Forget(func(yield func(string) bool) {
		for _, e := range all {
			if !yield(e.Path) {
				return
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	rec := l.Recorder()
	for _, e := range all {
		e.Dev, e.Ino = e.Dev+1000, e.Ino+1_000_000
		if len(copies) > 0 && copies[0] {
			e.LibDev, e.LibIno = e.LibDev+1000, e.LibIno+1_000_000
		}
		if err := rec.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.Commit(); err != nil {
		t.Fatal(err)
	}
}

// onRenumberingFS runs the test as if the sources were on a filesystem
// that numbers inodes afresh (storage.RenumbersInodes).
func onRenumberingFS(t *testing.T, yes bool) {
	old := renumbersInodes
	renumbersInodes = func(string) bool { return yes }
	t.Cleanup(func() { renumbersInodes = old })
}

// On a filesystem that renumbers inodes, a re-run recognises the files it
// imported by their place, size, mtime and change time, without reading
// them; on one that keeps them, other numbers mean other files (compared
// by content).
func TestRenumberedSourcesAreRecognisedByTheirPlace(t *testing.T) {
	for _, renumbering := range []bool{true, false} {
		t.Run(map[bool]string{true: "fuse", false: "ext4"}[renumbering], func(t *testing.T) {
			onRenumberingFS(t, renumbering)
			root := t.TempDir()
			src, _ := cardOf(t, root, 6, 1000)
			lib := filepath.Join(root, "lib")
			if sum, _ := sortTree(t, []string{src}, lib); sum.Transferred != 6 {
				t.Fatalf("first run: %+v", sum)
			}
			renumberHistory(t, lib)
			sum, _ := sortTree(t, []string{src}, lib)
			want := int64(0)
			if renumbering {
				want = 6
			}
			if sum.Recalled != want || sum.Identical != 6 || sum.Transferred != 0 {
				t.Errorf("re-run %+v: want %d recognised unread, all 6 already in the library", sum, want)
			}
		})
	}
}

// The place rule still catches a changed file: another size, another
// mtime, or the same bytes in another folder are not the imported file.
func TestRenumberedSourcesChangedOrMovedAreNotRecognised(t *testing.T) {
	onRenumberingFS(t, true)
	root := t.TempDir()
	src, _ := cardOf(t, root, 4, 1000)
	lib := filepath.Join(root, "lib")
	sortTree(t, []string{src}, lib)
	renumberHistory(t, lib)

	grown := filepath.Join(src, "DCIM/IMG_000.JPG")
	b, _ := os.ReadFile(grown)
	if err := os.WriteFile(grown, append(b, 1), 0o644); err != nil {
		t.Fatal(err)
	}
	touched := filepath.Join(src, "DCIM/IMG_001.JPG")
	later := time.Now().Add(-time.Hour)
	if err := os.Chtimes(touched, later, later); err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(src, "other", "IMG_002.JPG")
	if err := os.MkdirAll(filepath.Dir(moved), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(src, "DCIM/IMG_002.JPG"), moved); err != nil {
		t.Fatal(err)
	}
	sum, rec := sortTree(t, []string{src}, lib)
	if sum.Recalled != 1 {
		t.Errorf("re-run %+v: want only the untouched IMG_003 recognised unread", sum)
	}
	got := outcomes(rec)
	if got[grown] != OutRenamed {
		t.Errorf("grown file: %s, want it landed beside its old copy", got[grown])
	}
	for _, p := range []string{touched, moved} {
		if got[p] != OutIdentical || rec.reportedWith(p, "recognised by the import history") {
			t.Errorf("%s: %s, want already in the library by content, not by the history", p, got[p])
		}
	}
}

// A library on such a filesystem (the bench's sshfs rows: sources and
// library on one mount) has its copies renumbered too. A re-run takes the
// copy at the recorded path with the size, mtime and change time it had
// once it landed for the one shoebox left, reading neither file; a copy
// rewritten since, even with its size and mtime put back, has another
// change time, and its source is compared by content. Where inodes last,
// other numbers are other files: everything is compared by content.
func TestRenumberedLibraryCopiesAreRecognisedByTheirPlace(t *testing.T) {
	for _, renumbering := range []bool{true, false} {
		t.Run(map[bool]string{true: "fuse", false: "ext4"}[renumbering], func(t *testing.T) {
			onRenumberingFS(t, renumbering)
			root := t.TempDir()
			src, files := cardOf(t, root, 6, 1000)
			lib := filepath.Join(root, "lib")
			if sum, _ := sortTree(t, []string{src}, lib); sum.Transferred != 6 {
				t.Fatalf("first run: %+v", sum)
			}
			renumberHistory(t, lib, true)

			victim := filepath.Join(src, "DCIM/IMG_004.JPG")
			rewriteKeepingSizeAndMtime(t, landedAt(t, lib, files["DCIM/IMG_004.JPG"]))

			sum, rec := sortTree(t, []string{src}, lib)
			want := int64(0)
			if renumbering {
				want = 5
			}
			if sum.Recalled != want || sum.Identical != 5 || sum.Transferred != 1 {
				t.Errorf("re-run %+v: want %d recognised unread, 5 already in the library, the one whose copy was rewritten landed beside it", sum, want)
			}
			if rec.reportedWith(victim, "recognised by the import history") {
				t.Errorf("%s was recognised by the history though its library copy was rewritten", victim)
			}
		})
	}
}

// rewriteKeepingSizeAndMtime gives a file other bytes of the same length
// and puts its mtime back: only its change time tells.
func rewriteKeepingSizeAndMtime(t *testing.T, p string) {
	t.Helper()
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 0xff
	time.Sleep(20 * time.Millisecond) // past the change time's granularity
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
}

// CheckByPlace is Check without the copy's device and inode: size, mtime
// and change time must still hold.
func TestCheckByPlaceIgnoresOnlyTheCopysNumbers(t *testing.T) {
	lib := t.TempDir()
	p := filepath.Join(lib, "x.jpg")
	if err := os.WriteFile(p, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(p)
	dev, ino, ctime := importlog.Identity(p, info)
	ok := importlog.Entry{Path: "x.jpg", LibSize: 3, LibModTime: info.ModTime().UnixNano(), LibDev: dev, LibIno: ino, LibCTime: ctime}
	renumbered := ok
	renumbered.LibDev, renumbered.LibIno = dev+1, ino+1
	rewritten := renumbered
	rewritten.LibCTime--
	resized := renumbered
	resized.LibSize = 4
	touched := renumbered
	touched.LibModTime++
	old := ok
	old.LibDev, old.LibIno, old.LibCTime = 0, 0, 0 // an entry of version 1
	for _, c := range []struct {
		name        string
		e           importlog.Entry
		check, byPl importlog.State
	}{
		{"as recorded", ok, importlog.Intact, importlog.Intact},
		{"renumbered", renumbered, importlog.Unsure, importlog.Intact},
		{"another change time", rewritten, importlog.Unsure, importlog.Unsure},
		{"another size", resized, importlog.Changed, importlog.Changed},
		{"another mtime", touched, importlog.Changed, importlog.Changed},
	} {
		if ino == 0 && c.name == "renumbered" {
			continue // no identity on this platform
		}
		if got := c.e.Check(lib); got != c.check {
			t.Errorf("%s: Check = %s, want %s", c.name, got, c.check)
		}
		if got := c.e.CheckByPlace(lib); got != c.byPl {
			t.Errorf("%s: CheckByPlace = %s, want %s", c.name, got, c.byPl)
		}
	}
	if ctime != 0 {
		if got := old.CheckByPlace(lib); got != importlog.Unsure {
			t.Errorf("entry without the copy's change time: CheckByPlace = %s, want %s", got, importlog.Unsure)
		}
	}
}

// In hardlink mode the library file is the source's inode: linking it
// moved its change time, which the history records as the source's, so a
// re-run recognises every file unread.
func TestHardlinkRerunRecognisesSources(t *testing.T) {
	root := t.TempDir()
	src, _ := cardOf(t, root, 5, 1000)
	lib := filepath.Join(root, "lib")
	hardlink := func(c *Config) { c.Mode = transfer.Hardlink }
	if sum, _ := sortTree(t, []string{src}, lib, hardlink); sum.Transferred != 5 {
		t.Fatalf("first run: %+v", sum)
	}
	sum, _ := sortTree(t, []string{src}, lib, hardlink)
	if sum.Recalled != 5 || sum.Identical != 5 || sum.Transferred != 0 {
		t.Errorf("hardlink re-run %+v: want all 5 recognised unread", sum)
	}
	// A source edited through either name is not recognised any more.
	p := filepath.Join(src, "DCIM/IMG_002.JPG")
	b, _ := os.ReadFile(p)
	time.Sleep(20 * time.Millisecond)
	if err := os.WriteFile(p, b, 0o644); err != nil { // same bytes, new change time
		t.Fatal(err)
	}
	if sum, _ := sortTree(t, []string{src}, lib, hardlink); sum.Recalled != 4 || sum.Identical != 5 {
		t.Errorf("after a write: %+v, want 4 recognised unread and the written one found in place", sum)
	}
}

// One damaged record in an otherwise readable history (garbage, or cut
// short) costs only its own file a content comparison: it is never
// skipped on the record's word, the others are still recognised unread,
// and the record is written anew.
func TestDamagedHistoryRecordIsIgnoredAndRebuilt(t *testing.T) {
	for _, damage := range []string{"garbage", "cut short"} {
		t.Run(damage, func(t *testing.T) {
			root := t.TempDir()
			src, _ := cardOf(t, root, 6, 1000)
			lib := filepath.Join(root, "lib")
			sortTree(t, []string{src}, lib)
			victim := filepath.Join(src, "DCIM/IMG_003.JPG")
			damageRecord(t, lib, victim, damage)

			sum, rec := sortTree(t, []string{src}, lib)
			if sum.Recalled != 5 || sum.Identical != 6 || sum.Transferred != 0 || sum.ImportedBefore != 0 {
				t.Errorf("re-run %+v: want 5 recognised unread, the damaged one found by content", sum)
			}
			if !rec.reportedWith(victim, "could not be read", "compared by content") {
				t.Errorf("no warning about the damaged record: %v", rec.events)
			}
			if sum, _ := sortTree(t, []string{src}, lib); sum.Recalled != 6 {
				t.Errorf("third run %+v: the damaged record was not written anew", sum)
			}
		})
	}
}

// damageRecord overwrites the history's record of src in lib.
func damageRecord(t *testing.T, lib, src, how string) {
	t.Helper()
	info, err := os.Stat(src)
	if err != nil {
		t.Fatal(err)
	}
	dev, ino, _ := importlog.Identity(src, info)
	st, err := store.Open(importlog.Dir(StateDir(lib)), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	key := store.AppendUint64(store.AppendUint64([]byte("i/"), dev), ino)
	v, ok, err := st.Get(key)
	if err != nil || !ok {
		t.Fatalf("no record of %s: %v", src, err)
	}
	bad := []byte{0xee, 0x01, 0x02}
	if how == "cut short" {
		bad = v[:len(v)/2]
	}
	w := st.Writer(1)
	if err := w.Put(key, bad); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
}

// On a library that numbers inodes afresh the hash cache ignores a
// stamp's device and inode, and nothing else: a copy changed in place
// with its size and mtime kept still has another change time.
func TestHashIndexByPlaceIgnoresOnlyTheNumbers(t *testing.T) {
	st, err := openLibraryIndex(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h := newHashIndex(st, t.TempDir())
	recorded := stamp{size: 10, mod: 20, ctime: 30, dev: 40, ino: 50}
	var sum digest.Sum
	sum[0] = 7
	if err := h.w.Put([]byte("h/x.jpg"), recorded.encode(sum)); err != nil {
		t.Fatal(err)
	}
	if err := h.flush(); err != nil {
		t.Fatal(err)
	}
	renumbered := recorded
	renumbered.dev, renumbered.ino = 41, 51
	rewritten := renumbered
	rewritten.ctime++
	for _, c := range []struct {
		name          string
		s             stamp
		exact, byPlac bool
	}{
		{"as recorded", recorded, true, true},
		{"renumbered", renumbered, false, true},
		{"another change time", rewritten, false, false},
	} {
		for _, byPlace := range []bool{false, true} {
			h.byPlace = byPlace
			_, ok := h.lookup("x.jpg", c.s)
			if want := map[bool]bool{false: c.exact, true: c.byPlac}[byPlace]; ok != want {
				t.Errorf("%s, byPlace %v: found %v, want %v", c.name, byPlace, ok, want)
			}
		}
	}
}

// The trust test of the hash cache, on a library taken to renumber its
// inodes: a copy rewritten with its size and mtime put back is still not
// the file it hashed.
func TestHashIndexByPlaceStillSeesACopyChangedWithSizeAndMtimeKept(t *testing.T) {
	onRenumberingFS(t, true)
	TestHashIndexDoesNotTrustAFileChangedWithSizeAndMtimeKept(t)
}
