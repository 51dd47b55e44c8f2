package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
)

// reportTree is a small card with one of everything the report shows:
// dated photos over three years, two different photos wanting the same
// name, a duplicate, a photo with no date, a file that is not a photo, an
// unreadable photo, an unreadable folder and a destination folder that
// cannot be written.
type reportTree struct {
	base, src1, src2, lib, out string
	unreadable, noDate, dupe   string
	destLocked                 bool // false where a folder cannot be made unwritable (Windows)
	run                        func(args ...string) result
}

func newReportTree(t *testing.T) *reportTree {
	t.Helper()
	rt := &reportTree{}
	if os.Geteuid() == 0 {
		// Root reads everything: drop to nobody so the locked file and
		// folders really are locked.
		f := newPermFixture(t)
		rt.base, rt.lib, rt.run = f.base, f.lib, f.runAsNobody
	} else {
		rt.base = t.TempDir()
		rt.lib = filepath.Join(rt.base, "lib")
		rt.run = shoebox
	}
	rt.src1, rt.src2 = filepath.Join(rt.base, "card1"), filepath.Join(rt.base, "card2")
	rt.out = filepath.Join(rt.base, "out")
	mkdirOwned(t, rt.out)
	mkdirOwned(t, rt.lib)

	photo := func(dir, name string, when time.Time, comment string) []byte {
		b := fixture.JPEG(fixture.EXIF{When: when, Comment: comment, Camera: fixture.Camera{Make: "Canon", Model: "PowerShot"}})
		writeFile(t, filepath.Join(dir, name), b, 0o644)
		return b
	}
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 10, 30, 0, 0, time.UTC) }
	photo(rt.src1, "IMG_0001.JPG", day(2019, 7, 4), "first")
	photo(rt.src1, "IMG_0002.JPG", day(2019, 7, 4), "second")
	photo(rt.src1, "IMG_0003.JPG", day(2019, 8, 15), "third")
	photo(rt.src1, "IMG_0004.JPG", day(2021, 12, 25), "fourth")
	beach := photo(rt.src1, "beach.jpg", day(2020, 3, 1), "beach")
	photo(rt.src2, "IMG_0001.JPG", day(2019, 7, 4), "other camera, same name") // a conflict
	rt.dupe = filepath.Join(rt.src2, "beach copy.jpg")
	writeFile(t, rt.dupe, beach, 0o644)
	rt.noDate = filepath.Join(rt.src2, "scan.jpg")
	writeFile(t, rt.noDate, fixture.JPEG(fixture.EXIF{Comment: "no date anywhere"}), 0o644)
	writeFile(t, filepath.Join(rt.src1, "notes.txt"), []byte("not a photo\n"), 0o644)
	rt.unreadable = filepath.Join(rt.src2, "IMG_0099.JPG")
	photo(rt.src2, "IMG_0099.JPG", day(2020, 5, 5), "locked")
	lockFile(t, rt.unreadable)
	photo(filepath.Join(rt.src2, "private"), "IMG_0100.JPG", day(2020, 5, 6), "locked folder")
	lockFolder(t, filepath.Join(rt.src2, "private"))
	photo(rt.src1, "IMG_0005.JPG", day(2022, 1, 2), "its folder is read-only")
	rt.destLocked = lockDestFolder(t, mkdirAll(t, filepath.Join(rt.lib, "2022", "2022-01-02")))
	return rt
}

func mkdirAll(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// mkdirOwned makes a folder the user running shoebox may write.
func mkdirOwned(t *testing.T, dir string) {
	t.Helper()
	mkdirAll(t, dir)
	if os.Geteuid() == 0 {
		if err := os.Chown(dir, nobody, nobody); err != nil {
			t.Fatal(err)
		}
	}
}

// jsonSummary reads --json output: every line must parse; it returns the
// op events and the final summary.
func jsonSummary(t *testing.T, stdout string) ([]pipeline.Event, pipeline.Summary) {
	t.Helper()
	var ops []pipeline.Event
	var sum pipeline.Summary
	sawSummary := false
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var head struct{ Type string }
		if err := json.Unmarshal(sc.Bytes(), &head); err != nil {
			t.Fatalf("--json line %d does not parse: %v\n%s", n, err, sc.Text())
		}
		if sawSummary {
			t.Fatalf("--json line %d comes after the summary: %s", n, sc.Text())
		}
		switch head.Type {
		case "summary":
			sawSummary = true
			if err := json.Unmarshal(sc.Bytes(), &sum); err != nil {
				t.Fatalf("summary line: %v", err)
			}
		case "info", "start":
			// A choice the run made (workers): not about any one file.
		case "op", "warning", "problem":
			var ev pipeline.Event
			if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
				t.Fatalf("--json line %d: %v", n, err)
			}
			ops = append(ops, ev)
		default:
			t.Fatalf("--json line %d has unknown type %q: %s", n, head.Type, sc.Text())
		}
	}
	if !sawSummary {
		t.Fatalf("--json output has no summary line:\n%s", stdout)
	}
	return ops, sum
}

