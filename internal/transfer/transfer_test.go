package transfer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

func TestParseModeRoundTrip(t *testing.T) {
	for _, m := range []Mode{Copy, Move, Hardlink, Symlink, Reflink} {
		got, err := ParseMode(strings.ToUpper(m.String()))
		if err != nil || got != m {
			t.Errorf("ParseMode(%q) = %v, %v", m, got, err)
		}
	}
	if m, err := ParseMode("link"); m != Hardlink || err != nil {
		t.Errorf("ParseMode(link) = %v, %v", m, err)
	}
	if _, err := ParseMode("teleport"); err == nil {
		t.Error("ParseMode accepted an unknown mode")
	}
}

func TestCopyCreatesParentsAndKeepsMtime(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "jpeg bytes")
	dst := filepath.Join(f.lib, "2019", "07", "a.jpg")
	o := op(t, Copy, src, dst)
	res := do(t, Options{}, o)
	mustSucceed(t, res)

	assertContent(t, dst, "jpeg bytes")
	assertContent(t, src, "jpeg bytes")
	assertNoTemps(t, f.lib)
	fi, _ := os.Lstat(dst)
	if !fi.ModTime().Equal(o.ModTime) {
		t.Errorf("mtime %v, want %v", fi.ModTime(), o.ModTime)
	}
	if dev, ino := fsx.DevIno(fi); dev != res.Dev || ino != res.Ino {
		t.Errorf("Result identity (%d,%d), file is (%d,%d)", res.Dev, res.Ino, dev, ino)
	}
	tmp := filepath.Join(f.lib, "2019", "07", ".a.jpg.shoebox-tmp-<tmp>")
	want := []string{
		"mkdir " + filepath.Join(f.lib, "2019"),
		"mkdir " + filepath.Join(f.lib, "2019", "07"),
		"create " + tmp,
		"rename " + tmp + " -> " + dst,
	}
	if !slices.Equal(res.Actions, want) {
		t.Errorf("Actions:\n%q\nwant\n%q", res.Actions, want)
	}
}

func TestCopyWithVerify(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", strings.Repeat("x", 3<<20+5))
	dst := filepath.Join(f.lib, "a.jpg")
	mustSucceed(t, do(t, Options{Verify: true}, op(t, Copy, src, dst)))
	assertContent(t, dst, strings.Repeat("x", 3<<20+5))
}

func TestMoveSameDeviceRenames(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "jpeg")
	before, _ := os.Lstat(src)
	os.SameFile(before, before) // Windows reads a FileInfo's identity lazily, by name: while src exists
	dst := filepath.Join(f.lib, "2019", "a.jpg")
	res := do(t, Options{}, op(t, Move, src, dst))
	mustSucceed(t, res)

	assertAbsent(t, src)
	assertContent(t, dst, "jpeg")
	after, _ := os.Lstat(dst)
	if !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Error("move did not keep the inode and mtime")
	}
	if res.Fallback != "" {
		t.Errorf("Fallback %q on a same-device move", res.Fallback)
	}
	if last := res.Actions[len(res.Actions)-1]; last != "rename "+src+" -> "+dst {
		t.Errorf("last action %q", last)
	}
}

func TestHardlinkSharesInode(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "jpeg")
	dst := filepath.Join(f.lib, "a.jpg")
	res := do(t, Options{}, op(t, Hardlink, src, dst))
	mustSucceed(t, res)
	a, _ := os.Lstat(src)
	b, _ := os.Lstat(dst)
	if !os.SameFile(a, b) {
		t.Error("hardlink is a different file")
	}
	if _, ino := fsx.DevIno(b); ino != res.Ino {
		t.Errorf("Result.Ino %d, file %d", res.Ino, ino)
	}
}

func TestSymlinkPointsToAbsoluteSource(t *testing.T) {
	fsxtest.NeedSymlinks(t)
	f := newFixture(t)
	f.file("a.jpg", "jpeg")
	t.Chdir(f.src)
	dst := filepath.Join(f.lib, "a.jpg")
	mustSucceed(t, do(t, Options{}, op(t, Symlink, "a.jpg", dst)))
	target, err := os.Readlink(dst)
	if err != nil || target != filepath.Join(f.src, "a.jpg") {
		t.Errorf("symlink target %q, %v", target, err)
	}
	assertContent(t, dst, "jpeg")
}

