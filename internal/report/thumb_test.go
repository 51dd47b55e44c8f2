package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/pipeline"
)

// previewFixtures are real files with an embedded preview (see
// internal/meta/testdata): a HEIF, a Fujifilm RAW and an MP4.
var previewFixtures = []string{"preview/heif-exif-thumb.heif", "FujiFilm.raf", "preview/mp4-cover.mp4"}

func copyFixture(t *testing.T, rel, to string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "meta", "testdata", rel))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Files with no date and files dated by file time show their preview,
// read where the file was or, once moved, where it went; past ThumbRows
// rows the list goes on without.
func TestListsShowPreviews(t *testing.T) {
	base := t.TempDir()
	lib := filepath.Join(base, "lib")
	c := NewCollector(lib)
	for i, rel := range previewFixtures {
		src := filepath.Join(base, "card", fmt.Sprintf("f%d%s", i, filepath.Ext(rel)))
		dst := filepath.Join(lib, "unknown", filepath.Base(src))
		if i == 1 { // moved: only the library copy is left
			copyFixture(t, rel, dst)
		} else {
			copyFixture(t, rel, src)
		}
		c.Add(pipeline.Event{Type: "op", Outcome: pipeline.OutTransferred, Src: src, Dst: dst, Size: 1})
	}
	for i := 0; i < ThumbRows+5; i++ {
		src := filepath.Join(base, "card", fmt.Sprintf("m%03d.heif", i))
		copyFixture(t, previewFixtures[0], src)
		c.Add(pipeline.Event{Type: "op", Outcome: pipeline.OutTransferred, Src: src, Dst: filepath.Join(lib, "2020", filepath.Base(src)),
			Size: 1, Date: "2020-01-02T03:04:05", DateSource: "mtime"})
	}
	p := c.view(Run{Dest: lib}, pipeline.Summary{})
	for i, it := range p.NoDate.Items {
		if !strings.HasPrefix(string(it.Img), "data:image/jpeg;base64,") {
			t.Errorf("no-date row %d (%s) has no preview", i, previewFixtures[i])
		}
	}
	withImg := 0
	for _, it := range p.ByModTime.Items {
		if it.Img != "" {
			withImg++
		}
	}
	if len(p.ByModTime.Items) != ThumbRows+5 || withImg != ThumbRows {
		t.Errorf("file-time list: %d rows, %d with a preview; want %d and %d", len(p.ByModTime.Items), withImg, ThumbRows+5, ThumbRows)
	}
	page := writePage(t, c, pipeline.Summary{})
	if n := strings.Count(page, `<img class="mini"`); n != ThumbRows+len(previewFixtures) {
		t.Errorf("page has %d list previews, want %d", n, ThumbRows+len(previewFixtures))
	}
}

// The page's budget stops reading previews after ThumbFiles files or
// ThumbBytes bytes.
func TestThumbBudget(t *testing.T) {
	src := filepath.Join(t.TempDir(), "a.heif")
	copyFixture(t, previewFixtures[0], src)
	tb := &thumbBudget{files: 3, bytes: 1 << 20}
	for i := 0; i < 3; i++ {
		if tb.uri(src) == "" {
			t.Fatalf("preview %d missing within the budget", i)
		}
	}
	if tb.uri(src) != "" {
		t.Errorf("a fourth preview was read past a budget of 3 files")
	}
	tb = &thumbBudget{files: 10, bytes: 6000}
	if tb.uri(src) == "" || tb.uri(src) != "" {
		t.Errorf("a 6,000-byte budget should hold one 5,529-byte preview and no second")
	}
}
