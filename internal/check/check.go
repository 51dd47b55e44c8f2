// Package check compares a library with what shoebox recorded of it
// (shoebox check LIB): the import history says which files runs put where,
// with the size and mtime each had once it landed; the library index holds
// their content hashes where shoebox computed them.
//
// What it finds, and how:
//
//   - missing: a recorded file is not there (stat);
//   - changed: its size or mtime moved since it landed (stat: edited);
//   - corrupt: its size and mtime are as recorded but its bytes hash to
//     another sum than the recorded one (only --read-data finds it);
//   - unreadable: the file cannot be stat'ed or read (an I/O error);
//   - stray: a file no run put there (a walk of the library: listed, never
//     touched);
//   - separated: a sidecar whose photo or video is no longer beside it, or
//     one half of a pair (RAW+JPEG, a Live Photo) whose other half is gone.
//
// With a backup folder, each recorded file's backup copy is checked the
// same way, and files the backup holds that no run put there are listed.
//
// Read-only: the stores are opened read-only (no lock, nothing written),
// no state folder is created, files are opened for reading only; with
// Repair (check --repair, repair.go) it takes the library lock and heals
// what a recorded hash proves can be healed, as a journaled run. Memory is
// flat: the history is streamed in path order, one group of names that
// share a folder and stem is held at a time, and the walks for strays look
// each file up in the history instead of holding a list.
package check

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shoebox-photos/shoebox/internal/digest"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/importlog"
	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/scan"
	"github.com/shoebox-photos/shoebox/internal/store"
)

// Kind is what is wrong with a file.
type Kind string

// Kinds of problems.
const (
	Missing    Kind = "missing"
	Changed    Kind = "changed"
	Corrupt    Kind = "corrupt"
	Unreadable Kind = "unreadable"
	Stray      Kind = "stray"
	Separated  Kind = "separated"
	// Differs: the library and backup copies hold different bytes and no
	// recorded hash says which is right.
	Differs Kind = "differs"
)

// Which copy a problem is about.
const (
	InLibrary = "library"
	InBackup  = "backup"
)

// Problem is one finding.
type Problem struct {
	Kind   Kind
	Path   string // relative to the library (or backup), slash separated
	Copy   string // InLibrary or InBackup
	Reason string // for people
}

// Options says what to check.
type Options struct {
	Library string // the library folder
	Backup  string // its backup folder, "" for none
	// ReadData hashes every recorded file (of Subset, when set) and
	// compares with the recorded hash.
	ReadData bool
	Subset   Subset
	// Workers hash files concurrently; <= 0 means 2.
	Workers int
	// Problem receives each finding as it is made (serialized).
	Problem func(Problem)
	// Progress, when set, receives the counts a few times a second.
	Progress func(Progress)
	// Repair heals what a recorded hash proves can be healed (repair.go):
	// a missing or corrupt library file from a verified backup copy, a
	// missing backup copy from a verified library file. It takes the
	// library lock and journals every change as a run that undo reverses.
	Repair bool
	// Args is the command line the repair run's journal records (what
	// shoebox log shows), such as ["check", "--repair", "LIB"].
	Args []string
	// Repaired receives each repair made or declined (serialized with
	// Problem).
	Repaired func(Repair)
	// FS is what repairs write through (nil means fsx.OS): a test's
	// fsx.Faults kills a repair at a crash point.
	FS fsx.FS
}

// Progress is how far a check is.
type Progress struct {
	Files, FilesTotal int64 // recorded files checked, and how many there are
	Bytes, BytesTotal int64 // bytes read, and how many --read-data will read
}

// Counts are the problems found in one copy.
type Counts struct {
	Missing    int64 `json:"missing"`
	Changed    int64 `json:"changed"`
	Corrupt    int64 `json:"corrupt"`
	Unreadable int64 `json:"unreadable"`
	Strays     int64 `json:"strays"`
	Separated  int64 `json:"separated,omitempty"`
	// Repaired: of the problems above, those --repair healed.
	Repaired int64 `json:"repaired,omitempty"`
}

// problems counts what is wrong and was not repaired. Strays are listed,
// not counted: a file put in the library by hand is the user's, not damage.
func (c Counts) problems() int64 {
	return c.Missing + c.Changed + c.Corrupt + c.Unreadable + c.Separated - c.Repaired
}

