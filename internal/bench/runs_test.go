package bench

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/meta"
)

// TestBenchTimesRerunIncrementalAndReferences runs every whole-run row on
// a small tree: the re-run transfers nothing, the incremental run exactly
// the new files, and the reference commands are timed or say why not.
func TestBenchTimesRerunIncrementalAndReferences(t *testing.T) {
	var log bytes.Buffer
	cfg := Config{Count: 60, WorkDir: t.TempDir(), Workers: 2, Seed: 3, Mode: "copy",
		Rerun: true, Incremental: 7, Compare: true}
	row, err := Run(context.Background(), cfg, &log)
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, log.String())
	}
	want := map[string]int64{"first sort": 60, "cp -r": -1, "rsync -a SRC": -1, "re-run": 0, "rsync -a re-run": -1, "incremental, 7 new into an empty": 7, "incremental, 7 new into 60": 7,
		"dry run, 7 new into an empty": 7, "dry run, 7 new into 60": 7}
	for _, r := range row.Runs {
		for prefix, moved := range want {
			if strings.HasPrefix(r.Name, prefix) {
				if r.Transferred != moved {
					t.Errorf("%s: transferred %d, want %d", r.Name, r.Transferred, moved)
				}
				if r.Took <= 0 && r.Note == "" {
					t.Errorf("%s: neither timed nor explained: %+v", r.Name, r)
				}
				delete(want, prefix)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("rows missing: %v in %+v", want, row.Runs)
	}
	if _, err := os.Stat(sourcePath(filepath.Join(cfg.WorkDir, "src"), 66)); err == nil {
		t.Errorf("the work dir was not removed without --keep")
	}
	var out bytes.Buffer
	PrintRuns(&out, row)
	if !strings.Contains(out.String(), "| re-run, same library | 60 |") || !strings.Contains(out.String(), "| incremental, 7 new into 60 | 7 |") {
		t.Errorf("runs table:\n%s", out.String())
	}
}

// TestRealSizeFilesAreBigIncompressibleAndDated checks the real-size
// generator: 3–5 MB, an EXIF date the reader finds, a payload that does
// not compress (no byte value dominates) and no marker inside it.
func TestRealSizeFilesAreBigIncompressibleAndDated(t *testing.T) {
	dir := t.TempDir()
	if err := GenerateRange(dir, 0, 2, Shape{Seed: 5, RealSize: true}); err != nil {
		t.Fatal(err)
	}
	rd := meta.NewReader(meta.Options{})
	for i := 0; i < 2; i++ {
		data, err := os.ReadFile(sourcePath(dir, i))
		if err != nil {
			t.Fatal(err)
		}
		if len(data) < RealMin || len(data) > RealMax {
			t.Errorf("file %d is %d bytes, want 3–5 MB", i, len(data))
		}
		if info := rd.Bytes("x.jpg", data, time.Now()); info.Date.Source != meta.SourceEXIF {
			t.Errorf("file %d: date from %v, want EXIF", i, info.Date.Source)
		}
		var counts [256]int
		tail := data[len(data)/2 : len(data)-2]
		for _, c := range tail {
			counts[c]++
		}
		if counts[0xFF] != 0 || !bytes.Equal(data[len(data)-2:], []byte{0xFF, 0xD9}) {
			t.Errorf("file %d: payload holds %d 0xFF bytes or does not end with EOI", i, counts[0xFF])
		}
		for c, n := range counts[:0xFF] {
			if n > 2*len(tail)/255 {
				t.Errorf("file %d: byte %#x is %d of %d payload bytes: compressible", i, c, n, len(tail))
				break
			}
		}
	}
}

// TestBenchTimesTheSortFromAZip runs the --zip rows on a small tree: the
// sort from a zip of the tree lands every file, as the sort from the
// tree does, two rounds each, with their peak RSS and their ratio.
func TestBenchTimesTheSortFromAZip(t *testing.T) {
	var log bytes.Buffer
	cfg := Config{Count: 40, WorkDir: t.TempDir(), Workers: 2, Seed: 4, Mode: "copy", Zip: true}
	row, err := Run(context.Background(), cfg, &log)
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, log.String())
	}
	n := 0
	for _, r := range row.Runs {
		if !strings.HasPrefix(r.Name, "first sort from") {
			continue
		}
		n++
		if r.Transferred != 40 || r.Took <= 0 {
			t.Errorf("%s: transferred %d in %v, want 40", r.Name, r.Transferred, r.Took)
		}
		if runtime.GOOS == "linux" && r.PeakRSS <= 0 {
			t.Errorf("%s: no peak RSS", r.Name)
		}
	}
	if n != 4 {
		t.Errorf("%d zip and folder rows, want 4: %+v", n, row.Runs)
	}
	var out bytes.Buffer
	PrintRuns(&out, row)
	if !strings.Contains(out.String(), "first sort from a zip of it (round 2) ÷ first sort from the folder (round 2): ") {
		t.Errorf("no zip ratio:\n%s", out.String())
	}
}

