package cli

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/scan"
)

// TestExplainAgreesWithSort: for every file of the real samples (the
// repo's testdata and the shared corpus), the folder explain names is the
// folder sort plans it into — Takeout JSON, THM, XMP, pairs and Live
// Photos included, since both run pipeline.Decide's grouping.
func TestExplainAgreesWithSort(t *testing.T) {
	trees := map[string]string{"testdata": filepath.Join("..", "meta", "testdata")}
	t.Run("testdata", func(t *testing.T) { explainMatchesSort(t, trees["testdata"]) })
	t.Run("corpus", func(t *testing.T) {
		slowUnderWine(t)
		explainMatchesSort(t, fixture.CorpusDir(t))
	})
}

// TestExplainUsesTakeoutJSON: a photo whose EXIF date is unusable is filed
// under the time in its Takeout JSON by sort; explain says the same.
func TestExplainUsesTakeoutJSON(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "Takeout")
	writeFile(t, filepath.Join(src, "IMG_1.jpg"), fixture.JPEG(fixture.EXIF{Comment: "no usable date"}), 0o644)
	writeFile(t, filepath.Join(src, "IMG_1.jpg.supplemental-metadata.json"),
		[]byte(`{"title":"IMG_1.jpg","photoTakenTime":{"timestamp":"1562247000","formatted":"Jul 4, 2019"}}`), 0o644)
	old := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, n := range []string{"IMG_1.jpg", "IMG_1.jpg.supplemental-metadata.json"} {
		if err := os.Chtimes(filepath.Join(src, n), old, old); err != nil {
			t.Fatal(err)
		}
	}
	got := explainFolders(t, []string{filepath.Join(src, "IMG_1.jpg"), filepath.Join(src, "IMG_1.jpg.supplemental-metadata.json")})
	want := filepath.FromSlash("2019/2019-07-04")
	for p, folder := range got {
		if folder != want {
			t.Errorf("explain files %s under %q, want %q (the JSON's photoTakenTime)", filepath.Base(p), folder, want)
		}
	}
	explainMatchesSort(t, src)
}

func explainMatchesSort(t *testing.T, root string) {
	t.Helper()
	root, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	sorted := sortFolders(t, root)
	var files []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != root && scan.IsClutter(d.Name()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	explained := explainFolders(t, files)
	compared := 0
	for _, f := range files {
		want, ok := sorted[f]
		if !ok {
			continue // failed in sort, or not reached
		}
		compared++
		if got := explained[f]; got != want {
			t.Errorf("%s: explain says %q, sort plans %q", f, got, want)
		}
	}
	if compared == 0 {
		t.Fatalf("no file of %s compared", root)
	}
	t.Logf("%d files: explain and sort agree on %d", len(files), compared)
}

// sortFolders runs a dry sort of root (dedup off: explain does not know
// the library) and returns each source's folder relative to the library,
// or "left in place".
func sortFolders(t *testing.T, root string) map[string]string {
	t.Helper()
	lib := filepath.Join(t.TempDir(), "lib")
	r := shoebox("sort", "--dry-run", "--json", "-q", "--dedup", "off", root, lib)
	if r.code != ExitOK && r.code != ExitIncomplete {
		t.Fatalf("sort: %s", r)
	}
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var ev pipeline.Event
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatal(err)
		}
		switch {
		case ev.Type != "op":
		case ev.Outcome == pipeline.OutIgnored:
			out[ev.Src] = "left in place"
		case ev.Outcome == pipeline.OutPlanned || ev.Outcome == pipeline.OutPlannedAs:
			rel, err := filepath.Rel(lib, filepath.Dir(ev.Dst))
			if err != nil {
				t.Fatal(err)
			}
			out[ev.Src] = rel
		}
	}
	return out
}

// explainFolders runs explain on files and reads, for each, the folder
// its last line names ("files under …", "unknown", "left in place").
func explainFolders(t *testing.T, files []string) map[string]string {
	t.Helper()
	r := shoebox(append([]string{"explain"}, files...)...)
	if r.code != ExitOK {
		t.Fatalf("explain: %s", r)
	}
	byShown := map[string]string{}
	for _, f := range files {
		byShown[shown(f)] = f
	}
	out := map[string]string{}
	var cur string
	for _, line := range strings.Split(r.stdout, "\n") {
		if f, ok := byShown[line]; ok && !strings.HasPrefix(line, " ") {
			cur = f
			continue
		}
		switch {
		case strings.Contains(line, "→ left in place"):
			out[cur] = "left in place"
		case strings.Contains(line, "→ no date"):
			out[cur] = "unknown"
		case strings.Contains(line, ": files under "):
			out[cur] = line[strings.LastIndex(line, ": files under ")+len(": files under "):]
		}
	}
	return out
}