func TestReflinkFallsBackToCopy(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "jpeg")
	dst := filepath.Join(f.lib, "a.jpg")
	res := do(t, Options{Verify: true}, op(t, Reflink, src, dst))
	mustSucceed(t, res)
	assertContent(t, dst, "jpeg")
	t.Logf("reflink fallback: %q", res.Fallback)
	if res.Fallback != "" && res.Fallback != fallbackReflink {
		t.Errorf("Fallback %q", res.Fallback)
	}
}

func TestReflinkUnsupportedInjected(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "jpeg")
	dst := filepath.Join(f.lib, "a.jpg")
	unsupported := fmt.Errorf("clone: %w", errors.ErrUnsupported)
	fsys := faults().Add(fsx.Rule{Op: "clone", Err: unsupported})
	res := do(t, Options{FS: fsys}, op(t, Reflink, src, dst))
	mustSucceed(t, res)
	if res.Fallback != fallbackReflink {
		t.Errorf("Fallback %q, want %q", res.Fallback, fallbackReflink)
	}
	assertContent(t, dst, "jpeg")
}

func TestNeverOverwritesExistingDestination(t *testing.T) {
	for _, mode := range []Mode{Copy, Move, Hardlink, Symlink, Reflink} {
		t.Run(mode.String(), func(t *testing.T) {
			f := newFixture(t)
			src := f.file("a.jpg", "new")
			dst := filepath.Join(f.lib, "a.jpg")
			if err := os.WriteFile(dst, []byte("already here"), 0o644); err != nil {
				t.Fatal(err)
			}
			res := do(t, Options{}, op(t, mode, src, dst))
			if !errors.Is(res.Err, fs.ErrExist) {
				t.Fatalf("err = %v, want fs.ErrExist", res.Err)
			}
			assertContent(t, dst, "already here")
			assertContent(t, src, "new")
			assertNoTemps(t, f.lib)
		})
	}
}

// The destination appears while the copy is in flight: the no-replace
// rename must refuse it, not clobber it.
func TestNeverOverwritesDestinationCreatedDuringCopy(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "new")
	dst := filepath.Join(f.lib, "a.jpg")
	fsys := faults()
	fsys.OnCrashPoint(func(point string) {
		if point == fsx.AfterSync {
			os.WriteFile(dst, []byte("raced in"), 0o644)
		}
	})
	res := do(t, Options{FS: fsys}, op(t, Copy, src, dst))
	if !errors.Is(res.Err, fs.ErrExist) {
		t.Fatalf("err = %v, want fs.ErrExist", res.Err)
	}
	assertContent(t, dst, "raced in")
	assertNoTemps(t, f.lib)
}

