package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/importlog"
	"github.com/shoebox-photos/shoebox/internal/undo"
)

// The import history's writes are killed at each point around them: the
// child sorts and dies (exit 137, as SIGKILLed) the first time the run
// reaches the point; the parent then checks what is left.
const (
	envHistoryKill = "SHOEBOX_HISTORY_KILL_POINT"
	envHistorySrc  = "SHOEBOX_HISTORY_KILL_SRC"
	envHistoryLib  = "SHOEBOX_HISTORY_KILL_LIB"
)

func TestHistoryKillChild(t *testing.T) {
	point := os.Getenv(envHistoryKill)
	if point == "" {
		t.Skip("only runs as the child of TestKilledHistoryWritesNeverClaimOrLoseFiles")
	}
	fsys := dieAt(func(p string) bool { return p == point })
	sortTree(t, []string{os.Getenv(envHistorySrc)}, os.Getenv(envHistoryLib), func(c *Config) { c.FS = fsys })
	t.Fatalf("child survived kill point %q", point)
}

func TestKilledHistoryWritesNeverClaimOrLoseFiles(t *testing.T) {
	const n = 300 // more than one flush of the transfer stage
	points := []string{fsx.AfterRename, crashBeforeImports, crashAfterImports}
	if fsxtest.WineQuick() {
		// Each point costs about 45 s under Wine; the rename is what Windows
		// does differently, the other two are the history's own (on Linux).
		points = points[:1]
	}
	for _, point := range points {
		t.Run(point, func(t *testing.T) {
			root := t.TempDir()
			src, files := cardOf(t, root, n, 10)
			lib := filepath.Join(root, "lib")
			runDyingChild(t, "TestHistoryKillChild", envHistoryKill+"="+point, envHistorySrc+"="+src, envHistoryLib+"="+lib)
			claimed := historyClaimsOnlyWhatIsThere(t, lib)
			t.Logf("killed at %s: the history claims %d files", point, claimed)

			// The same command finishes the job; then the history knows
			// every file: nothing of it was lost for good.
			if sum, _ := sortTree(t, []string{src}, lib); sum.Failed != 0 || sum.Transferred+sum.Identical != n {
				t.Fatalf("re-run after the kill: %+v", sum)
			}
			historyClaimsOnlyWhatIsThere(t, lib)
			if sum, _ := sortTree(t, []string{src}, lib); sum.Recalled != n || sum.Identical != n {
				t.Errorf("third run: %+v; want all %d recognised from the history", sum, n)
			}
			if got := len(snapshot(t, lib)); got != len(files) {
				t.Errorf("library holds %d files, want %d", got, len(files))
			}

			// Undo (the killed run and its re-run are one job) forgets
			// them: sorting again imports every file again.
			if _, err := undo.Last(context.Background(), lib, undo.Options{}); err != nil {
				t.Fatal(err)
			}
			historyClaimsOnlyWhatIsThere(t, lib)
			if sum, _ := sortTree(t, []string{src}, lib); sum.Transferred != n || sum.ImportedBefore != 0 {
				t.Errorf("sort after undo: %+v; want all %d imported again", sum, n)
			}
		})
	}
}

// historyClaimsOnlyWhatIsThere fails the test for any history entry whose
// library copy is not there as recorded, and returns how many there are.
func historyClaimsOnlyWhatIsThere(t *testing.T, lib string) int {
	t.Helper()
	l, err := importlog.Open(StateDir(lib), func(msg string) { t.Errorf("history: %s", msg) })
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	n := 0
	err = l.Each(func(e importlog.Entry) error {
		n++
		if st := e.Check(lib); st != importlog.Intact {
			t.Errorf("the history claims %s (from %s), which is %s", e.Path, e.Src, st)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
