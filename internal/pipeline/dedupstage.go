package pipeline

import (
	"context"
	"fmt"
	"os"

	"shoebox/internal/digest"
	"shoebox/internal/fsx"
	"shoebox/internal/meta"
	"shoebox/internal/plan"
	"shoebox/internal/scan"
	"shoebox/internal/store"
)

// Duplicates are found by size first: only files whose size collides with
// another source or a library file are hashed (BLAKE3), so a tree of unique
// sizes costs one ordered pass over the size keys and no reads at all.
// Library hashes are kept in DEST/.shoebox/index and reused while a file's
// size and mtime are unchanged, so re-importing into a big library does not
// re-hash it.

// findDuplicates indexes the library by size, then walks size groups.
func (r *Run) findDuplicates(ctx context.Context) error {
	if err := r.indexLibrary(ctx); err != nil {
		return err
	}
	w := r.st.Writer(writeBatch)
	var (
		size  int64 = -1
		group []sizeEntry
	)
	flush := func() error {
		err := r.dedupGroup(size, group, w)
		group = group[:0]
		return err
	}
	err := r.st.Scan(keySize, func(k, v []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if len(k) != len(keySize)+16 {
			return errRecord
		}
		sz, seq := int64(store.Uint64(k[2:10])), store.Uint64(k[10:18])
		if sz != size {
			if err := flush(); err != nil {
				return err
			}
			size = sz
		}
		group = append(group, sizeEntry{seq: seq, groupKey: append([]byte(nil), v...)})
		return nil
	})
	if err == nil {
		err = flush()
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return fmt.Errorf("find duplicates: %w", err)
	}
	return nil
}

// indexLibrary records every file already in the destination by size.
func (r *Run) indexLibrary(ctx context.Context) error {
	if _, err := os.Stat(r.dest); err != nil {
		return nil // a new library holds nothing yet
	}
	w := r.st.Writer(writeBatch)
	var e enc
	emit := func(f scan.File) error {
		e.reset()
		e.t(f.ModTime)
		return w.Put(sizeKey(keyLib, f.Size, []byte(f.Path)), e.bytes())
	}
	opt := scan.Options{Exclude: r.libraryExcludes(), Workers: r.cfg.Workers}
	_, err := scan.Walk(ctx, []string{r.dest}, opt, emit, r.scanProblem("index"))
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return fmt.Errorf("index library %q: %w", r.dest, err)
	}
	return nil
}

// sizeEntry is a source file of some size and where its record lives.
type sizeEntry struct {
	seq      uint64
	groupKey []byte
}

// libraryExcludes keeps the library index out of shoebox's state and out
// of any source inside the library (sorting DEST/incoming into DEST): those
// files are being imported, not already in the library.
func (r *Run) libraryExcludes() []string {
	ex := []string{StateDir(r.dest)}
	for _, s := range r.sources {
		if within(s, r.dest) {
			ex = append(ex, s)
		}
	}
	return ex
}

// member is one file in a size group.
type member struct {
	seq  uint64 // 0 for library files
	copy plan.Copy
	mod  int64
	dev  uint64
	ino  uint64
}

// dedupGroup hashes a size group's members when there are at least two,
// and records every source that is not the keeper of its content.
func (r *Run) dedupGroup(size int64, seqs []sizeEntry, w opWriter) error {
	if size <= 0 || len(seqs) == 0 {
		return nil // empty files are not photos; nothing to compare
	}
	lib, err := r.libraryOfSize(size)
	if err != nil {
		return err
	}
	if len(seqs)+len(lib) < 2 {
		return nil
	}
	members := lib
	for _, se := range seqs {
		m, ok, err := r.sourceMember(se)
		if err != nil {
			return err
		}
		if ok {
			members = append(members, m)
		}
	}
	return r.recordDuplicates(members, size, w)
}

func (r *Run) sourceMember(se sizeEntry) (member, bool, error) {
	v, ok, err := r.st.Get(se.groupKey)
	if err != nil || !ok {
		return member{}, false, err
	}
	seq := se.seq
	d := newDec(v)
	fi := getInfo(seq, d)
	if d.Err() != nil {
		return member{}, false, d.Err()
	}
	if fi.Info.Kind != meta.KindPhoto && fi.Info.Kind != meta.KindVideo {
		return member{}, false, nil
	}
	wall := fi.Info.Date.Wall
	if fi.Info.Date.IsZero() {
		wall = wall.UTC()
	}
	return member{seq: seq, copy: plan.Copy{Path: fi.File.Path, Wall: wall}, dev: fi.File.Dev, ino: fi.File.Ino}, true, nil
}

