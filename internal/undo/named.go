package undo

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
	"slices"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/recovery"
)

// Undoing a run other than the newest is safe only when nothing done
// after it rests on what it did. The rule (docs/library.md, "Undo"): a named run is
// reversed when every later sort run is undone, or when no later run that
// is not undone touched its paths, where "touched" means any journaled
// operation of the later run (done, failed or only intended) whose source
// or destination is a path the named run created, moved, removed or
// restores to, or whose destination is a "-N" rename of a name the named
// run took in the same folder (that later file was renamed because of it).
// That covers a later move that took a file from the library, a later
// --delete-duplicates that removed a source because the named run's copy
// was kept, and a later file named IMG-1.JPG because IMG.JPG was there.
// Anything else the later run did is elsewhere, and undo's own proof of
// identity, file by file, still guards every removal.

// named picks the job (see job) that holds the run with id, and checks it
// may be undone now.
func (h *history) named(id string, extra map[string][]journal.Entry) ([]journal.Summary, error) {
	jobs := h.jobs()
	for i, job := range jobs {
		if !slices.ContainsFunc(job, func(s journal.Summary) bool { return s.Header.RunID == id }) {
			continue
		}
		if h.Undone[job[0].Header.RunID] {
			return nil, fmt.Errorf("run %s: %w", id, ErrAlreadyUndone)
		}
		var later []journal.Summary
		for _, j := range jobs[:i] {
			for _, s := range j {
				if !h.Undone[s.Header.RunID] {
					later = append(later, s)
				}
			}
		}
		if err := h.independent(job, later, extra); err != nil {
			return nil, fmt.Errorf("run %s: %w", id, err)
		}
		return job, nil
	}
	return nil, fmt.Errorf("run %s: %w", id, ErrUnknownRun)
}

// resolve finds the sort run whose id is id or begins with it (a unique
// prefix is enough, as with git's commits and docker's containers).
func (h *history) resolve(id string) (string, error) {
	var match []string
	for _, s := range h.Runs {
		switch {
		case s.Header.RunID == id:
			return id, nil
		case strings.HasPrefix(s.Header.RunID, id):
			match = append(match, s.Header.RunID)
		}
	}
	switch {
	case len(match) == 1:
		return match[0], nil
	case len(match) > 1:
		return "", fmt.Errorf("%w: %s begins %d runs' ids (%s); give more of it", ErrAmbiguousRun, id, len(match), strings.Join(match, ", "))
	}
	for _, u := range h.Undos {
		if strings.HasPrefix(u.Header.RunID, id) {
			return "", fmt.Errorf("%s is the journal of an undo (of run %s), not of a sort run: %w", u.Header.RunID, strings.Join(u.Header.Args[1:], ", "), ErrUnknownRun)
		}
	}
	for run, recs := range h.Recoveries {
		for _, r := range recs {
			if strings.HasPrefix(r.Header.RunID, id) {
				return "", fmt.Errorf("%s is the journal of a recovery (of run %s), not of a sort run: %w", r.Header.RunID, run, ErrUnknownRun)
			}
		}
	}
	return "", ErrUnknownRun
}

// jobs partitions the sort runs into what one undo reverses together,
// newest job first, each newest run first: a run with the unfinished runs
// of the same command just before it (as job groups them), runs in one
// job sharing whether they are undone.
func (h *history) jobs() [][]journal.Summary {
	var jobs [][]journal.Summary
	for i := len(h.Runs) - 1; i >= 0; {
		head := h.Runs[i]
		job := []journal.Summary{head}
		for i--; i >= 0; i-- {
			s := h.Runs[i]
			if recovery.Finished(s) || !journal.SameWork(s.Header.Args, head.Header.Args) || h.Undone[s.Header.RunID] != h.Undone[head.Header.RunID] {
				break
			}
			job = append(job, s)
		}
		jobs = append(jobs, job)
	}
	return jobs
}

// independent fails when a later run touched a path of job (see the rule
// above). Paths are kept as sorted 64-bit hashes, a few bytes per
// operation whatever the run's size; a hash collision can only refuse an
// undo that was safe, never allow one that was not.
func (h *history) independent(job, later []journal.Summary, extra map[string][]journal.Entry) error {
	if len(later) == 0 {
		return nil
	}
	var paths, names []uint64
	for _, run := range job {
		err := h.eachEntry(run, extra, func(e journal.Entry) {
			if e.State != journal.Done || !reversibleAction(e.Action) {
				return
			}
			paths = append(paths, pathKey(e.Dst))
			if e.Action == journal.Move || e.Action == journal.RemoveDuplicate {
				paths = append(paths, pathKey(e.Src))
			}
			if e.Action != journal.Mkdir {
				names = append(names, pathKey(e.Dst))
			}
		})
		if err != nil {
			return err
		}
	}
	slices.Sort(paths)
	slices.Sort(names)
	has := func(set []uint64, k uint64) bool { _, ok := slices.BinarySearch(set, k); return ok }
	for _, run := range later {
		var hit string
		err := h.eachEntry(run, extra, func(e journal.Entry) {
			switch {
			case hit != "":
			case e.Dst != "" && has(paths, pathKey(e.Dst)):
				hit = e.Dst
			case e.Src != "" && has(paths, pathKey(e.Src)):
				hit = e.Src
			case e.Action != journal.Mkdir && has(names, pathKey(unrenamed(e.Dst))):
				hit = e.Dst
			}
		})
		if err != nil {
			return err
		}
		if hit != "" {
			return fmt.Errorf("%w: run %s (shoebox %s) came after it and touched %s; undo that run first (shoebox log lists the runs)",
				ErrLaterRunDepends, run.Header.RunID, strings.Join(run.Header.Args, " "), quote.Path(hit))
		}
	}
	return nil
}

// eachEntry calls fn for every entry of run's journals and of what the
// recovery about to run would add.
func (h *history) eachEntry(run journal.Summary, extra map[string][]journal.Entry, fn func(journal.Entry)) error {
	for _, p := range h.JournalsOf(run) {
		if _, err := journal.Read(p, func(e journal.Entry) error { fn(e); return nil }); err != nil {
			return err
		}
	}
	for _, e := range extra[run.Header.RunID] {
		fn(e)
	}
	return nil
}

// pathKey is a path's identity for the rule, compared ignoring case (the
// library may be on a filesystem that does).
func pathKey(p string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(strings.ToLower(filepath.Clean(p))))
	return h.Sum64()
}

// unrenamed is the name a conflict rename started from: dir/IMG-2.JPG is
// dir/IMG.JPG. A name without a "-N" suffix is returned as an impossible
// path, so that it matches nothing.
func unrenamed(p string) string {
	dir, base := filepath.Split(p)
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	i := strings.LastIndexByte(stem, '-')
	if i <= 0 || i == len(stem)-1 || strings.Trim(stem[i+1:], "0123456789") != "" {
		return "\x00"
	}
	return dir + stem[:i] + ext
}