// Stats is what a check did and found.
type Stats struct {
	Files    int64 // recorded library files
	Read     int64 // files whose bytes were read (both copies)
	Bytes    int64 // bytes read
	NoRecord int64 // files read that have no recorded hash to compare with
	Library  Counts
	Backup   *Counts // nil without a backup
	Differs  int64   // library and backup copies differ, no record decides
	// RepairRun is the id of the journaled run --repair made ("" when it
	// changed nothing): shoebox undo RUN reverses it.
	RepairRun string
}

// Problems is how many problems are left (found and not repaired).
func (s Stats) Problems() int64 {
	n := s.Library.problems() + s.Differs
	if s.Backup != nil {
		n += s.Backup.problems()
	}
	return n
}

// ErrNoHistory: the folder holds no import history, so there is nothing to
// compare it with.
var ErrNoHistory = errors.New("no import history: shoebox check compares a library with what shoebox recorded when it sorted files into it")

// Run checks the library (and, with Repair, heals it).
func Run(ctx context.Context, opt Options) (Stats, error) {
	if opt.Repair {
		unlock, err := lockForRepair(ctx, opt.Library)
		if err != nil {
			return Stats{}, err
		}
		defer unlock()
	}
	c, err := newChecker(opt)
	if err != nil {
		return Stats{}, err
	}
	defer c.close()
	st, err := c.run(ctx)
	if rerr := c.closeRepairs(err); err == nil {
		err = rerr
	}
	st.RepairRun = c.repairRun()
	return st, err
}

type checker struct {
	opt   Options
	lib   string
	bak   string
	state string
	log   *importlog.Log
	index *store.Store // the library index, nil when there is none

	mu    sync.Mutex // guards st and serializes opt.Problem
	st    Stats
	files atomic.Int64
	bytes atomic.Int64
	total Progress

	jobs chan job
	wg   sync.WaitGroup

	fixMu sync.Mutex
	fix   *repairer // the repair run, opened at its first repair
}

func newChecker(opt Options) (*checker, error) {
	lib, err := filepath.Abs(opt.Library)
	if err != nil {
		return nil, fmt.Errorf("check %s: %w", quote.Path(opt.Library), err)
	}
	c := &checker{opt: opt, lib: lib, state: pipeline.StateDir(lib)}
	if opt.Backup != "" {
		if c.bak, err = filepath.Abs(opt.Backup); err != nil {
			return nil, fmt.Errorf("check --backup %s: %w", quote.Path(opt.Backup), err)
		}
		if info, err := os.Stat(c.bak); err != nil || !info.IsDir() {
			why := "not a folder"
			if err != nil {
				why = fsx.Bare(err).Error()
			}
			return nil, fmt.Errorf("backup %s: %s (is the backup drive connected?)", quote.Path(c.bak), why)
		}
		c.st.Backup = &Counts{}
	}
	if !importlog.Exists(c.state) {
		return nil, fmt.Errorf("check %s: %w", quote.Path(opt.Library), ErrNoHistory)
	}
	if c.log, err = importlog.OpenForReading(c.state); err != nil {
		return nil, fmt.Errorf("check %s: %w", quote.Path(opt.Library), err)
	}
	if dir := pipeline.LibraryIndexDir(c.state); exists(dir) {
		// Without it, files have no recorded hash: --read-data says so.
		c.index, _ = store.Open(dir, store.Options{ReadOnly: true})
	}
	return c, nil
}

func (c *checker) close() {
	if c.index != nil {
		c.index.Close()
	}
	c.log.Close()
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func (c *checker) run(ctx context.Context) (Stats, error) {
	stopProgress := c.startProgress(ctx)
	err := c.recorded(ctx)
	if err == nil {
		err = c.strays(ctx, c.lib, InLibrary)
	}
	if err == nil && c.bak != "" {
		err = c.strays(ctx, c.bak, InBackup)
	}
	stopProgress()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.st, err
}

// startProgress counts what there is to do (a pass over the history, no
// stat) and reports the counts every quarter second until stopped.
func (c *checker) startProgress(ctx context.Context) (stop func()) {
	if c.opt.Progress == nil {
		return func() {}
	}
	_ = c.log.EachPath(func(e importlog.Entry) error {
		c.total.FilesTotal++
		if c.reads(e) {
			c.total.BytesTotal += e.LibSize
			if c.bak != "" {
				c.total.BytesTotal += e.LibSize
			}
		}
		return ctx.Err()
	})
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				c.opt.Progress(c.progress())
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
		c.opt.Progress(c.progress())
	}
}