func (r *Run) libraryOfSize(size int64) ([]member, error) {
	var out []member
	prefix := sizeKey(keyLib, size, nil)
	err := r.st.Scan(prefix, func(k, v []byte) error {
		d := newDec(v)
		mod := d.t()
		out = append(out, member{copy: plan.Copy{Path: string(k[len(prefix):]), InLibrary: true}, mod: timeNanos(mod)})
		return d.Err()
	})
	return out, err
}

// recordDuplicates groups members by content and marks the non-keepers.
func (r *Run) recordDuplicates(members []member, size int64, w opWriter) error {
	groups := map[digest.Sum][]member{}
	var order []digest.Sum
	for _, m := range members {
		sum, err := r.sumOf(m, size)
		if err != nil {
			r.emit(Event{Type: "problem", Stage: "dedup", Src: m.copy.Path, Reason: err.Error()})
			continue // unreadable: never call it a duplicate
		}
		if _, seen := groups[sum]; !seen {
			order = append(order, sum)
		}
		groups[sum] = append(groups[sum], m)
	}
	var e enc
	for _, sum := range order {
		g := groups[sum]
		if len(g) < 2 {
			continue
		}
		copies := make([]plan.Copy, len(g))
		for i, m := range g {
			copies[i] = m.copy
		}
		keep := g[plan.Keeper(copies)]
		for _, m := range g {
			if m.seq == 0 || m.seq == keep.seq {
				continue
			}
			e.reset()
			e.s(keep.copy.Path)
			e.bool(keep.copy.InLibrary)
			e.s(m.copy.Path) // the duplicate itself, for --delete-duplicates
			if err := w.Put(seqKey(keyDup, m.seq), e.bytes()); err != nil {
				return err
			}
		}
		if err := r.markKeeper(keep.copy, w); err != nil {
			return err
		}
	}
	return nil
}

// sumOf hashes a member, reusing the library index where it is current.
func (r *Run) sumOf(m member, size int64) (digest.Sum, error) {
	if !m.copy.InLibrary || r.hashes == nil {
		sum, _, err := digest.File(r.cfg.FS, m.copy.Path)
		return sum, err
	}
	sum, _, err := cachedSum(r.cfg.FS, r.hashes, m.copy.Path, size, m.mod)
	return sum, err
}

// cachedSum returns the hash of a library file from the index while its size
// and mtime are unchanged, else hashes it and updates the index. fresh says
// whether the file had to be read.
func cachedSum(fsys fsx.FS, idx *store.Store, path string, size, mod int64) (sum digest.Sum, fresh bool, err error) {
	key := append([]byte("h/"), path...)
	if v, ok, err := idx.Get(key); err == nil && ok {
		d := newDec(v)
		sz, md, raw := d.i(), d.i(), d.s()
		if d.Err() == nil && sz == size && md == mod && len(raw) == len(sum) {
			copy(sum[:], raw)
			return sum, false, nil
		}
	}
	if sum, _, err = digest.File(fsys, path); err != nil {
		return sum, true, err
	}
	var e enc
	e.i(size)
	e.i(mod)
	e.s(string(sum[:]))
	w := idx.Writer(1)
	if err := w.Put(key, e.bytes()); err != nil {
		return sum, true, err
	}
	return sum, true, w.Flush()
}

// duplicateOf looks up whether seq was found to duplicate another file.
func (r *Run) duplicateOf(seq uint64) (dupOf, bool, error) {
	if !r.cfg.Dedup {
		return dupOf{}, false, nil
	}
	v, ok, err := r.st.Get(seqKey(keyDup, seq))
	if err != nil || !ok {
		return dupOf{}, false, err
	}
	d := newDec(v)
	out := dupOf{Path: d.s(), InLibrary: d.bool()}
	return out, true, d.Err()
}

func (r *Run) opEvent(fi fileInfo, out Outcome, dst, same, why string) Event {
	ev := Event{Type: "op", Outcome: out, Src: fi.File.Path, Dst: dst, SameAs: same, Size: fi.File.Size,
		DateSource: fi.Info.Date.Source.String(), DateTag: fi.Info.Date.Tag, Reason: why}
	if !fi.Info.Date.IsZero() {
		ev.Date = fi.Info.Date.Wall.Format("2006-01-02T15:04:05")
	}
	return ev
}
