package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/pipeline"
)

const dest = "/lib"

func placed(i int, dir string) pipeline.Event {
	return pipeline.Event{Type: "op", Outcome: pipeline.OutTransferred, Src: fmt.Sprintf("/card/IMG_%06d.JPG", i),
		Dst: filepath.Join(dest, dir, fmt.Sprintf("IMG_%06d.JPG", i)), Size: 1000, Date: "2019-07-04T10:00:00"}
}

// A run of any size leaves the Collector holding at most its caps: counts
// stay exact, lists stop growing and say how many more there were.
func TestCollectorStaysBounded(t *testing.T) {
	c := NewCollector(dest)
	const n = 200_000
	for i := 0; i < n; i++ {
		c.Add(placed(i, fmt.Sprintf("2019/%06d", i))) // a folder per file: the worst case for the tree
		c.Add(pipeline.Event{Type: "op", Outcome: pipeline.OutFailed, Src: fmt.Sprint("/card/bad", i), Reason: "it broke"})
		c.Add(pipeline.Event{Type: "warning", Reason: "odd file"})
		c.Add(pipeline.Event{Type: "op", Outcome: pipeline.OutDuplicate, Src: fmt.Sprint("/card/dup", i), SameAs: "/card/orig"})
	}
	if c.placed != n || c.failures.total != n || c.warnings.total != n || c.duplicates.total != n {
		t.Fatalf("counts: placed %d failures %d warnings %d duplicates %d, want %d each",
			c.placed, c.failures.total, c.warnings.total, c.duplicates.total, n)
	}
	for name, kept := range map[string]int{"failures": len(c.failures.items), "warnings": len(c.warnings.items), "duplicates": len(c.duplicates.items)} {
		if kept != ListCap {
			t.Errorf("%s keeps %d entries, want the cap %d", name, kept, ListCap)
		}
	}
	if len(c.dirs) != DirCap || c.otherFiles != n-DirCap {
		t.Errorf("tree keeps %d folders and %d files beyond, want %d and %d", len(c.dirs), c.otherFiles, DirCap, n-DirCap)
	}
	if c.names > NamesCap {
		t.Errorf("tree keeps %d names, over the cap %d", c.names, NamesCap)
	}
	if len(c.keptAt) > ThumbPairs {
		t.Errorf("%d kept copies tracked for thumbnails, over %d", len(c.keptAt), ThumbPairs)
	}

	page := writePage(t, c, pipeline.Summary{Transferred: n, Failed: n, Duplicates: n})
	for _, want := range []string{
		fmt.Sprintf("and %s more", group(n-ListCap)),                         // failures, warnings, duplicates
		fmt.Sprintf("and %s more files in further folders", group(n-DirCap)), // the tree
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

func TestTreeCapsNamesPerFolder(t *testing.T) {
	c := NewCollector(dest)
	for i := 0; i < FilesPerDir+7; i++ {
		c.Add(placed(i, "2019/2019-07-04"))
	}
	tree := buildTree(c.dirs)
	if len(tree) != 1 || tree[0].Name != "2019" || tree[0].Count != FilesPerDir+7 {
		t.Fatalf("top of tree = %+v", tree)
	}
	day := tree[0].Children[0]
	if day.Name != "2019-07-04" || len(day.Files) != FilesPerDir || day.More != 7 {
		t.Fatalf("day folder: name %q, %d names, %d more; want 2019-07-04, %d, 7", day.Name, len(day.Files), day.More, FilesPerDir)
	}
	if page := writePage(t, c, pipeline.Summary{}); !strings.Contains(page, "and 7 more") {
		t.Errorf("page does not say how many names were left out")
	}
}

func TestCaptureMonth(t *testing.T) {
	cases := []struct {
		in          string
		year, month int
		known       bool
	}{
		{"2019-07-04T15:30:00", 2019, 7, true},
		{"2019", 2019, 0, true},
		{"0", 0, 0, false},
		{"", 0, 0, false},
		{"20x9-07", 0, 0, false},
		{"2019-13-01T00:00:00", 2019, 0, true},
	}
	for _, c := range cases {
		y, m, ok := captureMonth(c.in)
		if y != c.year || m != c.month || ok != c.known {
			t.Errorf("captureMonth(%q) = %d, %d, %v; want %d, %d, %v", c.in, y, m, ok, c.year, c.month, c.known)
		}
	}
}

// Paths come from the user's disk: the page must show them, never run them.
func TestPageEscapesPaths(t *testing.T) {
	c := NewCollector(dest)
	evil := `/card/<script>alert("x")</script>.jpg`
	c.Add(pipeline.Event{Type: "op", Outcome: pipeline.OutFailed, Src: evil, Reason: "<b>no</b>"})
	page := writePage(t, c, pipeline.Summary{Failed: 1})
	if strings.Contains(page, "<script>alert") || strings.Contains(page, "<b>no</b>") {
		t.Fatalf("a path or reason went into the page unescaped")
	}
	if !strings.Contains(page, "&lt;script&gt;alert") {
		t.Errorf("the failed path is not shown")
	}
}

func TestWriteReplacesWholeFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.html")
	if err := os.WriteFile(path, []byte(reportPrologue+"\nold report"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := NewCollector(dest)
	c.Add(placed(1, "2019/2019-07-04"))
	if err := c.Write(path, Run{Dest: dest, Finished: time.Now()}, pipeline.Summary{Transferred: 1}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(b), "<!DOCTYPE html>") || !strings.HasSuffix(strings.TrimSpace(string(b)), "</html>") {
		t.Fatalf("report is not one whole page (%v):\n%.200s", err, b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("folder holds %d entries, want only the report", len(entries))
	}
	missing := filepath.Join(dir, "gone", "plan.html")
	err = c.Write(missing, Run{Dest: dest}, pipeline.Summary{})
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("writing into a missing folder: want an error naming %s, got %v", missing, err)
	}
}

func writePage(t *testing.T, c *Collector, sum pipeline.Summary) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.html")
	if err := c.Write(path, Run{Dest: dest, Sources: []string{"/card"}, Finished: time.Now()}, sum); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// BenchmarkCollect is the cost per event of feeding the report.
func BenchmarkCollect(b *testing.B) {
	c := NewCollector(dest)
	for i := 0; i < b.N; i++ {
		c.Add(placed(i, fmt.Sprintf("2019/2019-07-%02d", i%28+1)))
	}
}

// A reason shared by many files is said once, above its files, with their
// count; each distinct reason keeps its own row, in the order it came.
func TestReasonsAreGroupedOncePerReason(t *testing.T) {
	c := NewCollector(dest)
	long := "left out: matches --exclude Trash, a folder the user keeps deleted photos in until the card is wiped"
	for i := 0; i < 3; i++ {
		c.Add(pipeline.Event{Type: "op", Outcome: pipeline.OutFiltered, Src: fmt.Sprintf("/card/Trash/IMG_%d.JPG", i), Reason: long})
	}
	c.Add(pipeline.Event{Type: "op", Outcome: pipeline.OutFiltered, Src: "/card/VID_1.MOV", Reason: "a video, not --kind photo"})
	page := writePage(t, c, pipeline.Summary{Filtered: 4})
	if n := strings.Count(page, "until the card is wiped"); n != 1 {
		t.Errorf("the shared reason appears %d times, want once", n)
	}
	if !strings.Contains(page, `until the card is wiped <span class="cnt">3</span>`) {
		t.Error("the shared reason does not give its count of files")
	}
	for i := 0; i < 3; i++ {
		if !strings.Contains(page, fmt.Sprintf("<code>/card/Trash/IMG_%d.JPG</code>", i)) {
			t.Errorf("file %d is not listed under its reason", i)
		}
	}
	if strings.Index(page, "until the card is wiped") > strings.Index(page, "a video, not --kind photo") {
		t.Error("reasons are not in the order they first came")
	}
}
