// Package report writes the HTML page of `shoebox sort --report`: totals,
// files per year and month, where everything goes, renames, duplicates
// with their thumbnails, files with no date, failures and warnings.
//
// A Collector sees every pipeline event but keeps only counts and the
// first entries of each list, so its memory stays bounded whether the run
// has a hundred files or ten million.
package report

import (
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/shoebox-photos/shoebox/internal/pipeline"
)

// Caps on what a Collector keeps. Past them it only counts, and the page
// says "and N more".
const (
	ListCap     = 1000    // entries kept per section
	DirCap      = 10000   // destination folders counted one by one
	FilesPerDir = 20      // file names kept per destination folder
	NamesCap    = 20000   // file names kept across all folders
	ThumbPairs  = 60      // duplicate pairs shown with thumbnails
	ThumbRows   = 60      // rows of the no-date and file-time lists shown with thumbnails
	ThumbFiles  = 240     // previews read for one page, at most
	ThumbBytes  = 8 << 20 // preview bytes one page may embed
)

// Move is one file and where it goes (or where its twin is).
type Move struct{ Src, Dst string }

// Trouble is a path and what went wrong with it.
type Trouble struct{ Path, Reason string }

// capped keeps the first cap items and counts them all.
type capped[T any] struct {
	items []T
	total int64
	cap   int
}

func (c *capped[T]) add(v T) {
	c.total++
	if len(c.items) < c.cap {
		c.items = append(c.items, v)
	}
}

// More is how many were counted but not kept.
func (c *capped[T]) More() int64 { return c.total - int64(len(c.items)) }

// folder is one destination directory: how many files land there and the first few names.
type folder struct {
	count int64
	names []string
}

// Collector aggregates a run's events for the report. It is safe for
// concurrent use.
type Collector struct {
	mu   sync.Mutex
	dest string // absolute destination, to show targets relative to it

	placed      int64
	bytes       int64
	months      map[int]*[13]int64 // capture year → files per month; [0] is "month not known"
	dirs        map[string]*folder // destination folder, relative and slash-separated
	otherFiles  int64              // files in folders past DirCap
	names       int
	renames     capped[Move]
	identical   capped[Move]
	duplicates  capped[Move] // Src is skipped, Dst is the copy that is kept
	noDate      capped[Move]
	byModTime   capped[Move]    // dated only by their modification time
	doubted     capped[Trouble] // sent to unknown: their modification time looked like a copy's
	importedBef capped[Trouble] // imported by an earlier run, since deleted or changed in the library: left out
	failures    capped[Trouble]
	unreadable  capped[Trouble]
	filtered    capped[Trouble] // left out by a filter, with the rule
	warnings    capped[string]
	ignored     int64
	keptAt      map[string]string // kept copy of a listed duplicate pair → where it went in this run
}

// NewCollector returns an empty Collector for a run into dest (absolute).
func NewCollector(dest string) *Collector {
	return &Collector{
		dest:        dest,
		months:      map[int]*[13]int64{},
		dirs:        map[string]*folder{},
		renames:     capped[Move]{cap: ListCap},
		identical:   capped[Move]{cap: ListCap},
		duplicates:  capped[Move]{cap: ListCap},
		noDate:      capped[Move]{cap: ListCap},
		byModTime:   capped[Move]{cap: ListCap},
		doubted:     capped[Trouble]{cap: ListCap},
		importedBef: capped[Trouble]{cap: ListCap},
		failures:    capped[Trouble]{cap: ListCap},
		unreadable:  capped[Trouble]{cap: ListCap},
		filtered:    capped[Trouble]{cap: ListCap},
		warnings:    capped[string]{cap: ListCap},
		keptAt:      map[string]string{},
	}
}

// Add records one pipeline event; progress and stage events are ignored.
func (c *Collector) Add(ev pipeline.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch ev.Type {
	case "op":
		c.op(ev)
	case "warning":
		c.warnings.add(ev.Reason)
	case "problem":
		c.problem(ev)
	}
}

func (c *Collector) problem(ev pipeline.Event) {
	path := ev.Src
	if path == "" {
		path = ev.Dst
	}
	if ev.Stage == "scan" {
		c.unreadable.add(Trouble{path, ev.Reason})
		return
	}
	// Problems of other stages (the library index, clean-up of a killed
	// run's temp files) do not lose a photo: they read as warnings.
	c.warnings.add(ev.Reason)
}

func (c *Collector) op(ev pipeline.Event) {
	switch ev.Outcome {
	case pipeline.OutTransferred, pipeline.OutPlanned:
		c.place(ev)
	case pipeline.OutRenamed, pipeline.OutPlannedAs:
		c.place(ev)
		c.renames.add(Move{ev.Src, c.rel(ev.Dst)})
	case pipeline.OutIdentical:
		c.identical.add(Move{ev.Src, c.rel(ev.SameAs)})
	case pipeline.OutDuplicate:
		c.duplicates.add(Move{ev.Src, ev.SameAs})
		if c.duplicates.total <= ThumbPairs {
			c.keptAt[ev.SameAs] = ""
		}
	case pipeline.OutIgnored:
		c.ignored++
	case pipeline.OutImportedBefore:
		c.importedBef.add(Trouble{ev.Src, ev.Reason})
	case pipeline.OutFiltered:
		c.filtered.add(Trouble{ev.Src, ev.Reason})
	case pipeline.OutFailed:
		c.failures.add(Trouble{ev.Src, ev.Reason})
	}
}

// place counts a file that is (or would be) transferred.
func (c *Collector) place(ev pipeline.Event) {
	c.placed++
	c.bytes += ev.Size
	year, month, known := captureMonth(ev.Date)
	if !known {
		year, month = 0, 0
		c.noDate.add(Move{ev.Src, c.rel(ev.Dst)})
	}
	switch {
	case ev.DateNote != "":
		c.doubted.add(Trouble{ev.Src, ev.DateNote})
	case ev.DateSource == "mtime":
		c.byModTime.add(Move{ev.Src, c.rel(ev.Dst)})
	}
	m := c.months[year]
	if m == nil {
		m = new([13]int64)
		c.months[year] = m
	}
	m[month]++
	c.countDir(ev.Dst)
	if _, ok := c.keptAt[ev.Src]; ok {
		c.keptAt[ev.Src] = ev.Dst
	}
}

func (c *Collector) countDir(dst string) {
	rel := c.rel(dst)
	dir, name := filepath.ToSlash(filepath.Dir(rel)), filepath.Base(rel)
	f := c.dirs[dir]
	if f == nil {
		if len(c.dirs) >= DirCap {
			c.otherFiles++
			return
		}
		f = &folder{}
		c.dirs[dir] = f
	}
	f.count++
	if len(f.names) < FilesPerDir && c.names < NamesCap {
		f.names = append(f.names, name)
		c.names++
	}
}

// rel shows a destination path relative to the library.
func (c *Collector) rel(p string) string {
	if r, err := filepath.Rel(c.dest, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// captureMonth reads an op event's date: "2019-07-04T15:30:00", or a bare
// year "2019", or "0" / "" when the file has no date.
func captureMonth(date string) (year, month int, known bool) {
	if len(date) < 4 {
		return 0, 0, false
	}
	year, err := strconv.Atoi(date[:4])
	if err != nil || year <= 0 {
		return 0, 0, false
	}
	if len(date) >= 7 && date[4] == '-' {
		if m, err := strconv.Atoi(date[5:7]); err == nil && m >= 1 && m <= 12 {
			month = m
		}
	}
	return year, month, true
}