// A batch over every mode, including failures, must yield the same Actions
// in a dry run as in the real run, and the dry run must change nothing.
func TestDryRunPredictsRealRun(t *testing.T) {
	f := newFixture(t)
	root := filepath.Dir(f.src)
	if err := os.WriteFile(filepath.Join(f.lib, "taken.jpg"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var ops []Op
	add := func(mode Mode, name, dst string) {
		ops = append(ops, op(t, mode, f.file(name, "content of "+name), filepath.Join(f.lib, dst)))
	}
	add(Copy, "a.jpg", "2019/07/a.jpg")
	add(Copy, "b.jpg", "2019/07/b.jpg") // same new dir: no second mkdir
	add(Move, "c.jpg", "2019/08/c.jpg")
	add(Hardlink, "d.jpg", "2020/d.jpg")
	add(Symlink, "e.jpg", "2020/e.jpg")
	add(Reflink, "f.jpg", "2021/f.jpg")
	add(Copy, "g.jpg", "taken.jpg") // destination exists
	add(Copy, "h.jpg", "2022/h.jpg")
	os.Remove(ops[len(ops)-1].Src) // source vanished after the scan
	add(Copy, "i.jpg", "2022/i.jpg")
	os.WriteFile(ops[len(ops)-1].Src, []byte("grown since scan"), 0o644)

	before := snapshot(t, root)
	dry := New(Options{DryRun: true, Verify: true})
	var predicted []Result
	for _, o := range ops {
		predicted = append(predicted, dry.Do(context.Background(), o))
	}
	if err := dry.Flush(); err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, root); !mapsEqual(before, after) {
		t.Fatalf("dry run changed the filesystem:\nbefore %v\nafter  %v", before, after)
	}

	real := New(Options{Verify: true})
	for i, o := range ops {
		got := real.Do(context.Background(), o)
		want := predicted[i]
		if !slices.Equal(got.Actions, want.Actions) {
			t.Errorf("op %d (%s %s): real Actions\n%q\ndry Actions\n%q", i, o.Mode, o.Dst, got.Actions, want.Actions)
		}
		if (got.Err == nil) != (want.Err == nil) {
			t.Errorf("op %d: real err %v, dry err %v", i, got.Err, want.Err)
		}
		if got.Fallback != want.Fallback && o.Mode != Reflink {
			t.Errorf("op %d: real Fallback %q, dry %q", i, got.Fallback, want.Fallback)
		}
	}
	if err := real.Flush(); err != nil {
		t.Fatal(err)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// failedCleanly asserts the promise every failure keeps.
func failedCleanly(t *testing.T, f *fixture, res Result, srcContent string) {
	t.Helper()
	if res.Err == nil {
		t.Fatal("op succeeded, want a failure")
	}
	assertAbsent(t, res.Op.Dst)
	assertNoTemps(t, f.lib)
	assertContent(t, res.Op.Src, srcContent)
}

func TestNoSpaceLeftFailsCleanly(t *testing.T) {
	for _, opName := range []string{"write", "sync"} {
		t.Run(opName, func(t *testing.T) {
			f := newFixture(t)
			src := f.file("a.jpg", "jpeg")
			dst := filepath.Join(f.lib, "2019", "a.jpg")
			fsys := faults().Add(fsx.Rule{Op: opName, Path: ".shoebox-tmp-", Err: syscall.ENOSPC})
			res := do(t, Options{FS: fsys}, op(t, Copy, src, dst))
			failedCleanly(t, f, res, "jpeg")
			if !fsx.IsPermanent(res.Err) || !errors.Is(res.Err, syscall.ENOSPC) {
				t.Errorf("err %v: want a permanent ENOSPC", res.Err)
			}
			prefix := fmt.Sprintf("copy %s to %s: ", quote.Path(src), quote.Path(dst))
			if !strings.HasPrefix(res.Err.Error(), prefix) {
				t.Errorf("error %q does not start with %q", res.Err, prefix)
			}
			assertErrContains(t, res.Err, "no space left on device")
		})
	}
}

func TestShortWriteDetected(t *testing.T) {
	for name, rule := range map[string]fsx.Rule{
		"short count, no error":   {Op: "write", Short: true},
		"short count, with error": {Op: "write", Short: true, Err: io.ErrShortWrite},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			src := f.file("a.jpg", "0123456789")
			res := do(t, Options{FS: faults().Add(rule), Verify: true}, op(t, Copy, src, filepath.Join(f.lib, "a.jpg")))
			failedCleanly(t, f, res, "0123456789")
			if !errors.Is(res.Err, io.ErrShortWrite) {
				t.Errorf("err = %v, want io.ErrShortWrite", res.Err)
			}
		})
	}
}

func TestSilentCorruptionCaughtByVerify(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "0123456789")
	fsys := faults().Add(fsx.Rule{Op: "write", Corrupt: true})
	res := do(t, Options{FS: fsys, Verify: true}, op(t, Copy, src, filepath.Join(f.lib, "a.jpg")))
	failedCleanly(t, f, res, "0123456789")
	if !errors.Is(res.Err, ErrVerify) {
		t.Errorf("err = %v, want ErrVerify", res.Err)
	}
}