func (c *checker) progress() Progress {
	p := c.total
	p.Files, p.Bytes = c.files.Load(), c.bytes.Load()
	return p
}

// reads reports whether --read-data reads e's bytes in this run.
func (c *checker) reads(e importlog.Entry) bool {
	return c.opt.ReadData && c.opt.Subset.Includes(e.Path)
}

// report files a problem and counts it.
func (c *checker) report(p Problem) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := &c.st.Library
	if p.Copy == InBackup {
		n = c.st.Backup
	}
	switch p.Kind {
	case Missing:
		n.Missing++
	case Changed:
		n.Changed++
	case Corrupt:
		n.Corrupt++
	case Unreadable:
		n.Unreadable++
	case Stray:
		n.Strays++
	case Separated:
		n.Separated++
	case Differs:
		c.st.Differs++
	}
	if c.opt.Problem != nil {
		c.opt.Problem(p)
	}
}

// recorded checks every file the history records, in path order, and
// each group of names that share a folder and a stem for separations.
func (c *checker) recorded(ctx context.Context) error {
	workers := c.opt.Workers
	if workers <= 0 {
		workers = 2
	}
	c.jobs = make(chan job, 2*workers)
	for range workers {
		c.wg.Add(1)
		go c.hashWorker(ctx)
	}
	var g group
	err := c.log.EachPath(func(e importlog.Entry) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !g.holds(e.Path) {
			c.separations(&g)
			g.reset(e.Path)
		}
		c.mu.Lock()
		c.st.Files++
		c.mu.Unlock()
		present := c.checkEntry(ctx, e)
		g.add(e, present)
		return nil
	})
	c.separations(&g)
	close(c.jobs)
	c.wg.Wait()
	if err == nil {
		err = ctx.Err()
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("read the import history of %s: %w", quote.Path(c.lib), err)
	}
	return err
}

// checkEntry stats e's library copy (and backup copy) and queues the reads
// --read-data asks for, and those --repair needs to prove a copy right.
// It reports whether the library copy is there.
func (c *checker) checkEntry(ctx context.Context, e importlog.Entry) (present bool) {
	defer c.files.Add(1)
	if !inside(e.Path) {
		// Damaged or crafted: never stat'ed or read outside the library.
		c.report(Problem{Kind: Unreadable, Path: e.Path, Copy: InLibrary, Reason: "the import history records a path outside the library: not looked at"})
		return true
	}
	libState := c.statCopy(e, c.lib, InLibrary)
	bakState := stateSkipped
	if c.bak != "" && !e.Link {
		bakState = c.statCopy(e, c.bak, InBackup)
	}
	j := job{e: e, lib: libState, bak: bakState, read: c.reads(e)}
	if j.read || c.opt.Repair {
		j.sum = c.recordedSum(e)
	}
	switch {
	case j.read || c.repairReads(j):
		c.jobs <- j
	case c.opt.Repair:
		c.repair(ctx, j, unread, unread)
	}
	return libState != stateMissing
}

// inside reports whether a recorded path (slash separated) names a file
// under the library (no "..", no root or drive letter; on Windows a
// backslash separates too, so "a\\..\\..\\x" is refused there).
func inside(p string) bool {
	return p != "" && filepath.IsLocal(filepath.FromSlash(p))
}

// copyState is what a stat found of one copy.
type copyState uint8

const (
	stateSkipped copyState = iota // not looked at (no backup, a link)
	stateAsRecorded
	stateMissing
	stateChanged
	stateUnreadable
)

// statCopy stats one copy of e against the size and mtime it had when it
// landed, and reports what is wrong.
func (c *checker) statCopy(e importlog.Entry, root, which string) copyState {
	p := filepath.Join(root, filepath.FromSlash(e.Path))
	stat := os.Lstat
	if e.Link && which == InLibrary {
		stat = os.Stat // a link to its source (--mode symlink): checked through it
	}
	info, err := stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c.report(Problem{Kind: Missing, Path: e.Path, Copy: which, Reason: missingReason(which)})
		return stateMissing
	case err != nil:
		c.report(Problem{Kind: Unreadable, Path: e.Path, Copy: which, Reason: fmt.Sprintf("stat: %v", fsx.Bare(err))})
		return stateUnreadable
	case !info.Mode().IsRegular():
		c.report(Problem{Kind: Changed, Path: e.Path, Copy: which, Reason: "no longer a regular file (" + info.Mode().Type().String() + ")"})
		return stateChanged
	case info.Size() != e.LibSize:
		c.report(Problem{Kind: Changed, Path: e.Path, Copy: which, Reason: fmt.Sprintf("size %d bytes, %d when it landed: edited or replaced", info.Size(), e.LibSize)})
		return stateChanged
	case which == InLibrary && info.ModTime().UnixNano() != e.LibModTime:
		// The backup copy's mtime is not compared: a backup drive
		// formatted FAT keeps it to two seconds.
		c.report(Problem{Kind: Changed, Path: e.Path, Copy: which, Reason: fmt.Sprintf("modified %s, %s when it landed: edited", stamp(info.ModTime()), stamp(time.Unix(0, e.LibModTime)))})
		return stateChanged
	}
	return stateAsRecorded
}

