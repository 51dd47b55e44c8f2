package check_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/check"
	"github.com/shoebox-photos/shoebox/internal/cli"
	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/importlog"
)

// The tests build a real library with the real command (sort, index),
// damage it the ways a disk and a user do, and check it.

// shoebox runs the command in-process and fails the test on a non-zero
// exit.
func shoebox(t *testing.T, args ...string) {
	t.Helper()
	var out, errs bytes.Buffer
	if code := cli.Run(context.Background(), cli.Env{Stdout: &out, Stderr: &errs}, args); code != 0 {
		t.Fatalf("shoebox %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errs.String())
	}
}

// library sorts photos (one with a sidecar, one RAW+JPEG pair) into a new
// library, records every file's hash with shoebox index, and returns it.
func library(t *testing.T, sortArgs ...string) (lib string) {
	t.Helper()
	dir := t.TempDir()
	src, lib := filepath.Join(dir, "src"), filepath.Join(dir, "lib")
	for i, name := range []string{"IMG_1.JPG", "IMG_2.JPG", "IMG_3.JPG", "IMG_4.JPG", "PAIR.JPG"} {
		jpeg := fixture.JPEG(fixture.EXIF{When: time.Date(2024, 5, 1+i, 12, 0, 0, 0, time.UTC), Comment: name + strings.Repeat("x", 5000)})
		write(t, filepath.Join(src, name), jpeg)
	}
	write(t, filepath.Join(src, "IMG_1.xmp"), []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"/>`))
	write(t, filepath.Join(src, "PAIR.DNG"), append([]byte("II*\x00"), bytes.Repeat([]byte{7}, 4000)...))
	shoebox(t, append(append([]string{"sort"}, sortArgs...), src, lib)...)
	shoebox(t, "index", lib)
	return lib
}

func write(t *testing.T, name string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// find is the library path of the file named base.
func find(t *testing.T, root, base string) string {
	t.Helper()
	var got string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == base && !d.IsDir() {
			got = p
		}
		return nil
	})
	if got == "" {
		t.Fatalf("%s not found under %s", base, root)
	}
	return got
}

// flipByte changes one byte in place and puts the size and mtime back:
// what a disk's silent corruption looks like to a stat.
func flipByte(t *testing.T, p string) {
	t.Helper()
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 1)
	f.ReadAt(b, 200)
	b[0] ^= 0x55
	if _, err := f.WriteAt(b, 200); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
}

func run(t *testing.T, opt check.Options) (check.Stats, []check.Problem) {
	t.Helper()
	var got []check.Problem
	opt.Problem = func(p check.Problem) { got = append(got, p) }
	st, err := check.Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return st, got
}

// has reports whether a problem of kind names the file base in which copy.
func has(ps []check.Problem, kind check.Kind, base, copy string) bool {
	return slices.ContainsFunc(ps, func(p check.Problem) bool {
		return p.Kind == kind && filepath.Base(p.Path) == base && p.Copy == copy
	})
}

func TestAnIntactLibraryHasNoProblems(t *testing.T) {
	lib := library(t)
	for _, read := range []bool{false, true} {
		st, ps := run(t, check.Options{Library: lib, ReadData: read})
		if len(ps) != 0 || st.Problems() != 0 {
			t.Errorf("read-data %v: %+v", read, ps)
		}
		if st.Files != 7 {
			t.Errorf("read-data %v: %d files checked, want 7", read, st.Files)
		}
		if read && (st.Read != 7 || st.NoRecord != 0) {
			t.Errorf("read %d files, %d with no record; want 7 read, all recorded", st.Read, st.NoRecord)
		}
	}
}

