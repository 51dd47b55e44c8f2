package check_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/check"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/undo"
)

const (
	envRepairKillAt  = "SHOEBOX_REPAIR_KILL_AT"
	envRepairKillLib = "SHOEBOX_REPAIR_KILL_LIB"
	envRepairKillBak = "SHOEBOX_REPAIR_KILL_BAK"
)

// repairOptions is what the killed child and the run after it repair
// with: one worker, so that the crash points come in one order.
func repairOptions(lib, bak string) check.Options {
	return check.Options{Library: lib, Backup: bak, ReadData: true, Repair: true, Workers: 1,
		Args: []string{"check", "--repair", "--read-data", lib}}
}

// TestRepairKillChild is the child: it repairs and dies (exit 137, as a
// kill -9 leaves it) at the Nth crash point of the executor's protocol.
func TestRepairKillChild(t *testing.T) {
	at, _ := strconv.Atoi(os.Getenv(envRepairKillAt))
	if at == 0 {
		t.Skip("only runs as the child of TestRepairKilledAnywhereIsFinishedByTheNextRun")
	}
	fsys := fsx.NewFaults(fsx.OS)
	n := 0
	fsys.OnCrashPoint(func(string) {
		if n++; n == at {
			os.Exit(137)
		}
	})
	opt := repairOptions(os.Getenv(envRepairKillLib), os.Getenv(envRepairKillBak))
	opt.FS = fsys
	if _, err := check.Run(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	// Survived every crash point: the parent stops there.
	os.Exit(0)
}

// A repair killed at any step of its protocol leaves no partial file in
// the library (each file is the damaged one, the good one, or not there
// yet), and the next --repair finishes it; undo then reverses the killed
// run and its finishing one together, back to the damage.
func TestRepairKilledAnywhereIsFinishedByTheNextRun(t *testing.T) {
	if fsxtest.UnderWine() {
		t.Skip("kills child processes: under Wine a killed child is sometimes never reported ended (docs/platforms.md); it runs on Linux")
	}
	for at := 1; at < 30; at++ {
		lib, bak := backedUp(t)
		corrupt, gone := find(t, lib, "IMG_2.JPG"), find(t, lib, "IMG_3.JPG")
		good, goneBytes := read(t, corrupt), read(t, gone)
		flipByte(t, corrupt)
		damaged := read(t, corrupt)
		os.Remove(gone)

		cmd := exec.Command(os.Args[0], "-test.run=^TestRepairKillChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), envRepairKillAt+"="+strconv.Itoa(at), envRepairKillLib+"="+lib, envRepairKillBak+"="+bak)
		out, err := cmd.CombinedOutput()
		if err == nil {
			if at < 4 {
				t.Fatalf("the child survived from crash point %d on: too few points\n%s", at, out)
			}
			return // every crash point was tried
		}
		if cmd.ProcessState.ExitCode() != 137 {
			t.Fatalf("kill at %d: child failed: %v\n%s", at, err, out)
		}
		t.Run(fmt.Sprint("killed at ", at), func(t *testing.T) {
			for p, want := range map[string][][]byte{corrupt: {damaged, good, nil}, gone: {goneBytes, nil}} {
				b, err := os.ReadFile(p)
				if err != nil {
					b = nil
				}
				if !oneOf(b, want) {
					t.Errorf("%s after the kill holds %d bytes: neither the damaged file, the good one, nor nothing", p, len(b))
				}
			}
			st, err := check.Run(context.Background(), repairOptions(lib, bak))
			if err != nil || st.Problems() != 0 {
				t.Fatalf("the run after the kill: %d problems left, %v", st.Problems(), err)
			}
			if !bytes.Equal(read(t, corrupt), good) || !bytes.Equal(read(t, gone), goneBytes) {
				t.Error("not repaired by the run after the kill")
			}
			if temps := tempFiles(t, lib); len(temps) != 0 {
				t.Errorf("temp files left: %v", temps)
			}
			if _, err := undo.Last(context.Background(), lib, undo.Options{}); err != nil {
				t.Fatalf("undo: %v", err)
			}
			if !bytes.Equal(read(t, corrupt), damaged) {
				t.Error("undo did not put the damaged file back")
			}
			if _, err := os.Stat(gone); err == nil {
				t.Error("undo left the restored file")
			}
		})
	}
	t.Fatal("the child never survived: more crash points than expected")
}

func oneOf(b []byte, want [][]byte) bool {
	for _, w := range want {
		if (w == nil && b == nil) || (w != nil && b != nil && bytes.Equal(b, w)) {
			return true
		}
	}
	return false
}

// tempFiles lists the executor's temp files under root.
func tempFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), layout.TempMarker) {
			out = append(out, p)
		}
		return nil
	})
	return out
}