func TestMoveAcrossDevicesInjected(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "jpeg")
	dst := filepath.Join(f.lib, "2019", "a.jpg")
	fsys := faults().Add(fsx.Rule{Op: "rename", Path: src, Err: syscall.EXDEV})
	var sourceAtRename, verifiedBeforeRemoval bool
	fsys.OnCrashPoint(func(point string) {
		if point == fsx.AfterRename {
			_, err := os.Lstat(src)
			sourceAtRename = err == nil
			b, _ := os.ReadFile(dst)
			verifiedBeforeRemoval = string(b) == "jpeg"
		}
	})
	res := do(t, Options{FS: fsys}, op(t, Move, src, dst))
	mustSucceed(t, res)
	if res.Fallback != fallbackCrossDevice {
		t.Errorf("Fallback %q", res.Fallback)
	}
	if !sourceAtRename || !verifiedBeforeRemoval {
		t.Error("the source was removed before the complete copy was in place")
	}
	assertAbsent(t, src)
	assertContent(t, dst, "jpeg")
	tmp := filepath.Join(f.lib, "2019", ".a.jpg.shoebox-tmp-<tmp>")
	want := []string{
		"mkdir " + filepath.Join(f.lib, "2019"),
		"create " + tmp,
		"rename " + tmp + " -> " + dst,
		"remove " + src,
	}
	if !slices.Equal(res.Actions, want) {
		t.Errorf("Actions %q, want %q", res.Actions, want)
	}
}

// Verification is forced for a cross-device move even when not asked for,
// because the source is about to be deleted.
func TestMoveAcrossDevicesCorruptionKeepsSource(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "precious")
	dst := filepath.Join(f.lib, "a.jpg")
	fsys := faults().
		Add(fsx.Rule{Op: "rename", Path: src, Err: syscall.EXDEV}).
		Add(fsx.Rule{Op: "write", Corrupt: true})
	res := do(t, Options{FS: fsys, Verify: false}, op(t, Move, src, dst))
	failedCleanly(t, f, res, "precious")
	if !errors.Is(res.Err, ErrVerify) {
		t.Errorf("err = %v, want ErrVerify", res.Err)
	}
}

// Before a cross-device move deletes its source, the copy's directory entry
// and those of the directories created for it must be durable.
func TestMoveAcrossDevicesSyncsNewDirsBeforeRemovingSource(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "jpeg")
	dst := filepath.Join(f.lib, "2019", "07", "a.jpg")
	fsys := faults().Add(fsx.Rule{Op: "rename", Path: src, Err: syscall.EXDEV})
	var syncedBeforeRemoval []string
	fsys.OnCrashPoint(func(point string) {
		if point == fsx.AfterRemoveSource {
			syncedBeforeRemoval = fsys.Calls("syncdir")
		}
	})
	mustSucceed(t, do(t, Options{FS: fsys}, op(t, Move, src, dst)))
	want := []string{filepath.Join(f.lib, "2019", "07"), filepath.Join(f.lib, "2019"), f.lib}
	if !slices.Equal(syncedBeforeRemoval, want) {
		t.Errorf("dirs synced before the source was removed: %q, want %q", syncedBeforeRemoval, want)
	}
}

func TestMoveAcrossDevicesSourceRemovalFails(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "jpeg")
	dst := filepath.Join(f.lib, "a.jpg")
	fsys := faults().
		Add(fsx.Rule{Op: "rename", Path: src, Err: syscall.EXDEV}).
		Add(fsx.Rule{Op: "remove", Path: src, Err: syscall.EACCES})
	res := do(t, Options{FS: fsys}, op(t, Move, src, dst))
	if !errors.Is(res.Err, syscall.EACCES) {
		t.Fatalf("err = %v, want EACCES", res.Err)
	}
	assertErrContains(t, res.Err, "source kept")
	assertContent(t, src, "jpeg") // both copies exist: nothing is lost
	assertContent(t, dst, "jpeg")
}

func TestSourceChangedSinceScan(t *testing.T) {
	for name, change := range map[string]func(p string){
		"mtime": func(p string) { os.Chtimes(p, time0, time0) },
		"size":  func(p string) { os.WriteFile(p, []byte("longer content now"), 0o644) },
	} {
		for _, mode := range []Mode{Copy, Move, Hardlink, Reflink} {
			t.Run(name+"/"+mode.String(), func(t *testing.T) {
				f := newFixture(t)
				src := f.file("a.jpg", "jpeg")
				o := op(t, mode, src, filepath.Join(f.lib, "a.jpg"))
				change(src)
				res := do(t, Options{}, o)
				if !errors.Is(res.Err, ErrChanged) {
					t.Fatalf("err = %v, want ErrChanged", res.Err)
				}
				assertAbsent(t, o.Dst)
				assertNoTemps(t, f.lib)
			})
		}
	}
}