func missingReason(which string) string {
	if which == InBackup {
		return "the backup holds no copy"
	}
	return "recorded as imported, not in the library (deleted, or moved by hand)"
}

func stamp(t time.Time) string { return t.Local().Format("2006-01-02 15:04:05.000") }

// recordedSum is e's recorded content hash: the import history's, else
// the library index's while it was recorded for the size e landed with.
func (c *checker) recordedSum(e importlog.Entry) []byte {
	if len(e.Sum) == digest.Size {
		return e.Sum
	}
	if c.index == nil {
		return nil
	}
	size, sum, err := pipeline.IndexedSum(c.index, e.Path)
	if err != nil || size != e.LibSize {
		return nil
	}
	return sum
}

// job is one recorded file whose bytes are to be read.
type job struct {
	e        importlog.Entry
	sum      []byte // recorded hash, nil when none
	lib, bak copyState
	read     bool // --read-data reads both copies; else only what --repair needs
}

// verdict is what reading one copy found.
type verdict uint8

const (
	unread   verdict = iota // not read
	verified                // its hash is the recorded one
	noRecord                // read, but there is no recorded hash to compare with
	mismatch                // its hash is not the recorded one (reported corrupt)
	failed                  // it could not be read (reported unreadable)
)

func (c *checker) hashWorker(ctx context.Context) {
	defer c.wg.Done()
	for j := range c.jobs {
		if ctx.Err() != nil {
			continue // drain
		}
		c.readCopies(ctx, j)
	}
}

// readCopies hashes the copies of j that the stat found as recorded and
// compares them with the recorded hash (or, with none recorded, with each
// other).
func (c *checker) readCopies(ctx context.Context, j job) {
	var libSum, bakSum *digest.Sum
	var libV, bakV verdict
	if j.lib == stateAsRecorded && (j.read || c.repairSource(j, InLibrary)) {
		libSum, libV = c.readCopy(j, c.lib, InLibrary)
	}
	if j.bak == stateAsRecorded && (j.read || c.repairSource(j, InBackup)) {
		bakSum, bakV = c.readCopy(j, c.bak, InBackup)
	}
	if j.sum == nil && libSum != nil && bakSum != nil && *libSum != *bakSum {
		c.report(Problem{Kind: Differs, Path: j.e.Path, Copy: InBackup,
			Reason: "the library and backup copies hold different bytes with the same size, and no hash was recorded to say which is right"})
	}
	if c.opt.Repair {
		c.repair(ctx, j, libV, bakV)
	}
}

// readCopy hashes one copy; nil when it cannot be read or does not match
// the recorded hash (reported), or when there is no record to match. The
// verdict says which.
func (c *checker) readCopy(j job, root, which string) (*digest.Sum, verdict) {
	p := filepath.Join(root, filepath.FromSlash(j.e.Path))
	sum, n, err := digest.File(fsx.OS, p)
	c.bytes.Add(n)
	c.mu.Lock()
	c.st.Read++
	c.st.Bytes += n
	if j.sum == nil && which == InLibrary {
		c.st.NoRecord++
	}
	c.mu.Unlock()
	switch {
	case err != nil:
		c.report(Problem{Kind: Unreadable, Path: j.e.Path, Copy: which, Reason: fmt.Sprintf("read: %v", errors.Unwrap(err))})
		return nil, failed
	case j.sum != nil && string(sum[:]) != string(j.sum):
		c.report(Problem{Kind: Corrupt, Path: j.e.Path, Copy: which,
			Reason: fmt.Sprintf("content hash %s, recorded %x, while size and mtime are as recorded: damaged on disk (silent corruption) or rewritten with its mtime put back", sum.String()[:16], j.sum[:8])})
		return nil, mismatch
	case j.sum == nil:
		return &sum, noRecord
	}
	return &sum, verified
}

