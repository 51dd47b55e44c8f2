package check_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/check"
	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/store"
	"github.com/shoebox-photos/shoebox/internal/undo"
)

// backedUp is a library sorted with a backup folder, and that folder.
func backedUp(t *testing.T) (lib, bak string) {
	t.Helper()
	bak = filepath.Join(t.TempDir(), "backup")
	if err := os.Mkdir(bak, 0o755); err != nil {
		t.Fatal(err)
	}
	return library(t, "--backup", bak), bak
}

// repair runs check --repair and returns what it found and repaired.
func repair(t *testing.T, opt check.Options) (check.Stats, []check.Problem, []check.Repair) {
	t.Helper()
	var rs []check.Repair
	opt.Repair = true
	opt.Args = []string{"check", "--repair", opt.Library}
	opt.Repaired = func(r check.Repair) { rs = append(rs, r) }
	st, ps := run(t, opt)
	return st, ps, rs
}

func repaired(rs []check.Repair, base, copy string) bool {
	return slices.ContainsFunc(rs, func(r check.Repair) bool {
		return r.Repaired && filepath.Base(r.Path) == base && r.Copy == copy
	})
}

func declined(rs []check.Repair, base, copy, why string) bool {
	return slices.ContainsFunc(rs, func(r check.Repair) bool {
		return !r.Repaired && filepath.Base(r.Path) == base && r.Copy == copy && strings.Contains(r.Reason, why)
	})
}

func read(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mtime(t *testing.T, p string) time.Time {
	t.Helper()
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return info.ModTime()
}

// A flipped byte, a deleted library file and a deleted backup copy are
// healed from the verified other copy; a second check finds the library
// and backup intact, and a second repair does nothing and leaves no run.
func TestRepairHealsFromAVerifiedCopy(t *testing.T) {
	lib, bak := backedUp(t)
	corrupt, gone := find(t, lib, "IMG_2.JPG"), find(t, lib, "IMG_3.JPG")
	good, goneBytes, goneTime := read(t, corrupt), read(t, gone), mtime(t, gone)
	flipByte(t, corrupt)
	damaged := read(t, corrupt)
	for _, p := range []string{gone, find(t, bak, "IMG_4.JPG")} {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	// The backup copy's mtime is not the library's (a FAT drive's two
	// seconds): the restored file still lands with the recorded one.
	os.Chtimes(find(t, bak, "IMG_3.JPG"), goneTime.Add(time.Second), goneTime.Add(time.Second))

	st, ps, rs := repair(t, check.Options{Library: lib, Backup: bak, ReadData: true})
	if !has(ps, check.Corrupt, "IMG_2.JPG", check.InLibrary) || !repaired(rs, "IMG_2.JPG", check.InLibrary) ||
		!repaired(rs, "IMG_3.JPG", check.InLibrary) || !repaired(rs, "IMG_4.JPG", check.InBackup) {
		t.Fatalf("not repaired: problems %+v, repairs %+v", ps, rs)
	}
	if st.Problems() != 0 || st.Library.Repaired != 2 || st.Backup.Repaired != 1 || st.RepairRun == "" {
		t.Errorf("stats %+v, backup %+v, %d problems left", st, st.Backup, st.Problems())
	}
	if !bytes.Equal(read(t, corrupt), good) || !bytes.Equal(read(t, gone), goneBytes) || !mtime(t, gone).Equal(goneTime) {
		t.Error("the library files are not the recorded ones")
	}
	if !bytes.Equal(read(t, find(t, bak, "IMG_4.JPG")), read(t, find(t, lib, "IMG_4.JPG"))) {
		t.Error("the backup copy is not the library file's bytes")
	}
	kept := slices.IndexFunc(rs, func(r check.Repair) bool { return r.Kept != "" })
	if kept < 0 || !bytes.Equal(read(t, filepath.Join(lib, filepath.FromSlash(rs[kept].Kept))), damaged) {
		t.Fatalf("the damaged bytes were not kept: %+v", rs)
	}
	if !strings.HasPrefix(filepath.Join(lib, filepath.FromSlash(rs[kept].Kept)), check.DisplacedDir(lib, st.RepairRun)) {
		t.Errorf("kept at %s, outside the run's displaced folder", rs[kept].Kept)
	}

	if st, ps := run(t, check.Options{Library: lib, Backup: bak, ReadData: true}); len(ps) != 0 || st.Problems() != 0 {
		t.Errorf("after the repair: %+v", ps)
	}
	if st, ps, rs := repair(t, check.Options{Library: lib, Backup: bak, ReadData: true}); len(ps)+len(rs) != 0 || st.RepairRun != "" {
		t.Errorf("a second repair: problems %+v, repairs %+v, run %q", ps, rs, st.RepairRun)
	}
}

// Nothing is repaired from a copy whose hash is not the recorded one, nor
// an edited file overwritten: each is reported with why, and left as is.
func TestRepairNeverUsesAnUnprovedCopy(t *testing.T) {
	lib, bak := backedUp(t)
	both := find(t, lib, "IMG_2.JPG")
	flipByte(t, both)
	flipByte(t, find(t, bak, "IMG_2.JPG"))
	libBytes, bakBytes := read(t, both), read(t, find(t, bak, "IMG_2.JPG"))
	gone := find(t, lib, "IMG_3.JPG")
	os.Remove(gone)
	flipByte(t, find(t, bak, "IMG_3.JPG"))
	edited := find(t, lib, "IMG_4.JPG")
	write(t, edited, []byte("edited by the user"))
	os.Remove(find(t, bak, "IMG_4.JPG"))

	st, _, rs := repair(t, check.Options{Library: lib, Backup: bak, ReadData: true})
	if !declined(rs, "IMG_2.JPG", check.InLibrary, "does not match the recorded hash") ||
		!declined(rs, "IMG_2.JPG", check.InBackup, "not overwritten") ||
		!declined(rs, "IMG_3.JPG", check.InLibrary, "does not match the recorded hash") ||
		!declined(rs, "IMG_4.JPG", check.InLibrary, "edited") ||
		!declined(rs, "IMG_4.JPG", check.InBackup, "changed since it landed") {
		t.Fatalf("repairs %+v", rs)
	}
	if slices.ContainsFunc(rs, func(r check.Repair) bool { return r.Repaired }) || st.RepairRun != "" || st.Problems() == 0 {
		t.Errorf("something was repaired: %+v, run %q", rs, st.RepairRun)
	}
	if !bytes.Equal(read(t, both), libBytes) || !bytes.Equal(read(t, find(t, bak, "IMG_2.JPG")), bakBytes) {
		t.Error("a damaged copy was changed")
	}
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Error("a missing file was restored from a damaged copy")
	}
	if string(read(t, edited)) != "edited by the user" {
		t.Error("the edit was overwritten")
	}
}

// A file with no recorded hash is not repaired: no copy can be proved
// right. A hard link reads no byte, so records no hash; the
// backup here is a copy made by hand, checked with --backup.
func TestRepairNeedsARecordedHash(t *testing.T) {
	dir := t.TempDir()
	src, lib, bak := filepath.Join(dir, "src"), filepath.Join(dir, "lib"), filepath.Join(dir, "bak")
	write(t, filepath.Join(src, "IMG_1.JPG"), fixture.JPEG(fixture.EXIF{When: time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)}))
	write(t, filepath.Join(src, "IMG_2.JPG"), fixture.JPEG(fixture.EXIF{When: time.Date(2024, 5, 2, 12, 0, 0, 0, time.UTC), Comment: strings.Repeat("x", 3000)}))
	shoebox(t, "sort", "--mode", "hardlink", src, lib)
	one, two := find(t, lib, "IMG_1.JPG"), find(t, lib, "IMG_2.JPG")
	for _, p := range []string{one, two} {
		rel, _ := filepath.Rel(lib, p)
		write(t, filepath.Join(bak, rel), read(t, p))
	}
	os.Remove(one)
	os.Remove(find(t, bak, "IMG_2.JPG"))
	st, _, rs := repair(t, check.Options{Library: lib, Backup: bak})
	if !declined(rs, "IMG_1.JPG", check.InLibrary, "no hash was recorded") ||
		!declined(rs, "IMG_2.JPG", check.InBackup, "no hash was recorded") || st.RepairRun != "" || st.Problems() != 2 {
		t.Errorf("repairs %+v, %d problems, run %q", rs, st.Problems(), st.RepairRun)
	}
	if _, err := os.Stat(one); !os.IsNotExist(err) {
		t.Error("restored from a copy no hash proves")
	}
}