func TestSourceChangedDuringCopy(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "jpeg")
	fsys := faults()
	fsys.OnCrashPoint(func(point string) {
		if point == fsx.AfterTempWrite {
			file, _ := os.OpenFile(src, os.O_WRONLY|os.O_APPEND, 0)
			file.WriteString(" and more")
			file.Close()
		}
	})
	res := do(t, Options{FS: fsys}, op(t, Copy, src, filepath.Join(f.lib, "a.jpg")))
	failedCleanly(t, f, res, "jpeg and more")
	if !errors.Is(res.Err, ErrChanged) {
		t.Errorf("err = %v, want ErrChanged", res.Err)
	}
	assertErrContains(t, res.Err, "changed during copy")
}

// rewriteKeepingMtime overwrites p in place with content of the same size
// and puts its mtime back: only the change time (ctime; NTFS's ChangeTime
// on Windows) still tells the new version from the old.
func rewriteKeepingMtime(t *testing.T, p, content string) {
	t.Helper()
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(content)) != info.Size() {
		t.Fatalf("rewrite %s: %d bytes for a %d-byte file", p, len(content), info.Size())
	}
	time.Sleep(20 * time.Millisecond) // past a coarse change-time clock
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(content); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
}

// A source rewritten while it is copied, its size and mtime put back, is
// still caught: what landed would be neither version.
func TestSourceRewrittenDuringCopyWithMtimeRestored(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "jpeg")
	fsys := faults()
	fsys.OnCrashPoint(func(point string) {
		if point == fsx.AfterTempWrite {
			rewriteKeepingMtime(t, src, "JPEG")
		}
	})
	res := do(t, Options{FS: fsys}, op(t, Copy, src, filepath.Join(f.lib, "a.jpg")))
	failedCleanly(t, f, res, "JPEG")
	if !errors.Is(res.Err, ErrChanged) {
		t.Errorf("err = %v, want ErrChanged", res.Err)
	}
}

// A move across devices does not remove a source rewritten after its copy landed, size
// and mtime put back: the library holds the old version, the source the
// only copy of the new one.
func TestMoveKeepsSourceRewrittenAfterCopyWithMtimeRestored(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "jpeg")
	dst := filepath.Join(f.lib, "a.jpg")
	fsys := faults().Add(fsx.Rule{Op: "rename", Path: src, Err: syscall.EXDEV}) // a copy, then the source's removal
	fsys.OnCrashPoint(func(point string) {
		if point == fsx.AfterRename {
			rewriteKeepingMtime(t, src, "JPEG")
		}
	})
	res := do(t, Options{FS: fsys}, op(t, Move, src, dst))
	if !errors.Is(res.Err, ErrChanged) {
		t.Errorf("err = %v, want ErrChanged", res.Err)
	}
	assertContent(t, src, "JPEG")
	assertContent(t, dst, "jpeg")
}

func TestSourceVanished(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "jpeg")
	o := op(t, Copy, src, filepath.Join(f.lib, "a.jpg"))
	os.Remove(src)
	res := do(t, Options{}, o)
	if !errors.Is(res.Err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want ErrNotExist", res.Err)
	}
	assertErrContains(t, res.Err, "source missing", src)
	assertAbsent(t, o.Dst)
}

func TestFsyncUnsupportedTolerated(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.ENOTSUP, syscall.EINVAL} {
		t.Run(errno.Error(), func(t *testing.T) {
			f := newFixture(t)
			src := f.file("a.jpg", "jpeg")
			dst := filepath.Join(f.lib, "a.jpg")
			fsys := faults().Add(fsx.Rule{Op: "sync", Err: errno})
			mustSucceed(t, do(t, Options{FS: fsys}, op(t, Copy, src, dst)))
			assertContent(t, dst, "jpeg")
		})
	}
}

func TestFsyncIOErrorFails(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "jpeg")
	fsys := faults().Add(fsx.Rule{Op: "sync", Err: syscall.EIO})
	res := do(t, Options{FS: fsys}, op(t, Copy, src, filepath.Join(f.lib, "a.jpg")))
	failedCleanly(t, f, res, "jpeg")
	if !errors.Is(res.Err, syscall.EIO) || fsx.IsPermanent(res.Err) {
		t.Errorf("err = %v, want a transient EIO", res.Err)
	}
}

