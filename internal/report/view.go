package report

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
)

// Run describes the run the report is about.
type Run struct {
	Dest     string   // absolute library folder
	Sources  []string // as given
	Command  string   // the command line, for the reader to re-run
	DryRun   bool
	Started  time.Time
	Finished time.Time
	Stopped  string // why the run stopped before the end; "" when it finished
}

// stat is one number of the totals table.
type stat struct {
	ID, Label string
	N         int64
	Tone      string // "", "good", "warn", "bad": how the number reads
}

// section is a capped list as the page shows it.
type section[T any] struct {
	Items []T
	Total int64
	More  int64
}

func sectionOf[T any](c *capped[T]) section[T] {
	return section[T]{Items: c.items, Total: c.total, More: c.More()}
}

// node is one folder of the destination tree.
type node struct {
	Name     string
	Path     string
	Count    int64 // files in it and below
	Files    []string
	More     int64 // files directly in it whose names were not kept
	Children []*node
	Open     bool // shown unfolded: the top folders, when there are few
}

// pair is two byte-identical files, the skipped one and the kept one.
type pair struct {
	Skipped, Kept       string
	SkippedImg, KeptImg template.URL // data: URIs, "" when the file carries no preview
	HasThumbs           bool
}

// listed is a row of a list shown with the file's preview.
type listed struct {
	Move
	Img template.URL // data: URI, "" when there is none (or the budget is spent)
}

// page is everything the template shows.
type page struct {
	Run
	Title       string
	Generated   string
	Trouble     string // what was not done, for the status line; "" when all was
	Totals      []stat
	Bytes       string
	Years       template.HTML
	Months      template.HTML
	PlacedTotal int64
	Tree        []*node
	OtherFiles  int64
	Renames     section[Move]
	Identical   section[Move]
	Duplicates  section[Move]
	Pairs       []pair
	NoDate      section[listed]
	ByModTime   section[listed]
	Doubted     section[Trouble]
	ImportedBef section[Trouble]
	Failures    section[Trouble]
	Unreadable  section[Trouble]
	Filtered    section[Trouble]
	Warnings    section[string]
}

// view turns what was collected into the page. From disk it reads only
// the previews of the first ThumbPairs duplicate pairs and of the first
// ThumbRows files of the no-date and file-time lists, within one budget
// of ThumbFiles previews and ThumbBytes bytes.
func (c *Collector) view(run Run, sum pipeline.Summary) page {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := page{
		Run:         run,
		Title:       title(run),
		Trouble:     trouble(sum),
		Generated:   run.Finished.Format("Monday 2 January 2006, 15:04"),
		Totals:      totals(sum),
		Bytes:       humanBytes(sum.Bytes),
		Years:       yearChart(c.months),
		Months:      monthChart(c.months),
		PlacedTotal: c.placed,
		Tree:        buildTree(c.dirs),
		OtherFiles:  c.otherFiles,
		Renames:     sectionOf(&c.renames),
		Identical:   sectionOf(&c.identical),
		Duplicates:  sectionOf(&c.duplicates),
		Doubted:     sectionOf(&c.doubted),
		ImportedBef: sectionOf(&c.importedBef),
		Failures:    sectionOf(&c.failures),
		Unreadable:  sectionOf(&c.unreadable),
		Filtered:    sectionOf(&c.filtered),
		Warnings:    sectionOf(&c.warnings),
	}
	tb := &thumbBudget{files: ThumbFiles, bytes: ThumbBytes}
	p.Pairs = c.pairs(tb)
	p.NoDate = c.listedOf(&c.noDate, tb)
	p.ByModTime = c.listedOf(&c.byModTime, tb)
	return p
}

func title(run Run) string {
	if run.DryRun {
		return "Plan for " + run.Dest
	}
	return "Sorted into " + run.Dest
}

// trouble says what the run could not do: "2 files failed, 1 path could not be read".
func trouble(s pipeline.Summary) string {
	var parts []string
	if s.Failed > 0 {
		parts = append(parts, plural(s.Failed, "file", "files")+" failed")
	}
	if s.Problems > 0 {
		parts = append(parts, plural(s.Problems, "path", "paths")+" could not be read")
	}
	return strings.Join(parts, ", ")
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return group(n) + " " + many
}

func totals(s pipeline.Summary) []stat {
	verb := "transferred"
	if s.DryRun {
		verb = "would transfer"
	}
	out := []stat{
		{"scanned", "files scanned", s.Scanned, ""},
		{"media", "photos and videos", s.Media, ""},
		{"transferred", verb, s.Transferred - s.Renamed, "good"},
		{"renamed", verb + " under a new name", s.Renamed, tone(s.Renamed, "warn")},
		{"identical", "already in the library", s.Identical, ""},
		{"duplicates", "duplicates skipped", s.Duplicates, ""},
		{"unknown_date", "no date (→ unknown)", s.UnknownDate, tone(s.UnknownDate, "warn")},
		{"dated_by_mtime", "dated by file time", s.ModTimeOnly, tone(s.ModTimeOnly, "warn")},
		{"mtime_not_trusted", "file time not trusted (→ unknown)", s.ModTimeDistrusted, tone(s.ModTimeDistrusted, "warn")},
		{"ignored", "not media, left alone", s.Ignored, ""},
		{"filtered", "left out by a filter", s.Filtered, ""},
		{"failed", "failed", s.Failed, tone(s.Failed, "bad")},
		{"problems", "unreadable paths", s.Problems, tone(s.Problems, "bad")},
	}
	if s.BackupCopies > 0 { // --backup: a run without one has nothing to say
		out = append(out[:3:3], append([]stat{{"backup_copies", "second copies in the backup folder", s.BackupCopies, "good"}}, out[3:]...)...)
	}
	return out
}