// reportFacts are the numbers a report page shows, read from its HTML.
type reportFacts struct {
	stats    map[string]int64 // data-stat cards
	sections map[string]int64 // the section counts under the totals
	years    map[int]int64    // year chart bars
	months   int64            // sum of the month chart bars
	treeTop  int64            // sum of the top folders' counts
	text     string           // all visible text
	status   string
	external []string // anything that would load from the network
}

func readReport(t *testing.T, page string) reportFacts {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatalf("report is not HTML: %v", err)
	}
	f := reportFacts{stats: map[string]int64{}, sections: map[string]int64{}, years: map[int]int64{}}
	var text strings.Builder
	var walk func(n *html.Node, topLevel bool)
	walk = func(n *html.Node, topLevel bool) {
		if n.Type == html.TextNode {
			text.WriteString(n.Data)
			text.WriteByte(' ')
		}
		if n.Type == html.ElementNode {
			f.readElement(t, n, topLevel)
			for _, a := range n.Attr {
				if (a.Key == "src" || a.Key == "href") && (strings.HasPrefix(a.Val, "http") || strings.HasPrefix(a.Val, "//")) {
					f.external = append(f.external, a.Val)
				}
			}
			if n.Data == "link" || n.Data == "iframe" || (n.Data == "script" && attr(n, "src") != "") {
				f.external = append(f.external, "<"+n.Data+">")
			}
		}
		childTop := topLevel
		if n.Type == html.ElementNode && n.Data == "details" {
			childTop = false
		}
		if attr(n, "id") == "tree" {
			childTop = true
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, childTop)
		}
	}
	walk(doc, false)
	f.text = strings.Join(strings.Fields(text.String()), " ")
	return f
}

func (f *reportFacts) readElement(t *testing.T, n *html.Node, topLevel bool) {
	num := func(s string) int64 {
		v, err := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
		if err != nil {
			t.Fatalf("report number %q: %v", s, err)
		}
		return v
	}
	if id := attr(n, "data-stat"); id != "" && attr(n, "data-value") != "" {
		f.stats[id] = num(attr(n, "data-value"))
		if shown := num(textOf(firstElement(n, "b"))); shown != f.stats[id] {
			t.Errorf("stat %s shows %d but carries %d", id, shown, f.stats[id])
		}
	}
	if id := attr(n, "data-section"); id != "" {
		f.sections[id] = num(textOf(firstElement(n, "b")))
	}
	if y := attr(n, "data-year"); y != "" {
		f.years[int(num(y))] = num(attr(n, "data-count"))
	}
	if attr(n, "data-month") != "" {
		f.months += num(attr(n, "data-count"))
	}
	if n.Data == "details" && topLevel {
		s := firstElement(n, "summary")
		f.treeTop += num(textOf(firstElementClass(s, "cnt")))
	}
	if attr(n, "id") == "status" {
		f.status = textOf(n)
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func firstElement(n *html.Node, tag string) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data == tag {
			return c
		}
		if found := firstElement(c, tag); found != nil {
			return found
		}
	}
	return nil
}

func firstElementClass(n *html.Node, class string) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && attr(c, "class") == class {
			return c
		}
	}
	return nil
}

func textOf(n *html.Node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.TrimSpace(b.String())
}

// checkReport compares every number of the page with the run's summary.
func checkReport(t *testing.T, f reportFacts, sum pipeline.Summary) {
	t.Helper()
	wantStats := map[string]int64{
		"scanned": sum.Scanned, "media": sum.Media, "transferred": sum.Transferred - sum.Renamed,
		"renamed": sum.Renamed, "identical": sum.Identical, "duplicates": sum.Duplicates,
		"unknown_date": sum.UnknownDate, "dated_by_mtime": sum.ModTimeOnly, "ignored": sum.Ignored,
		"failed": sum.Failed, "problems": sum.Problems,
	}
	for id, want := range wantStats {
		if got, ok := f.stats[id]; !ok || got != want {
			t.Errorf("totals: %s = %d (shown: %v), summary says %d", id, got, ok, want)
		}
	}
	wantSections := map[string]int64{
		"placed": sum.Transferred, "renamed": sum.Renamed, "identical": sum.Identical,
		"duplicates": sum.Duplicates, "unknown_date": sum.UnknownDate, "failed": sum.Failed,
		"problems": sum.Problems, "imported_before": sum.ImportedBefore,
	}
	for id, want := range wantSections {
		if got := f.sections[id]; got != want {
			t.Errorf("section %s counts %d, summary says %d", id, got, want)
		}
	}
	if len(f.years) != len(sum.PerYear) {
		t.Errorf("year chart has bars for %v, summary for %v", f.years, sum.PerYear)
	}
	for y, n := range sum.PerYear {
		if f.years[y] != n {
			t.Errorf("year chart: %d has %d files, summary says %d", y, f.years[y], n)
		}
	}
	if f.treeTop != sum.Transferred {
		t.Errorf("destination tree holds %d files, summary transferred %d", f.treeTop, sum.Transferred)
	}
	if len(f.external) > 0 {
		t.Errorf("the report loads from outside: %v", f.external)
	}
}

