package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// tree writes files (path → content) under root.
func tree(t *testing.T, root string, files map[string][]byte) {
	t.Helper()
	for rel, data := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func photo(y int, mo time.Month, d, h int, comment string) []byte {
	return fixture.JPEG(fixture.EXIF{When: time.Date(y, mo, d, h, 0, 0, 0, time.UTC), SubSec: "500",
		Camera: fixture.Camera{Make: "Canon", Model: "EOS"}, Comment: comment})
}

// snapshot maps every regular file under root (relative, slash) to its content.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && p == root {
				return filepath.SkipDir
			}
			return err
		}
		if d.IsDir() && d.Name() == ".shoebox" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			out[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *recorder) add(ev Event) { r.mu.Lock(); r.events = append(r.events, ev); r.mu.Unlock() }

// reportedWith reports whether any event about path carries every fragment.
func (r *recorder) reportedWith(path string, fragments ...string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, ev := range r.events {
		if ev.Src != path && !strings.Contains(ev.Reason, path) {
			continue
		}
		all := true
		for _, f := range fragments {
			all = all && strings.Contains(ev.Reason, f)
		}
		if all {
			return true
		}
	}
	return false
}

// moves lists "outcome src -> dst" lines, sorted, with dry-run outcomes
// mapped to their real-run names so the two can be compared.
func (r *recorder) moves(src, dst string) []string {
	var out []string
	for _, ev := range r.events {
		if ev.Type != "op" {
			continue
		}
		o := ev.Outcome
		switch o {
		case OutPlanned:
			o = OutTransferred
		case OutPlannedAs:
			o = OutRenamed
		}
		target := ev.Dst
		if ev.SameAs != "" {
			target = ev.SameAs
		}
		out = append(out, string(o)+" "+rel(src, ev.Src)+" -> "+rel(dst, target))
	}
	sort.Strings(out)
	return out
}

func rel(root, p string) string {
	if p == "" {
		return ""
	}
	if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return p
}

type opts func(*Config)

func sortTree(t *testing.T, src []string, dst string, o ...opts) (Summary, *recorder) {
	t.Helper()
	tmpl, err := layout.Parse("{year}/{year}-{month}-{day}/{name}{ext}")
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	cfg := Config{Sources: src, Dest: dst, Template: tmpl, Mode: transfer.Copy, Workers: 3, Dedup: true,
		VideoTZ: time.UTC, Events: rec.add}
	for _, f := range o {
		f(&cfg)
	}
	run, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := run.All(context.Background()); err != nil {
		run.Close()
		t.Fatalf("run: %v", err)
	}
	if err := run.Close(); err != nil {
		t.Fatal(err)
	}
	return run.Summary(), rec
}

func TestSortFilesPhotosByCaptureDate(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "card"), filepath.Join(root, "lib")
	files := map[string][]byte{
		"DCIM/100/IMG_0001.JPG": photo(2019, 7, 4, 15, "a"),
		"DCIM/100/IMG_0002.JPG": photo(2019, 7, 4, 16, "b"),
		"DCIM/101/IMG_0003.JPG": photo(2021, 12, 31, 23, "c"),
		"notes.txt":             []byte("not a photo"),
	}
	tree(t, src, files)
	before := snapshot(t, src)
	sum, _ := sortTree(t, []string{src}, dst)
	got := snapshot(t, dst)
	want := map[string]string{
		"2019/2019-07-04/IMG_0001.JPG": string(files["DCIM/100/IMG_0001.JPG"]),
		"2019/2019-07-04/IMG_0002.JPG": string(files["DCIM/100/IMG_0002.JPG"]),
		"2021/2021-12-31/IMG_0003.JPG": string(files["DCIM/101/IMG_0003.JPG"]),
	}
	assertSame(t, got, want)
	assertSame(t, snapshot(t, src), before) // copy mode never touches sources
	if sum.Transferred != 3 || sum.Ignored != 1 || sum.Failed != 0 || sum.PerYear[2019] != 2 || sum.PerYear[2021] != 1 {
		t.Errorf("summary = %+v", sum)
	}
	info, err := os.Stat(filepath.Join(dst, "2019/2019-07-04/IMG_0001.JPG"))
	srcInfo, _ := os.Stat(filepath.Join(src, "DCIM/100/IMG_0001.JPG"))
	if err != nil || !info.ModTime().Equal(srcInfo.ModTime()) {
		t.Errorf("copy should keep the source mtime: %v vs %v (%v)", info.ModTime(), srcInfo.ModTime(), err)
	}
}