// TestBenchTimesTheLibrarysLife runs the --life rows on a small tree:
// check, check --read-data, the reference hash and a relayout, each with
// its time, rate and peak RSS; the relayout moves every file.
func TestBenchTimesTheLibrarysLife(t *testing.T) {
	var log bytes.Buffer
	cfg := Config{Count: 40, WorkDir: t.TempDir(), Workers: 2, Seed: 5, Mode: "copy", Life: true}
	row, err := Run(context.Background(), cfg, &log)
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, log.String())
	}
	want := []string{"check (stat only)", "check --read-data", "BLAKE3 of the same files", "relayout to"}
	var got []RunRow
	for _, r := range row.Runs {
		for _, w := range want {
			if strings.HasPrefix(r.Name, w) {
				got = append(got, r)
			}
		}
	}
	if len(got) != len(want) {
		t.Fatalf("life rows %+v, want %v", got, want)
	}
	for i, r := range got {
		if !strings.HasPrefix(r.Name, want[i]) || r.Took <= 0 || !strings.Contains(r.Note, "files/s") {
			t.Errorf("row %d: %+v", i, r)
		}
		if runtime.GOOS == "linux" && r.PeakRSS <= 0 {
			t.Errorf("%s: no peak RSS", r.Name)
		}
	}
	if !strings.Contains(got[1].Note, "MB/s") || !strings.HasPrefix(got[3].Note, "40 moved") {
		t.Errorf("notes: %q, %q", got[1].Note, got[3].Note)
	}
}

func TestParseArgsNewFlags(t *testing.T) {
	cfg, err := ParseArgs([]string{"100", "/w", "--real-size", "--cold", "--rerun", "--incremental", "10",
		"--compare", "--zip", "--life", "--mode", "reflink", "--workers", "auto", "--meta-workers", "16"})
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.RealSize || !cfg.Cold || !cfg.Rerun || cfg.Incremental != 10 || !cfg.Compare || !cfg.Zip || !cfg.Life ||
		cfg.Mode != "reflink" || cfg.Workers != 0 || cfg.MetaWorkers != 16 || cfg.WorkDir != "/w" {
		t.Errorf("parsed %+v", cfg)
	}
	for _, bad := range [][]string{{"10", "--mode", "move"}, {"10", "--incremental", "0"}, {"10", "--scan-only", "--rerun"}, {"10", "--scan-only", "--zip"}, {"10", "--scan-only", "--life"}} {
		if _, err := ParseArgs(bad); err == nil {
			t.Errorf("%v: accepted", bad)
		}
	}
}

// TestSummaryShowsRerunReadBoth checks the storage row's re-run cell
// carries read() bytes beside the disk's, the only count a network share has.
func TestSummaryShowsRerunReadBoth(t *testing.T) {
	r := Row{Cache: "cold", Workers: 4, MetaWorkers: 16, Files: 10, Runs: []RunRow{
		{Name: "re-run, same library", Files: 10, Took: time.Second, IO: IO{ReadBytes: 0, RChar: 20000, OK: true}},
	}}
	var out bytes.Buffer
	PrintSummary(&out, "sshfs", r)
	if got := out.String(); !strings.Contains(got, "| 1.00 s (0.0 KB / 2.0 KB) |") {
		t.Errorf("summary re-run cell lacks disk and read() bytes: %q", got)
	}
	if cols, head := strings.Count(out.String(), "|"), strings.Count(strings.SplitN(SummaryHeader, "\n", 2)[0], "|"); cols != head {
		t.Errorf("summary has %d column bars, header %d", cols, head)
	}
}

// TestParseArgsEveryFlag sets every flag of Usage once, so each row of the
// flag table is seen to write its own field.
func TestParseArgsEveryFlag(t *testing.T) {
	cfg, err := ParseArgs([]string{"--keep", "7", "--scan-only", "--generate-only", "--label", "ext4 loop",
		"--seed", "-3", "--dedup", "on", "--cpuprofile", "c.out", "--memprofile", "m.out", "--workers", "8", "--history", "both"})
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Count: 7, Keep: true, ScanOnly: true, GenerateOnly: true, Label: "ext4 loop", Seed: -3,
		Dedup: true, CPUProfile: "c.out", MemProfile: "m.out", Workers: 8, Mode: "copy", History: HistoryBoth}
	if cfg != want {
		t.Errorf("parsed %+v, want %+v", cfg, want)
	}
	for _, bad := range [][]string{{"10", "--label"}, {"10", "--dedup", "maybe"}, {"10", "--seed", "x"},
		{"10", "--workers", "0"}, {"10", "--history", "maybe"}, {}, {"1", "2", "3"}, {"none"}} {
		if _, err := ParseArgs(bad); err == nil {
			t.Errorf("%v: accepted", bad)
		}
	}
}
