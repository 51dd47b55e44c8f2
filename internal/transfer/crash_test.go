package transfer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// The crash test re-executes this test binary as a child that runs one op
// and dies with os.Exit(137) (as if SIGKILLed) at a named crash point. The
// parent then checks what a killed run leaves on disk.
const (
	envCrashPoint = "SHOEBOX_TRANSFER_CRASH_POINT"
	envCrashMode  = "SHOEBOX_TRANSFER_CRASH_MODE"
	envCrashSrc   = "SHOEBOX_TRANSFER_CRASH_SRC"
	envCrashDst   = "SHOEBOX_TRANSFER_CRASH_DST"
)

// TestCrashChild is the child's body; it does nothing in a normal run.
func TestCrashChild(t *testing.T) {
	point := os.Getenv(envCrashPoint)
	if point == "" {
		t.Skip("only runs as the child of TestCrashPoints")
	}
	mode, err := ParseMode(os.Getenv(envCrashMode))
	if err != nil {
		t.Fatal(err)
	}
	src, dst := os.Getenv(envCrashSrc), os.Getenv(envCrashDst)
	fsys := fsx.NewFaults(fsx.OS)
	if mode == Move { // force the cross-device path, the one with the most steps
		fsys.Add(fsx.Rule{Op: "rename", Path: src, Err: syscall.EXDEV})
	}
	if err := fsxtest.ExitAtCrashPoint(fsys, point+":1"); err != nil {
		t.Fatal(err)
	}
	res := New(Options{FS: fsys}).Do(context.Background(), op(t, mode, src, dst))
	t.Fatalf("child survived crash point %q: %+v", point, res)
}

func TestCrashPoints(t *testing.T) {
	cases := []struct {
		mode  Mode
		point string
	}{
		{Copy, fsx.AfterTempWrite},
		{Copy, fsx.AfterSync},
		{Copy, fsx.AfterRename},
		{Move, fsx.AfterTempWrite},
		{Move, fsx.AfterSync},
		{Move, fsx.AfterRename},
		{Move, fsx.AfterRemoveSource},
	}
	content := string(make([]byte, 3<<20)) + "end" // several copy buffers
	for _, c := range cases {
		t.Run(c.mode.String()+"/"+c.point, func(t *testing.T) {
			f := newFixture(t)
			src := f.file("a.jpg", content)
			dst := filepath.Join(f.lib, "2019", "a.jpg")
			runCrashChild(t, c.mode, c.point, src, dst)

			srcOK := isComplete(t, src, content)
			dstOK := isComplete(t, dst, content)
			if !srcOK && !dstOK {
				t.Fatal("after the crash the file is complete in neither place")
			}
			if c.mode == Copy && !srcOK {
				t.Error("a copy crash damaged the source")
			}
			wantTemps := 1
			if c.point == fsx.AfterRename || c.point == fsx.AfterRemoveSource {
				wantTemps = 0
			}
			temps := tempsIn(t, filepath.Dir(dst))
			if len(temps) != wantTemps {
				t.Errorf("temps left: %q; want %d", temps, wantTemps)
			}
			// Recovery removes each temp the journal named, one by one.
			for _, tmp := range temps {
				if ok, err := New(Options{}).RemoveTemp(tmp); !ok || err != nil {
					t.Errorf("RemoveTemp(%s) = %v, %v", tmp, ok, err)
				}
			}
			assertNoTemps(t, f.lib)
		})
	}
}

func runCrashChild(t *testing.T, mode Mode, point, src, dst string) {
	t.Helper()
	fsxtest.RunCrashChild(t, "TestCrashChild", envCrashPoint+"="+point, envCrashMode+"="+mode.String(),
		envCrashSrc+"="+src, envCrashDst+"="+dst)
}

// isComplete reports whether p holds exactly want; a partial file fails
// the test outright, since that is what the protocol must never leave.
func isComplete(t *testing.T, p, want string) bool {
	t.Helper()
	got, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("%s is partial: %d bytes, want %d", p, len(got), len(want))
	}
	return true
}

// sameDevice reports whether two directories are on one filesystem.
func sameDevice(t *testing.T, a, b string) bool {
	t.Helper()
	fa, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	fb, err := os.Stat(b)
	if err != nil {
		t.Fatal(err)
	}
	da, _ := fsx.DevIno(fa)
	db, _ := fsx.DevIno(fb)
	return da == db
}

// A real cross-device move, /dev/shm (tmpfs) to the test's temp dir.
func TestMoveAcrossRealDevices(t *testing.T) {
	shm, err := os.MkdirTemp("/dev/shm", "shoebox-transfer-test-")
	if err != nil {
		t.Skipf("no /dev/shm: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(shm) })
	lib := t.TempDir()
	if sameDevice(t, shm, lib) {
		t.Skip("/dev/shm and the temp dir are one device here")
	}
	var ops []Op
	for i, name := range []string{"a.jpg", "b.jpg"} {
		src := writeSource(t, filepath.Join(shm, name), "photo "+strconv.Itoa(i))
		ops = append(ops, op(t, Move, src, filepath.Join(lib, "2019", name)))
	}
	dry := New(Options{DryRun: true})
	real := New(Options{})
	for _, o := range ops {
		predicted := dry.Do(context.Background(), o)
		res := real.Do(context.Background(), o)
		mustSucceed(t, res)
		if res.Fallback != fallbackCrossDevice || predicted.Fallback != res.Fallback {
			t.Errorf("Fallback real %q, dry %q", res.Fallback, predicted.Fallback)
		}
		if !equalStrings(predicted.Actions, res.Actions) {
			t.Errorf("real Actions %q, dry %q", res.Actions, predicted.Actions)
		}
		assertAbsent(t, o.Src)
		fi, err := os.Lstat(o.Dst)
		if err != nil || !fi.ModTime().Equal(o.ModTime) {
			t.Errorf("moved file %v, %v: want mtime %v", fi, err, o.ModTime)
		}
	}
	if err := real.Flush(); err != nil {
		t.Fatal(err)
	}

	hl := writeSource(t, filepath.Join(shm, "c.jpg"), "c")
	res := real.Do(context.Background(), op(t, Hardlink, hl, filepath.Join(lib, "c.jpg")))
	if !errors.Is(res.Err, ErrCrossDevice) {
		t.Errorf("cross-device hardlink: err = %v, want ErrCrossDevice", res.Err)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