func assertSame(t *testing.T, got, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if g, ok := got[k]; !ok {
			t.Errorf("missing %s", k)
		} else if g != v {
			t.Errorf("%s has the wrong content", k)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected file %s", k)
		}
	}
}

func TestSecondRunCopiesNothing(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "card"), filepath.Join(root, "lib")
	tree(t, src, map[string][]byte{"a.jpg": photo(2018, 1, 2, 3, "a"), "b.jpg": photo(2018, 1, 2, 4, "b")})
	sortTree(t, []string{src}, dst)
	first := snapshot(t, dst)
	for _, dedup := range []bool{true, false} {
		sum, _ := sortTree(t, []string{src}, dst, func(c *Config) { c.Dedup = dedup })
		if sum.Transferred != 0 || sum.Identical+sum.Duplicates != 2 {
			t.Errorf("dedup=%v: second run summary %+v, want nothing transferred", dedup, sum)
		}
	}
	assertSame(t, snapshot(t, dst), first)
}

func TestConflictingNameIsRenamedNeverOverwritten(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "card"), filepath.Join(root, "lib")
	tree(t, src, map[string][]byte{"a/IMG_1.JPG": photo(2020, 5, 6, 7, "new"), "b/IMG_1.JPG": photo(2020, 5, 6, 8, "other")})
	tree(t, dst, map[string][]byte{"2020/2020-05-06/IMG_1.JPG": []byte("someone else's file")})
	sum, _ := sortTree(t, []string{src}, dst, func(c *Config) { c.Dedup = false })
	got := snapshot(t, dst)
	if got["2020/2020-05-06/IMG_1.JPG"] != "someone else's file" {
		t.Fatal("existing file was overwritten")
	}
	if len(got) != 3 || got["2020/2020-05-06/IMG_1-1.JPG"] == "" || got["2020/2020-05-06/IMG_1-2.JPG"] == "" {
		t.Errorf("want IMG_1-1 and IMG_1-2 beside the original, got %v", keys(got))
	}
	if sum.Renamed != 2 {
		t.Errorf("renamed = %d, want 2", sum.Renamed)
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestDryRunPredictsTheRealRun(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "card"), filepath.Join(root, "lib")
	tree(t, src, map[string][]byte{
		"1/IMG_1.JPG": photo(2020, 5, 6, 7, "x"), "2/IMG_1.JPG": photo(2020, 5, 6, 7, "y"),
		"3/copy.JPG": photo(2020, 5, 6, 7, "x"), "4/old.JPG": photo(2001, 1, 1, 1, "z"), "readme.md": []byte("hi"),
	})
	tree(t, dst, map[string][]byte{"2001/2001-01-01/old.JPG": photo(2001, 1, 1, 1, "z")})
	libBefore := snapshot(t, dst)
	_, dry := sortTree(t, []string{src}, dst, func(c *Config) { c.DryRun = true })
	assertSame(t, snapshot(t, dst), libBefore)
	if _, err := os.Stat(StateDir(dst)); !os.IsNotExist(err) {
		t.Errorf("dry run created %s", StateDir(dst))
	}
	_, real := sortTree(t, []string{src}, dst)
	d, r := dry.moves(src, dst), real.moves(src, dst)
	if strings.Join(d, "\n") != strings.Join(r, "\n") {
		t.Errorf("dry run predicted:\n%s\nreal run did:\n%s", strings.Join(d, "\n"), strings.Join(r, "\n"))
	}
	if len(r) != 5 {
		t.Errorf("want 5 outcomes, got %d: %v", len(r), r)
	}
}