// strays walks root (the library or its backup) and lists every file
// the history does not record: no run put it there. Hidden names and the
// state folder are skipped, as sort skips them.
func (c *checker) strays(ctx context.Context, root, which string) error {
	exclude := []string{filepath.Join(root, ".shoebox")}
	emit := func(f scan.File) error {
		rel, err := filepath.Rel(root, f.Path)
		if err != nil || !filepath.IsLocal(rel) {
			return nil
		}
		rel = filepath.ToSlash(rel)
		known, err := c.log.Knows(rel)
		if err != nil {
			return err
		}
		if !known {
			c.report(Problem{Kind: Stray, Path: rel, Copy: which, Reason: "no shoebox run put it there: left alone"})
		}
		return nil
	}
	problem := func(p scan.Problem) {
		if rel, err := filepath.Rel(root, p.Path); err == nil && filepath.IsLocal(rel) {
			c.report(Problem{Kind: Unreadable, Path: filepath.ToSlash(rel), Copy: which, Reason: p.Error()})
		}
	}
	_, err := scan.Walk(ctx, []string{root}, scan.Options{Exclude: exclude}, emit, problem)
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("list the files of %s: %w", quote.Path(root), err)
	}
	return err
}

// group is the recorded files that share a folder and a stem (the name up
// to its first dot: IMG_1.JPG, IMG_1.CR2, IMG_1.xmp, IMG_1.JPG.xmp). The
// history is read in path order, where such names follow one another.
type group struct {
	key     string
	members []member
	full    bool // too many to judge: a folder of names like 2024.01.xx
}

type member struct {
	e       importlog.Entry
	present bool
}

// maxGroup bounds a group's members held in memory.
const maxGroup = 4096

func groupKey(p string) string {
	dir, name := path.Split(p)
	if i := strings.IndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	return dir + name
}

func (g *group) holds(p string) bool { return g.key != "" && groupKey(p) == g.key }

func (g *group) reset(p string) {
	g.key, g.members, g.full = groupKey(p), g.members[:0], false
}

func (g *group) add(e importlog.Entry, present bool) {
	if len(g.members) >= maxGroup {
		g.full = true
		return
	}
	g.members = append(g.members, member{e: e, present: present})
}

// separations reports the group's sidecars left without a photo or video
// beside them, and the pair halves whose other half is gone.
func (c *checker) separations(g *group) {
	if g.full || len(g.members) < 2 {
		return
	}
	media := 0
	for _, m := range g.members {
		if m.present && isMedia(m.e.Kind) {
			media++
		}
	}
	for _, m := range g.members {
		switch {
		case !m.present:
		case meta.Kind(m.e.Kind) == meta.KindSidecar && media == 0:
			c.report(Problem{Kind: Separated, Path: m.e.Path, Copy: InLibrary,
				Reason: "a sidecar whose photo or video is no longer beside it (" + missingPartners(g, m) + ")"})
		case isMedia(m.e.Kind):
			if gone := missingPartners(g, m); gone != "" && sameSourceMissing(g, m) {
				c.report(Problem{Kind: Separated, Path: m.e.Path, Copy: InLibrary,
					Reason: "one half of a pair whose other half is no longer beside it (" + gone + ")"})
			}
		}
	}
}

func isMedia(k uint8) bool {
	return meta.Kind(k) == meta.KindPhoto || meta.Kind(k) == meta.KindVideo
}

// missingPartners names the group's files that are gone.
func missingPartners(g *group, self member) string {
	var names []string
	for _, m := range g.members {
		if !m.present && m.e.Path != self.e.Path {
			names = append(names, path.Base(m.e.Path)+" missing")
		}
	}
	return strings.Join(names, ", ")
}

// sameSourceMissing reports whether a photo or video imported from the
// same source folder and stem as m (its pair) is gone: two photos that
// only share a library stem are no pair.
func sameSourceMissing(g *group, self member) bool {
	for _, m := range g.members {
		if !m.present && isMedia(m.e.Kind) && sourceGroup(m.e.Src) == sourceGroup(self.e.Src) {
			return true
		}
	}
	return false
}

func sourceGroup(src string) string { return groupKey(filepath.ToSlash(src)) }
