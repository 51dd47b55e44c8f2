package pipeline

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/shoebox-photos/shoebox/internal/digest"
	"github.com/shoebox-photos/shoebox/internal/plan"
	"github.com/shoebox-photos/shoebox/internal/scan"
	"github.com/shoebox-photos/shoebox/internal/store"
)

// Duplicates are found by size first: only files whose size collides with
// another source or a library file are hashed (BLAKE3), so a tree of unique
// sizes costs one ordered pass over the size keys and no reads at all.
// Library hashes are kept in DEST/.shoebox/index and reused while a file's
// size and mtime are unchanged, so re-importing into a big library does not
// re-hash it.
//
// Nothing is gathered in memory: hashed files go back to the store under
// c/<size><sum>… so that identical files sort next to each other, and a
// second ordered pass picks each content's keeper. Memory stays flat even
// when a hundred thousand files share one size.

var keyContent = []byte("c/") // c/<size><sum><0 lib|1 src><seq or path> → member

// findDuplicates indexes the library by size, hashes every file whose size
// is shared, then marks the duplicates of each content.
func (r *Run) findDuplicates(ctx context.Context) error {
	if none, err := r.st.Empty(keySize); err != nil || none {
		// No photo or video to compare (a re-run the import history
		// recognised whole): the library need not even be listed.
		return err
	}
	if err := r.openIndex(); err != nil {
		return err
	}
	if err := r.useLibraryIndex(ctx); err != nil {
		return err
	}
	defer r.closeIndexCursor()
	files, bytes, err := r.sharedSizeTotals(ctx)
	if err != nil {
		return fmt.Errorf("find duplicates: %w", err)
	}
	r.begin("plan", "hashing files of equal size to find duplicates", files, bytes)
	if err := r.hashSharedSizes(ctx, files, bytes); err != nil {
		return fmt.Errorf("find duplicates: %w", err)
	}
	if err := r.index.flush(); err != nil {
		return fmt.Errorf("record library hashes: %w", err)
	}
	if err := r.addIndexedTwins(ctx); err != nil {
		return err
	}
	r.begin("plan", "matching files of equal content", 0, 0)
	if err := r.markDuplicates(ctx); err != nil {
		return fmt.Errorf("find duplicates: %w", err)
	}
	return r.st.DeletePrefix(keyContent)
}

// hashSharedSizes walks sources by size. The first file of a size waits;
// a second one (or a library file of that size) means the size is shared,
// and from then on each file is hashed as it comes — on a pool of workers,
// since hashing many small files is mostly waiting on open and read.
//
// With the library index (indexed), a library file of the size is one the
// index lists: those whose hash it does not know are hashed here, those
// whose hash it knows are looked up by hash afterwards (addIndexedTwins).
// total and totalBytes are what sharedSizeTotals counted, for the progress.
func (r *Run) hashSharedSizes(ctx context.Context, total, totalBytes int64) error {
	pool := r.newHashPool(ctx, total, totalBytes)
	var (
		size    int64      = -1
		pending *sizeEntry // the first file of the current size, not hashed yet
		shared  bool
	)
	libEmpty, err := r.st.Empty(keyLib)
	if err == nil && libEmpty {
		libEmpty, err = r.index.st.Empty(keyLibBySize)
	}
	if err != nil {
		return errors.Join(err, pool.close())
	}
	err = r.st.Scan(keySize, func(k, v []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if len(k) != len(keySize)+16 {
			return errRecord
		}
		se := sizeEntry{seq: store.Uint64(k[10:18]), member: v}
		if sz := int64(store.Uint64(k[2:10])); sz != size {
			size, shared = sz, false
			pending = &sizeEntry{seq: se.seq, member: append([]byte(nil), v...)}
			if sz <= 0 {
				return nil // empty files are not photos; nothing to compare
			}
			if libEmpty {
				return nil // a new library: only sources can share a size
			}
			var err error
			if shared, err = r.hashLibraryOfSize(sz, pool); err != nil {
				return err
			}
			inIndex, err := r.queueIndexedOfSize(sz, pool)
			if err != nil {
				return err
			}
			shared = shared || inIndex
			if !shared {
				return nil
			}
		} else if !shared {
			shared = true
		} else {
			return r.hashSource(size, se, pool)
		}
		if err := r.hashSource(size, *pending, pool); err != nil {
			return err
		}
		if pending.seq != se.seq {
			return r.hashSource(size, se, pool)
		}
		return nil
	})
	return errors.Join(err, pool.close())
}