func TestDuplicatesAcrossSourcesAndLibrary(t *testing.T) {
	root := t.TempDir()
	a, b, dst := filepath.Join(root, "backup1"), filepath.Join(root, "backup2"), filepath.Join(root, "lib")
	same := photo(2015, 3, 3, 3, "same")
	tree(t, a, map[string][]byte{"IMG_1.JPG": same, "deep/er/renamed.jpg": same})
	tree(t, b, map[string][]byte{"other-name.jpg": same, "unique.jpg": photo(2015, 3, 3, 4, "u"), "empty.jpg": nil})
	tree(t, dst, map[string][]byte{"2010/kept.jpg": photo(2010, 1, 1, 1, "lib")})
	tree(t, b, map[string][]byte{"from-lib.jpg": photo(2010, 1, 1, 1, "lib")})
	// One mtime for the three copies: the older one would be kept
	// (plan.Keeper), and tree writes them in map order.
	for _, p := range []string{filepath.Join(a, "IMG_1.JPG"), filepath.Join(a, "deep/er/renamed.jpg"), filepath.Join(b, "other-name.jpg")} {
		when := time.Date(2015, 3, 3, 3, 0, 0, 0, time.UTC)
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
	}
	sum, rec := sortTree(t, []string{a, b}, dst)
	got := snapshot(t, dst)
	if len(got) != 3 || got["2015/2015-03-03/IMG_1.JPG"] != string(same) || got["2015/2015-03-03/unique.jpg"] == "" {
		t.Errorf("library = %v", keys(got))
	}
	if sum.Duplicates != 2 || sum.Identical != 1 {
		t.Errorf("duplicates = %d, already in library = %d; want 2 (twins of IMG_1.JPG) and 1", sum.Duplicates, sum.Identical)
	}
	found := false
	for _, ev := range rec.events {
		if ev.Outcome == OutIdentical && strings.HasSuffix(ev.Src, "from-lib.jpg") && strings.HasSuffix(ev.SameAs, filepath.Join("2010", "kept.jpg")) {
			found = true
		}
	}
	if !found {
		t.Error("from-lib.jpg should be reported as a duplicate of the library's 2010/kept.jpg")
	}
}

func TestNoDateGoesToUnknown(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "in"), filepath.Join(root, "lib")
	plain := fixture.JPEG(fixture.EXIF{}) // EXIF with no date fields is still a JPEG
	tree(t, src, map[string][]byte{"scan0001.jpg": stripDates(plain), "IMG_20190704_153000.jpg": stripDates(plain)})
	sum, _ := sortTree(t, []string{src}, dst, func(c *Config) { c.NoModTime = true; c.Dedup = false })
	got := snapshot(t, dst)
	if _, ok := got["unknown/scan0001.jpg"]; !ok {
		t.Errorf("scan0001.jpg should be in unknown/, library = %v", keys(got))
	}
	if _, ok := got["2019/2019-07-04/IMG_20190704_153000.jpg"]; !ok {
		t.Errorf("the file name's date should be used, library = %v", keys(got))
	}
	if sum.UnknownDate != 1 {
		t.Errorf("unknown = %d", sum.UnknownDate)
	}
}

// stripDates blanks the EXIF date strings of a fixture JPEG.
func stripDates(b []byte) []byte {
	out := append([]byte(nil), b...)
	zero := []byte("0001:01:01 00:00:00")
	for i := 0; i+len(zero) <= len(out); i++ {
		if string(out[i:i+len(zero)]) == string(zero) {
			copy(out[i:], "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")
		}
	}
	return out
}

// Two photos of one size but different bytes are not duplicates: both land.
func TestSameSizeDifferentContentIsNotADuplicate(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "card"), filepath.Join(root, "lib")
	a := photo(2016, 5, 5, 5, "aaaa")
	b := photo(2016, 5, 5, 5, "bbbb") // same length comment: same size
	if len(a) != len(b) || string(a) == string(b) {
		t.Fatal("fixture: want two files of one size and different bytes")
	}
	tree(t, src, map[string][]byte{"x/IMG_1.JPG": a, "y/IMG_2.JPG": b})
	sum, _ := sortTree(t, []string{src}, dst)
	if sum.Transferred != 2 || sum.Duplicates != 0 {
		t.Errorf("summary %+v, want both transferred and no duplicate", sum)
	}
}

// BenchmarkPlanDedup times the plan stage with dedup on and off over files
// of unique sizes, where dedup should cost one ordered pass and no reads.
func BenchmarkPlanDedup(b *testing.B) {
	src := b.TempDir()
	for i := 0; i < 2000; i++ {
		p := filepath.Join(src, fmt.Sprintf("d%02d", i/500), fmt.Sprintf("IMG_%04d.JPG", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, photo(2015, 1, 1+i%28, 1, strings.Repeat("x", i)), 0o644) // unique sizes
	}
	tmpl, _ := layout.Parse("{year}/{year}-{month}-{day}/{name}{ext}")
	for _, dedup := range []bool{false, true} {
		b.Run(fmt.Sprintf("dedup=%v", dedup), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				run, err := Open(Config{Sources: []string{src}, Dest: filepath.Join(b.TempDir(), "lib"), Template: tmpl,
					Workers: 2, Dedup: dedup, DryRun: true, VideoTZ: time.UTC})
				if err != nil {
					b.Fatal(err)
				}
				ctx := context.Background()
				if err := run.Scan(ctx); err != nil {
					b.Fatal(err)
				}
				if err := run.Meta(ctx); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				err = run.Plan(ctx)
				b.StopTimer()
				run.Close()
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