func tone(n int64, t string) string {
	if n == 0 {
		return ""
	}
	return t
}

func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// buildTree nests the destination folders by path segment.
func buildTree(dirs map[string]*folder) []*node {
	root := &node{}
	index := map[string]*node{"": root}
	paths := make([]string, 0, len(dirs))
	for d := range dirs {
		paths = append(paths, d)
	}
	sort.Strings(paths)
	for _, d := range paths {
		f := dirs[d]
		key := d
		if key == "." {
			key = ""
		}
		n := nodeAt(index, key)
		n.Files = append(n.Files, f.names...)
		n.More += f.count - int64(len(f.names))
		for up := n; up != nil; up = index[parentOf(up.Path)] {
			up.Count += f.count
			if up == root {
				break
			}
		}
	}
	top := root.Children
	if len(root.Files) > 0 || root.More > 0 {
		loose := &node{Name: "(top of the library)", Count: int64(len(root.Files)) + root.More, Files: root.Files, More: root.More}
		top = append([]*node{loose}, top...)
	}
	for _, n := range top {
		n.Open = len(top) <= maxOpenTop
	}
	return top
}

// maxOpenTop is how many top folders may show unfolded before the tree starts folded.
const maxOpenTop = 6

// nodeAt finds or makes the node for a slash path, with its parents.
func nodeAt(index map[string]*node, path string) *node {
	if n, ok := index[path]; ok {
		return n
	}
	parent := nodeAt(index, parentOf(path))
	n := &node{Name: path[strings.LastIndexByte(path, '/')+1:], Path: path}
	parent.Children = append(parent.Children, n)
	index[path] = n
	return n
}

func parentOf(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[:i]
	}
	return ""
}

// pairs loads the embedded previews of the first duplicate pairs. The kept
// copy is read where this run put it when it moved, else where it was.
func (c *Collector) pairs(tb *thumbBudget) []pair {
	n := min(len(c.duplicates.items), ThumbPairs)
	out := make([]pair, 0, n)
	for _, d := range c.duplicates.items[:n] {
		kept := d.Dst
		if moved := c.keptAt[d.Dst]; moved != "" {
			if _, err := os.Stat(kept); err != nil {
				kept = moved
			}
		}
		p := pair{Skipped: d.Src, Kept: d.Dst, SkippedImg: tb.uri(d.Src), KeptImg: tb.uri(kept)}
		p.HasThumbs = p.SkippedImg != "" || p.KeptImg != ""
		out = append(out, p)
	}
	return out
}

// listedOf is a list with the previews of its first ThumbRows files: read
// where the file was, or where this run put it when it moved.
func (c *Collector) listedOf(l *capped[Move], tb *thumbBudget) section[listed] {
	s := section[listed]{Items: make([]listed, len(l.items)), Total: l.total, More: l.More()}
	for i, m := range l.items {
		s.Items[i].Move = m
		if i >= ThumbRows {
			continue
		}
		if s.Items[i].Img = tb.uri(m.Src); s.Items[i].Img == "" && !filepath.IsAbs(m.Dst) {
			s.Items[i].Img = tb.uri(filepath.Join(c.dest, m.Dst))
		}
	}
	return s
}

// thumbBudget bounds what one page reads and embeds.
type thumbBudget struct{ files, bytes int }

// uri is the file's embedded preview as a data: URI, "" when it has none
// or the budget is spent. meta checked the bytes to be a whole JPEG or
// PNG, so the URI is safe to inline.
func (tb *thumbBudget) uri(path string) template.URL {
	if tb.files <= 0 || tb.bytes <= 0 {
		return ""
	}
	tb.files--
	b, err := meta.Thumbnail(path)
	if err != nil || b == nil || len(b) > tb.bytes {
		return ""
	}
	tb.bytes -= len(b)
	mime := "image/jpeg"
	if bytes.HasPrefix(b, []byte("\x89PNG")) {
		mime = "image/png"
	}
	return template.URL("data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(b))
}

// reasonGroup is the files of a section that share one reason: a reason
// of thirty words is said once above its files, not once per file.
type reasonGroup struct {
	Reason string
	Paths  []string
}

// byReason groups items by reason, in the order each reason first comes.
func byReason(items []Trouble) []reasonGroup {
	var groups []reasonGroup
	at := map[string]int{}
	for _, it := range items {
		i, ok := at[it.Reason]
		if !ok {
			i = len(groups)
			at[it.Reason] = i
			groups = append(groups, reasonGroup{Reason: it.Reason})
		}
		groups[i].Paths = append(groups[i].Paths, it.Path)
	}
	return groups
}
