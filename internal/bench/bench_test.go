package bench

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/meta"
)

// TestBenchRunsOn200Files is the smoke test of the bench command: it
// generates, sorts through the real pipeline, calibrates and prints.
func TestBenchRunsOn200Files(t *testing.T) {
	var log bytes.Buffer
	row, err := Run(context.Background(), Config{Count: 200, WorkDir: t.TempDir(), Workers: 4, Seed: 7}, &log)
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, log.String())
	}
	if row.CopyDone != 200 {
		t.Errorf("copied %d files, want 200", row.CopyDone)
	}
	if row.Scan <= 0 || row.Meta <= 0 || row.Plan <= 0 || row.Copy <= 0 || row.Calibration <= 0 {
		t.Errorf("a stage was not timed: %+v", row)
	}
	if row.RSSCopy <= 0 || row.RSSCopy < row.RSSScan {
		t.Errorf("peak RSS must be read and monotonic: %+v", row)
	}
	var out bytes.Buffer
	PrintTable(&out, []Row{row})
	if !strings.Contains(out.String(), "| 200 |") || strings.Count(out.String(), "\n") != 3 {
		t.Errorf("table:\n%s", out.String())
	}
}

func TestGenerateIsDeterministicAndDated(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, d := range []string{a, b} {
		if err := Generate(d, PerDir+3, 42, 0); err != nil {
			t.Fatal(err)
		}
	}
	rd := meta.NewReader(meta.Options{})
	for _, i := range []int{0, 1, PerDir + 2} {
		name := sourcePath("", i)
		x, errA := os.ReadFile(filepath.Join(a, name))
		y, errB := os.ReadFile(filepath.Join(b, name))
		if errA != nil || errB != nil || !bytes.Equal(x, y) {
			t.Fatalf("%s differs between two runs with one seed (%v, %v)", name, errA, errB)
		}
		info := rd.Bytes(name, x, time.Now())
		if info.Date.Source != meta.SourceEXIF || info.Date.Wall.Year() < 2012 || info.Date.Wall.Year() > 2023 {
			t.Errorf("%s: date %v from %v, want EXIF within 2012–2023", name, info.Date.Wall, info.Date.Source)
		}
		if len(x) < 800 || len(x) > 1500 {
			t.Errorf("%s is %d bytes, want about 1 KB", name, len(x))
		}
	}
	if entries, _ := os.ReadDir(a); len(entries) != 2 {
		t.Errorf("%d files at %d per folder should make 2 folders, got %d", PerDir+3, PerDir, len(entries))
	}
}

// --history both times the first sort twice in one run: with the import
// history (it is written) and into a second library without it (none).
func TestBenchHistoryBoth(t *testing.T) {
	var log bytes.Buffer
	work := t.TempDir()
	cfg, err := ParseArgs([]string{"200", work, "--history", "both", "--keep", "--workers", "2"})
	if err != nil {
		t.Fatal(err)
	}
	row, err := Run(context.Background(), cfg, &log)
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, log.String())
	}
	alt := row.NoHistory
	if alt == nil || alt.CopyDone != 200 || row.CopyDone != 200 || alt.Plan <= 0 || alt.Copy <= 0 {
		t.Fatalf("want both sorts timed and complete: %+v, without: %+v", row, alt)
	}
	if entries, _ := os.ReadDir(filepath.Join(work, "dst", ".shoebox", "imports")); len(entries) == 0 {
		t.Errorf("the sort with the history wrote none")
	}
	if _, err := os.Stat(filepath.Join(work, "dst-nohistory", ".shoebox", "imports")); !os.IsNotExist(err) {
		t.Errorf("the sort without the history made one (%v)", err)
	}
	if _, err := ParseArgs([]string{"10", "--history", "maybe"}); err == nil {
		t.Error("--history maybe was accepted")
	}
}