func TestDestinationDirIsAFile(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "jpeg")
	os.WriteFile(filepath.Join(f.lib, "2019"), []byte("not a dir"), 0o644)
	res := do(t, Options{}, op(t, Copy, src, filepath.Join(f.lib, "2019", "a.jpg")))
	assertErrContains(t, res.Err, "not a directory")
}

func TestCancelledContextDoesNothing(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "jpeg")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := New(Options{}).Do(ctx, op(t, Copy, src, filepath.Join(f.lib, "x", "a.jpg")))
	if !errors.Is(res.Err, context.Canceled) || len(res.Actions) != 0 {
		t.Errorf("err %v, actions %q", res.Err, res.Actions)
	}
	assertAbsent(t, filepath.Join(f.lib, "x"))
}

func TestHardlinkAcrossDevicesInjected(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "jpeg")
	fsys := faults().Add(fsx.Rule{Op: "link", Err: syscall.EXDEV})
	res := do(t, Options{FS: fsys}, op(t, Hardlink, src, filepath.Join(f.lib, "a.jpg")))
	if !errors.Is(res.Err, ErrCrossDevice) {
		t.Fatalf("err = %v, want ErrCrossDevice", res.Err)
	}
	assertErrContains(t, res.Err, "use copy")
	assertAbsent(t, res.Op.Dst)
}

func TestFlushSyncsTouchedDirs(t *testing.T) {
	f := newFixture(t)
	src := f.file("a.jpg", "jpeg")
	fsys := faults().Add(fsx.Rule{Op: "syncdir", Path: "2019", Err: syscall.EIO})
	e := New(Options{FS: fsys})
	mustSucceed(t, e.Do(context.Background(), op(t, Copy, src, filepath.Join(f.lib, "2019", "a.jpg"))))
	err := e.Flush()
	if !errors.Is(err, syscall.EIO) {
		t.Fatalf("Flush = %v, want the EIO of syncing %s", err, filepath.Join(f.lib, "2019"))
	}
	if err := e.Flush(); err != nil {
		t.Errorf("second Flush with nothing new: %v", err)
	}
}

func TestLongNameTempFits(t *testing.T) {
	f := newFixture(t)
	long := strings.Repeat("é", 120) + ".jpg" // 244 bytes, near the 255 limit
	src := f.file("a.jpg", "jpeg")
	dst := filepath.Join(f.lib, long)
	mustSucceed(t, do(t, Options{}, op(t, Copy, src, dst)))
	assertContent(t, dst, "jpeg")
}

func TestConcurrentWorkersMakeEachDirOnce(t *testing.T) {
	f := newFixture(t)
	e := New(Options{Verify: true})
	var ops []Op
	for i := range 40 {
		src := f.file(fmt.Sprintf("%02d.jpg", i), fmt.Sprintf("photo %d", i))
		ops = append(ops, op(t, Mode(i%2)*Move, src, filepath.Join(f.lib, fmt.Sprint(2000+i%4), filepath.Base(src))))
	}
	results := make([]Result, len(ops))
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < len(ops); i += 4 {
				results[i] = e.Do(context.Background(), ops[i])
			}
		})
	}
	wg.Wait()
	mkdirs := map[string]int{}
	for _, r := range results {
		mustSucceed(t, r)
		for _, a := range r.Actions {
			if strings.HasPrefix(a, "mkdir ") {
				mkdirs[a]++
			}
		}
	}
	if len(mkdirs) != 4 {
		t.Errorf("mkdirs %v, want 4 distinct", mkdirs)
	}
	for a, n := range mkdirs {
		if n != 1 {
			t.Errorf("%q recorded %d times", a, n)
		}
	}
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
}

func FuzzParseMode(f *testing.F) {
	for _, s := range []string{"copy", "MOVE", " link ", "reflink", "", "hardlinkx", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMode(s)
		if err != nil {
			return
		}
		if back, err := ParseMode(m.String()); err != nil || back != m {
			t.Errorf("ParseMode(%q) = %v, which does not round-trip", s, m)
		}
	})
}