func TestFindsEveryKindOfDamage(t *testing.T) {
	lib := library(t)
	flipByte(t, find(t, lib, "IMG_2.JPG"))
	edited := find(t, lib, "IMG_3.JPG")
	if err := os.WriteFile(edited, []byte("edited in place"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"IMG_1.JPG", "PAIR.DNG"} {
		if err := os.Remove(find(t, lib, gone)); err != nil {
			t.Fatal(err)
		}
	}
	stray := filepath.Join(filepath.Dir(edited), "notes.txt")
	write(t, stray, []byte("mine"))

	// Fast: the stat finds all but the corruption.
	st, ps := run(t, check.Options{Library: lib})
	for _, want := range []struct {
		kind check.Kind
		base string
	}{{check.Missing, "IMG_1.JPG"}, {check.Missing, "PAIR.DNG"}, {check.Changed, "IMG_3.JPG"}, {check.Stray, "notes.txt"},
		{check.Separated, "IMG_1.xmp"}, {check.Separated, "PAIR.JPG"}} {
		if !has(ps, want.kind, want.base, check.InLibrary) {
			t.Errorf("fast check: no %s for %s in %+v", want.kind, want.base, ps)
		}
	}
	if has(ps, check.Corrupt, "IMG_2.JPG", check.InLibrary) || st.Read != 0 {
		t.Errorf("the fast check read files: %d read, %+v", st.Read, ps)
	}
	if st.Library.Strays != 1 || st.Problems() != 5 {
		t.Errorf("counts %+v, %d problems; want 1 stray (not a problem) and 5 problems", st.Library, st.Problems())
	}

	// Reading finds the flipped byte, and only it.
	st, ps = run(t, check.Options{Library: lib, ReadData: true})
	if !has(ps, check.Corrupt, "IMG_2.JPG", check.InLibrary) || st.Library.Corrupt != 1 {
		t.Errorf("--read-data: corruption not found: %+v", ps)
	}
	if data, _ := os.ReadFile(stray); string(data) != "mine" {
		t.Errorf("the stray was touched: %q", data)
	}
}

func TestSubsetsCoverTheLibraryOnce(t *testing.T) {
	lib := library(t)
	flipByte(t, find(t, lib, "IMG_4.JPG"))
	read, found := int64(0), 0
	for n := uint64(1); n <= 3; n++ {
		st, ps := run(t, check.Options{Library: lib, ReadData: true, Subset: check.Subset{N: n, M: 3}})
		read += st.Read
		if has(ps, check.Corrupt, "IMG_4.JPG", check.InLibrary) {
			found++
		}
		again, _ := run(t, check.Options{Library: lib, ReadData: true, Subset: check.Subset{N: n, M: 3}})
		if again.Read != st.Read {
			t.Errorf("slice %d/3 read %d files, then %d: not stable", n, st.Read, again.Read)
		}
	}
	if read != 7 || found != 1 {
		t.Errorf("slices 1/3..3/3 read %d files and found the corruption %d times; want 7 and once", read, found)
	}
}

func TestParseSubset(t *testing.T) {
	for _, ok := range []string{"1/12", "12/12", "5%", "0.5%", "100%"} {
		if _, err := check.ParseSubset(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "0/12", "13/12", "1/0", "x/y", "1/", "0%", "101%", "-5%", "%", "1/2/3", "NaN%"} {
		if _, err := check.ParseSubset(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	all := check.Subset{Per10k: 10000}
	if !all.Includes("a/b.jpg") {
		t.Error("100% leaves a file out")
	}
}

func TestBackupCopiesAreChecked(t *testing.T) {
	bak := filepath.Join(t.TempDir(), "backup")
	if err := os.Mkdir(bak, 0o755); err != nil {
		t.Fatal(err)
	}
	lib := library(t, "--backup", bak)
	if st, ps := run(t, check.Options{Library: lib, Backup: bak, ReadData: true}); len(ps) != 0 || st.Read != 14 {
		t.Fatalf("intact library and backup: %d read, %+v", st.Read, ps)
	}
	flipByte(t, find(t, bak, "IMG_2.JPG"))
	if err := os.Remove(find(t, bak, "IMG_3.JPG")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(bak, "extra.jpg"), []byte("only in the backup"))

	st, ps := run(t, check.Options{Library: lib, Backup: bak, ReadData: true})
	if !has(ps, check.Corrupt, "IMG_2.JPG", check.InBackup) || !has(ps, check.Missing, "IMG_3.JPG", check.InBackup) ||
		!has(ps, check.Stray, "extra.jpg", check.InBackup) {
		t.Errorf("backup problems not found: %+v", ps)
	}
	if has(ps, check.Corrupt, "IMG_2.JPG", check.InLibrary) || st.Library.Missing != 0 {
		t.Errorf("the library copy was blamed for the backup's damage: %+v", ps)
	}
	if st.Backup == nil || st.Backup.Corrupt != 1 || st.Backup.Missing != 1 || st.Problems() != 2 {
		t.Errorf("backup counts %+v, %d problems", st.Backup, st.Problems())
	}
}

// The check writes nothing: the state folder and the library are as they
// were, to the byte and the mtime, and no folder is created.
func TestCheckIsReadOnly(t *testing.T) {
	lib := library(t)
	before := snapshot(t, lib)
	run(t, check.Options{Library: lib, ReadData: true})
	if after := snapshot(t, lib); !slices.Equal(before, after) {
		t.Errorf("the check changed the library:\nbefore %v\nafter  %v", before, after)
	}
	plain := t.TempDir()
	if _, err := check.Run(context.Background(), check.Options{Library: plain}); err == nil || !strings.Contains(err.Error(), "no import history") {
		t.Errorf("a folder that is no library: %v", err)
	}
	if entries, _ := os.ReadDir(plain); len(entries) != 0 {
		t.Errorf("the check created %v in a folder that is no library", entries)
	}
}

func snapshot(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		line := p + " " + info.ModTime().String()
		if !d.IsDir() {
			b, _ := os.ReadFile(p)
			line += fmt.Sprintf(" %d %x", len(b), digestOf(b))
		}
		out = append(out, line)
		return nil
	})
	return out
}

func digestOf(b []byte) []byte { s := sha256.Sum256(b); return s[:] }

// A history whose record names a path outside the library (damaged, or
// crafted) never makes the check stat or read that file: it is reported.
func TestARecordedPathOutsideTheLibraryIsNotFollowed(t *testing.T) {
	lib := library(t)
	outside := filepath.Join(filepath.Dir(lib), "outside.jpg")
	write(t, outside, []byte("not the library's"))
	log, err := importlog.Open(filepath.Join(lib, ".shoebox"), nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := log.Recorder()
	for i, p := range []string{"../outside.jpg", "/etc/passwd", "a/../../outside.jpg"} {
		if err := rec.Add(importlog.Entry{Dev: 1, Ino: uint64(100 + i), Src: "x.jpg", Path: p, LibSize: 17}); err != nil {
			t.Fatal(err)
		}
	}
	if err := errors.Join(rec.Commit(), log.Close()); err != nil {
		t.Fatal(err)
	}
	st, ps := run(t, check.Options{Library: lib, ReadData: true})
	bad := 0
	for _, p := range ps {
		if p.Kind == check.Unreadable && strings.Contains(p.Reason, "outside the library") {
			bad++
		}
	}
	if bad != 3 || st.Read != 7 {
		t.Errorf("%d paths outside the library reported (want 3), %d files read (want the library's 7): %+v", bad, st.Read, ps)
	}
}