func TestReportMatchesSummary(t *testing.T) {
	rt := newReportTree(t)
	before := libraryFiles(t, rt.lib)

	plan := filepath.Join(rt.out, "plan.html")
	dry := rt.run("sort", "--dry-run", "--no-mtime", "--json", "--report", plan, rt.src1, rt.src2, rt.lib)
	if dry.code != ExitIncomplete {
		t.Fatalf("dry run with unreadable files: want exit 3:\n%s", dry)
	}
	if after := libraryFiles(t, rt.lib); len(after) != len(before) {
		t.Errorf("the dry run changed the library: %d files before, %d after", len(before), len(after))
	}
	_, drySum := jsonSummary(t, dry.stdout)
	dryPage := readFileString(t, plan)
	facts := readReport(t, dryPage)
	checkReport(t, facts, drySum)
	if !strings.Contains(facts.status, "Dry run") {
		t.Errorf("dry-run report status reads %q", facts.status)
	}

	done := filepath.Join(rt.out, "done.html")
	real := rt.run("sort", "--no-mtime", "--json", "--report", done, rt.src1, rt.src2, rt.lib)
	if real.code != ExitIncomplete {
		t.Fatalf("run with unreadable files: want exit 3:\n%s", real)
	}
	_, sum := jsonSummary(t, real.stdout)
	facts = readReport(t, readFileString(t, done))
	checkReport(t, facts, sum)

	// The run has one of each case: check the page names them.
	want := map[string]int64{"renamed": 1, "duplicates": 1, "unknown_date": 1, "failed": 2, "problems": 1, "ignored": 1}
	status := "Done, but 2 files failed, 1 path could not be read"
	if !rt.destLocked {
		want["failed"], status = 1, "Done, but 1 file failed, 1 path could not be read"
	}
	for id, n := range want {
		if facts.stats[id] != n {
			t.Errorf("%s: report shows %d, the tree has %d", id, facts.stats[id], n)
		}
	}
	if sum.PerYear[2019] != 4 || sum.PerYear[2020] != 1 || sum.PerYear[2021] != 1 {
		t.Errorf("per year = %v, want 2019:4 2020:1 2021:1", sum.PerYear)
	}
	for _, s := range []string{rt.unreadable, deniedText, filepath.Join(rt.src2, "private"),
		rt.dupe, rt.noDate, filepath.Join("unknown", "scan.jpg"), "IMG_0001-1.JPG", status} {
		if !strings.Contains(facts.text, s) {
			t.Errorf("report does not mention %q", s)
		}
	}
	if st, err := os.Stat(done); err != nil || st.Mode().Perm() != reportMode {
		t.Errorf("report mode: %v %v", st.Mode(), err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(rt.out, ".*.tmp-*")); len(leftovers) > 0 {
		t.Errorf("temp files left beside the report: %v", leftovers)
	}
}

func readFileString(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("read report: %v", err)
	}
	return string(b)
}

// TestReportOnInterruptedRun: Ctrl-C before the end still leaves a report
// that says the run stopped, and the user is told how to resume.
func TestReportOnInterruptedRun(t *testing.T) {
	base := t.TempDir()
	src, lib := filepath.Join(base, "card"), filepath.Join(base, "lib")
	card(t, src, 3, 1<<10)
	page := filepath.Join(base, "r.html")
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // as if Ctrl-C came at once
	var out, errOut strings.Builder
	code := Run(ctx, Env{Stdout: &out, Stderr: &errOut, Stdin: strings.NewReader("")}, []string{"sort", "--report", page, src, lib})
	if code != ExitInterrupted {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, ExitInterrupted, out.String(), errOut.String())
	}
	if !strings.Contains(errOut.String(), "run the same command again") {
		t.Errorf("stderr does not say how to resume:\n%s", errOut.String())
	}
	facts := readReport(t, readFileString(t, page))
	if !strings.Contains(facts.status, "interrupted") || !strings.Contains(facts.status, "run the same command again") {
		t.Errorf("report status reads %q, want it to say the run was interrupted and how to resume", facts.status)
	}
}

func TestReportPathChecked(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "card")
	card(t, src, 1, 1<<10)
	missing := filepath.Join(base, "no", "such", "r.html")
	r := shoebox("sort", "--report", missing, src, filepath.Join(base, "lib"))
	if r.code != ExitUsage || !strings.Contains(r.stderr, filepath.Join(base, "no", "such")) {
		t.Fatalf("want a usage error naming the missing folder:\n%s", r)
	}
	if _, err := os.Stat(filepath.Join(base, "lib")); err == nil {
		t.Errorf("the library was created although the run should not have started")
	}
}

func TestCommandLineQuoting(t *testing.T) {
	got := commandLine([]string{"sort", "--report", "r.html", "/media/my card", "it's", "~/Pictures"})
	want := `shoebox sort --report r.html '/media/my card' 'it'\''s' '~/Pictures'`
	if got != want {
		t.Errorf("commandLine = %s\nwant          %s", got, want)
	}
}