// A repair run is undone like a sort run: the restored files go, the
// damaged file comes back, the import history still records every file.
func TestRepairIsUndoable(t *testing.T) {
	lib, bak := backedUp(t)
	corrupt, gone := find(t, lib, "IMG_2.JPG"), find(t, lib, "IMG_3.JPG")
	flipByte(t, corrupt)
	damaged, damagedTime := read(t, corrupt), mtime(t, corrupt)
	os.Remove(gone)
	st, _, _ := repair(t, check.Options{Library: lib, Backup: bak, ReadData: true})
	if st.Problems() != 0 {
		t.Fatalf("repair left %d problems", st.Problems())
	}
	u, err := undo.Named(context.Background(), lib, st.RepairRun, undo.Options{})
	if err != nil || u.Reverted != 3 || u.Kept+u.Failed != 0 {
		t.Fatalf("undo: %+v, %v", u, err)
	}
	if !bytes.Equal(read(t, corrupt), damaged) || !mtime(t, corrupt).Equal(damagedTime) {
		t.Error("the damaged file is not back as it was")
	}
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Error("the restored file was not removed")
	}
	if _, err := os.Stat(check.DisplacedDir(lib, st.RepairRun)); !os.IsNotExist(err) {
		t.Error("the run's displaced folder was left behind")
	}
	_, ps := run(t, check.Options{Library: lib, Backup: bak, ReadData: true})
	if !has(ps, check.Corrupt, "IMG_2.JPG", check.InLibrary) || !has(ps, check.Missing, "IMG_3.JPG", check.InLibrary) ||
		slices.ContainsFunc(ps, func(p check.Problem) bool { return p.Kind == check.Stray }) {
		t.Errorf("after undo: %+v", ps)
	}
	// And repaired again.
	if st, _, _ := repair(t, check.Options{Library: lib, Backup: bak, ReadData: true}); st.Problems() != 0 {
		t.Errorf("repair after undo left %d problems", st.Problems())
	}
}

// --repair takes the library lock: it does not run beside a sort.
func TestRepairTakesTheLibraryLock(t *testing.T) {
	lib, bak := backedUp(t)
	unlock, err := store.Lock(filepath.Join(lib, ".shoebox"))
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	_, err = check.Run(context.Background(), check.Options{Library: lib, Backup: bak, Repair: true})
	if err == nil || !strings.Contains(err.Error(), "busy") {
		t.Errorf("repair of a locked library: %v", err)
	}
	if _, err := check.Run(context.Background(), check.Options{Library: lib, Backup: bak}); err != nil {
		t.Errorf("a read-only check of a locked library: %v", err)
	}
}