// sharedSizeTotals counts what hashSharedSizes will hash, so that the step
// names its files and bytes up front: every source file whose size another
// source shares or the library has, and the library files of such a size
// that have no known hash (listed, or in the index without one). One
// ordered pass over the size keys and, per distinct size, the prefix scans
// the hashing pass makes too. An index entry whose file is gone is counted
// and then not hashed, so the count may end a little short of the total.
func (r *Run) sharedSizeTotals(ctx context.Context) (files, bytes int64, err error) {
	libEmpty, err := r.st.Empty(keyLib)
	if err == nil && libEmpty {
		libEmpty, err = r.index.st.Empty(keyLibBySize)
	}
	if err != nil {
		return 0, 0, err
	}
	size, n := int64(-1), int64(0) // the current size and its sources
	flush := func() error {
		if size <= 0 || n == 0 {
			return nil
		}
		var lib int64
		var inLib bool
		if !libEmpty {
			var err error
			if lib, inLib, err = r.libraryOfSize(size); err != nil {
				return err
			}
		}
		if n >= 2 || inLib {
			files, bytes = files+n+lib, bytes+(n+lib)*size
		}
		return nil
	}
	err = r.st.Scan(keySize, func(k, _ []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if len(k) != len(keySize)+16 {
			return errRecord
		}
		if sz := int64(store.Uint64(k[2:10])); sz != size {
			if err := flush(); err != nil {
				return err
			}
			size, n = sz, 0
		}
		n++
		return nil
	})
	if err == nil {
		err = flush()
	}
	return files, bytes, err
}

// libraryOfSize counts the library files of size that would be hashed,
// and says whether the library has any file of that size.
func (r *Run) libraryOfSize(size int64) (toHash int64, any bool, err error) {
	err = r.st.Scan(sizeKey(keyLib, size, nil), func(_, _ []byte) error { toHash++; return nil })
	any = toHash > 0
	if err != nil {
		return toHash, any, err
	}
	prefix := sizeKey(keyLibBySize, size, nil)
	err = r.scanIndex(prefix, func(k []byte) error {
		any = true
		if len(k) <= len(prefix) || k[len(prefix)] != 0 {
			return errStopScan // the known hashes follow the unknown ones
		}
		toHash++
		return nil
	})
	if errors.Is(err, errStopScan) {
		err = nil
	}
	return toHash, any, err
}

// hashSource queues one source file for hashing.
func (r *Run) hashSource(size int64, se sizeEntry, pool *hashPool) error {
	m, err := decodeMember(se.member)
	if err != nil {
		return err
	}
	return pool.add(m, size)
}

// hashLibraryOfSize queues every library file of size and says whether
// there was any.
func (r *Run) hashLibraryOfSize(size int64, pool *hashPool) (bool, error) {
	prefix := sizeKey(keyLib, size, nil)
	any := false
	err := r.st.Scan(prefix, func(k, v []byte) error {
		any = true
		d := newDec(v)
		mtime := d.t() // the mtime the walk saw; the hash cache checks the file's stamp itself
		var read string
		if d.Len() > 0 {
			read = d.s() // a file the import history recognised (recall.go)
		}
		if d.Err() != nil {
			return d.Err()
		}
		m := member{copy: plan.Copy{Path: string(k[len(prefix):]), ModTime: mtime, InLibrary: true}, read: read}
		return pool.add(m, size)
	})
	return any, err
}

// hashPool hashes members on several workers; one goroutine files the
// results, since a store Writer is not for concurrent use. Its queues are
// bounded like every other stage's.
type hashPool struct {
	r       *Run
	total   int64 // files and bytes to hash, for the progress line
	bytes   int64
	ctx     context.Context
	jobs    chan hashed
	results chan hashed
	workers sync.WaitGroup
	written chan error
}

type hashed struct {
	m    member
	size int64
	sum  digest.Sum
}

func (r *Run) newHashPool(ctx context.Context, total, totalBytes int64) *hashPool {
	p := &hashPool{r: r, total: total, bytes: totalBytes, ctx: ctx, jobs: make(chan hashed, queueLen), results: make(chan hashed, queueLen), written: make(chan error, 1)}
	for i := 0; i < r.metaWorkers(); i++ {
		p.workers.Add(1)
		go p.hash()
	}
	go func() { p.workers.Wait(); close(p.results) }()
	go p.write()
	return p
}

func (p *hashPool) add(m member, size int64) error {
	select {
	case p.jobs <- hashed{m: m, size: size}:
		return nil
	case <-p.ctx.Done():
		return p.ctx.Err()
	}
}

// hash reports an unreadable file and drops it: it is never called a duplicate.
func (p *hashPool) hash() {
	defer p.workers.Done()
	for h := range p.jobs {
		sum, err := p.r.sumOf(h.m, h.size)
		if err != nil {
			p.r.emit(Event{Type: "problem", Stage: "dedup", Src: h.m.copy.Path, Reason: err.Error()})
			continue
		}
		h.sum = sum
		if h.m.rel != "" {
			// An indexed library file whose hash was not known: now it is.
			p.r.noteSum(h.m.rel, h.size, sum)
		}
		p.results <- h
	}
}

func (p *hashPool) write() {
	w := p.r.st.Writer(writeBatch)
	var err error
	var n, bytes int64
	for h := range p.results {
		n, bytes = n+1, bytes+h.size
		p.r.tick(Event{Type: "progress", Stage: "plan", Count: n, Bytes: bytes, Total: p.total, TotalBytes: p.bytes})
		if err == nil {
			err = putHashed(h, w)
		}
		if err == nil && !h.m.copy.InLibrary {
			// Kept for the library index, should the file land.
			p.r.sourceSums = true
			err = w.Put(seqKey(keySum, h.m.seq), h.sum[:])
		}
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	p.written <- err
}

// close waits for every queued file to be hashed and filed.
func (p *hashPool) close() error {
	close(p.jobs)
	return <-p.written
}

// putHashed files a hashed file under c/<size><sum>, so identical files
// sort together.
func putHashed(h hashed, w opWriter) error {
	m := h.m
	k := sizeKey(keyContent, h.size, h.sum[:])
	if m.copy.InLibrary {
		k = append(append(k, 0), m.copy.Path...)
	} else {
		k = seqKey(append(k, 1), m.seq)
	}
	return w.Put(k, encodeMember(m))
}

// encodeMember is decodeMember's inverse.
func encodeMember(m member) []byte {
	var e enc
	e.u(m.seq)
	e.s(m.copy.Path)
	e.t(m.copy.Wall)
	e.bool(m.copy.InLibrary)
	e.t(m.copy.ModTime)
	return e.bytes()
}

// contentPrefixLen is the length of c/<size><sum>.
const contentPrefixLen = 2 + 8 + digest.Size

// markDuplicates walks hashed files content by content: a first pass over
// a content's entries finds its keeper, a second marks the others.
func (r *Run) markDuplicates(ctx context.Context) error {
	var (
		keep  member
		count int
	)
	return r.scanRuns(ctx, keyContent, func([]byte) int { return contentPrefixLen }, func(_, v []byte, first bool) error {
		m, err := decodeMember(v)
		if err != nil {
			return err
		}
		if first {
			keep, count = m, 0
		} else if plan.Better(m.copy, keep.copy) {
			keep = m
		}
		count++
		return nil
	}, func(run []byte, w *store.Writer) error {
		if count < 2 {
			return nil
		}
		return r.markContent(run, keep, w)
	})
}

// markContent records, for every source with one content, the copy kept.
func (r *Run) markContent(prefix []byte, keep member, w opWriter) error {
	var e enc
	err := r.st.Scan(prefix, func(_, v []byte) error {
		m, err := decodeMember(v)
		if err != nil || m.copy.InLibrary || m.seq == keep.seq {
			return err
		}
		if keep.copy.InLibrary && r.selfCopy(m.copy.Path, keep.copy.Path) {
			return nil // not in the library: it is imported (or fails on the link)
		}
		e.reset()
		e.s(keep.copy.Path)
		e.bool(keep.copy.InLibrary)
		e.s(m.copy.Path) // the duplicate itself, for --delete-duplicates
		e.s(plan.Why(keep.copy, m.copy))
		r.dupsFound++
		if !keep.copy.InLibrary {
			r.keptForOthers++
		}
		return w.Put(seqKey(keyDup, m.seq), e.bytes())
	})
	if err != nil {
		return err
	}
	return r.markKeeper(keep.copy, w)
}

func decodeMember(v []byte) (member, error) {
	d := newDec(v)
	m := member{seq: d.u()}
	m.copy.Path = d.s()
	m.copy.Wall = d.t()
	m.copy.InLibrary = d.bool()
	m.copy.ModTime = d.t()
	return m, d.Err()
}

// sizeEntry is a source file of some size, as the meta stage recorded it.
type sizeEntry struct {
	seq    uint64
	member []byte // its encoded member record (path, capture time)
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
	read string // library files known through a link (symlink mode): the file to hash
	rel  string // library files from the library index whose hash it does not know yet
}

// sourceMemberOf is what dedup needs of a source photo or video; the meta
// stage stores it beside the size key, so dedup never looks files up.
func sourceMemberOf(fi fileInfo) member {
	return member{seq: fi.Seq, copy: plan.Copy{Path: fi.File.Path, Wall: fi.Info.Date.Wall, ModTime: fi.File.ModTime}}
}

// sumOf hashes a member, reusing the library index where it is current.
func (r *Run) sumOf(m member, size int64) (digest.Sum, error) {
	if m.read != "" {
		sum, _, err := digest.File(r.cfg.FS, m.read)
		return sum, err
	}
	if !m.copy.InLibrary || r.index == nil {
		sum, _, err := digest.File(r.cfg.FS, m.copy.Path)
		return sum, err
	}
	f, err := scan.StatFile(m.copy.Path) // the stamp the cached sum must match
	if err != nil {
		return digest.Sum{}, err
	}
	sum, _, err := r.index.sum(r.cfg.FS, f, !r.cfg.Checksum)
	return sum, err
}

// duplicateOf looks up whether seq was found to duplicate another file.
func (r *Run) duplicateOf(seq uint64) (dupOf, bool, error) {
	if !r.cfg.Dedup || r.dupsFound == 0 {
		return dupOf{}, false, nil // no lookup per file when there is nothing to find
	}
	v, ok, err := r.st.Get(seqKey(keyDup, seq))
	if err != nil || !ok {
		return dupOf{}, false, err
	}
	d := newDec(v)
	out := dupOf{Path: d.s(), InLibrary: d.bool()}
	d.s() // the duplicate's own path
	out.Why = d.s()
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
