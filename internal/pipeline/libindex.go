package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/digest"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/plan"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/scan"
	"github.com/shoebox-photos/shoebox/internal/store"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// The library index (in DEST/.shoebox/index, beside the hash cache) lists
// the library's files by size, with their content hash where shoebox knows
// it, so that dedup finds a new file's twins in the library without
// walking it: an incremental import costs the new files and the folders
// they land in, not the library.
//
// The rule and what it trusts (docs/library.md, "Incremental imports"):
//
//   - The index is whole once a full walk built it (the first sort with
//     dedup into a library, `shoebox index`, or any run with --checksum);
//     until then every dedup run walks the library, as before.
//   - Every file shoebox plans to put in the library is added before the
//     transfer starts (durably), so a kill can leave an entry for a file
//     that never landed, never a landed file without its entry.
//   - Every destination folder a run lands files in is listed before
//     dedup: files a user put there by hand are added, entries whose files
//     are gone are dropped.
//   - An entry is only ever a candidate: it is stat'ed before use, its
//     hash is the hash cache's (valid while size and mtime are unchanged)
//     or read afresh, so a stale entry (a file deleted, moved or edited by
//     hand) can cost a read, never a wrong "already in the library".
//   - A file put elsewhere in the library by hand, or by another program,
//     is not a dedup candidate until a walk sees it: a new source with its
//     bytes is then imported beside it (a twin, never a lost photo or an
//     overwrite: names are still checked in the folder, and the no-replace
//     rename is the final guard).
var (
	keyLibBySize = []byte("b/")      // b/<size><0 | 1 sum><rel path> → ""
	keyLibByPath = []byte("f/")      // f/<rel path> → size, sum ("" unknown)
	keyLibWhole  = []byte("m/whole") // the index covers the library (see above)
)

// libSizeKey is an entry's by-size key; sum nil or empty means not known.
func libSizeKey(size int64, sum []byte, rel string) []byte {
	k := sizeKey(keyLibBySize, size, nil)
	if len(sum) == 0 {
		k = append(k, 0)
	} else {
		k = append(append(k, 1), sum...)
	}
	return append(k, rel...)
}

func libPathKey(rel string) []byte {
	return append(append([]byte(nil), keyLibByPath...), rel...)
}

// note records that the library holds rel (slash separated, relative to
// the library) with size, and its hash when known.
func (h *hashIndex) note(rel string, size int64, sum []byte) error {
	var e enc
	e.i(size)
	e.s(string(sum))
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.w.Put(libSizeKey(size, sum, rel), nil); err != nil {
		return err
	}
	return h.w.Put(libPathKey(rel), e.bytes())
}

// drop removes rel's entry as recorded (size, sum).
func (h *hashIndex) drop(rel string, size int64, sum []byte) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.w.Delete(libSizeKey(size, sum, rel)); err != nil {
		return err
	}
	return h.w.Delete(libPathKey(rel))
}

// whole reports whether the index covers the library.
func (h *hashIndex) whole() bool {
	_, ok, err := h.st.Get(keyLibWhole)
	return err == nil && ok
}

// decodeLibPath reads an f/ value.
func decodeLibPath(v []byte) (size int64, sum []byte, err error) {
	d := newDec(v)
	size = d.i()
	if s := d.s(); s != "" {
		sum = []byte(s)
	}
	return size, sum, d.Err()
}

// useLibraryIndex decides how dedup learns the library: from the index
// when it is whole (after listing the folders this run lands in), else by
// walking the library, which rebuilds the index (a dry run's private
// copy of it: copyLibraryIndex).
func (r *Run) useLibraryIndex(ctx context.Context) error {
	if r.index.whole() && !r.cfg.Checksum {
		r.begin("plan", "listing the folders the new files land in", 0, 0)
		return r.listLandingFolders(ctx)
	}
	r.begin("plan", "listing the library's files to compare with", 0, 0)
	return r.rebuildLibraryIndex(ctx, r.dest, r.libraryExcludes(), r.scanProblem("index"), func(f scan.File, rel string) ([]byte, error) {
		return r.index.cached(f), nil
	})
}

// rebuildLibraryIndex replaces the index's entries with what a walk of lib
// finds, then marks it whole. sumOf gives a walked file's hash when known
// (nil when not). A walk stopped halfway leaves the index not whole.
func (r *Run) rebuildLibraryIndex(ctx context.Context, lib string, exclude []string, problem func(scan.Problem), sumOf func(scan.File, string) ([]byte, error)) error {
	return rebuildIndex(ctx, r.index, lib, exclude, r.cfg.Workers, problem, sumOf)
}

func rebuildIndex(ctx context.Context, h *hashIndex, lib string, exclude []string, workers int, problem func(scan.Problem), sumOf func(scan.File, string) ([]byte, error)) error {
	if err := h.flush(); err != nil {
		return err
	}
	for _, p := range [][]byte{keyLibWhole, keyLibBySize, keyLibByPath} {
		if err := h.st.DeletePrefix(p); err != nil {
			return fmt.Errorf("clear the library index: %w", err)
		}
	}
	if _, err := os.Stat(lib); err != nil {
		return h.markWhole() // a new library holds nothing yet
	}
	emit := func(f scan.File) error {
		rel, err := filepath.Rel(lib, f.Path)
		if err != nil || !filepath.IsLocal(rel) {
			return nil
		}
		rel = filepath.ToSlash(rel)
		sum, err := sumOf(f, rel)
		if err != nil {
			sum = nil // reported by sumOf; indexed with its hash unknown
		}
		return h.note(rel, f.Size, sum)
	}
	_, err := scan.Walk(ctx, []string{lib}, scan.Options{Exclude: exclude, Workers: workers}, emit, problem)
	if err == nil {
		err = h.markWhole()
	}
	if err != nil {
		return fmt.Errorf("index library %s: %w", quote.Path(lib), err)
	}
	return nil
}

// markWhole commits what was noted and marks the index whole.
func (h *hashIndex) markWhole() error {
	h.mu.Lock()
	err := h.w.Put(keyLibWhole, nil)
	h.mu.Unlock()
	if err == nil {
		err = h.flush()
	}
	return err
}

// cached is f's hash from the hash cache while f's stamp matches it; nil
// otherwise. Nothing is read.
func (h *hashIndex) cached(f scan.File) []byte {
	sum, ok := h.lookup(f.Path, stampOf(f))
	if !ok {
		return nil
	}
	return sum[:]
}

var keyLanding = []byte("D/") // D/<dir> → "": a destination folder this run may land files in

// listLandingFolders lists every folder the run's photos and videos would
// land in and brings the index up to date with each: files put there by
// hand are added (hash not known), entries whose files are gone dropped.
func (r *Run) listLandingFolders(ctx context.Context) error {
	if err := r.noteLandingFolders(ctx); err != nil {
		return err
	}
	defer r.st.DeletePrefix(keyLanding)
	err := r.st.Scan(keyLanding, func(k, _ []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return r.reconcileFolder(string(k[len(keyLanding):]))
	})
	if err == nil {
		err = r.index.flush()
	}
	if err != nil {
		return fmt.Errorf("list the destination folders: %w", err)
	}
	return nil
}

// noteLandingFolders files the destination folder of every photo and video
// still to be planned (the history's known files stay where they are).
func (r *Run) noteLandingFolders(ctx context.Context) error {
	w := r.st.Writer(writeBatch)
	err := r.st.Scan(keyGroup, func(k, v []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		d := newDec(v)
		fi := getInfo(store.Uint64(k[len(k)-8:]), d)
		if d.Err() != nil {
			return d.Err()
		}
		if fi.Known != 0 || !isMedia(fi.Info.Kind) || fi.File.Size <= 0 {
			return nil
		}
		fi.Info.Date = shiftDate(fi.Info.Date, fi.File.Path, fi.Info.Model, r.cfg.Shift)
		p, _ := r.place(fi)
		return w.Put(append(append([]byte(nil), keyLanding...), p.Dir...), nil)
	})
	return firstErr(err, w.Flush())
}

// reconcileFolder brings the index's entries for one library folder (dir,
// relative, slash separated) in line with its listing.
func (r *Run) reconcileFolder(dir string) error {
	full := filepath.Join(r.dest, filepath.FromSlash(dir))
	entries, err := os.ReadDir(full)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read destination folder %s: %w", quote.Path(full), fsx.Bare(err))
	}
	prefix := dir + "/"
	if dir == "" {
		prefix = ""
	}
	onDisk := make(map[string]fs.DirEntry, len(entries))
	for _, de := range entries {
		// The same files a walk of the library indexes: hidden names and
		// system clutter are not the library's files (nor are a killed
		// run's temp files, which the real run's recovery has removed by
		// now, and which a dry run, which recovers nothing, finds there).
		if de.Type().IsRegular() && !scan.IsClutter(de.Name()) {
			onDisk[de.Name()] = de
		}
	}
	// The index's entries directly in dir: kept while their file is there.
	err = r.index.st.Scan(libPathKey(prefix), func(k, v []byte) error {
		name := string(k[len(keyLibByPath)+len(prefix):])
		if strings.Contains(name, "/") {
			return nil // deeper down
		}
		if _, ok := onDisk[name]; ok {
			delete(onDisk, name)
			return nil
		}
		size, sum, err := decodeLibPath(v)
		if err != nil {
			return nil
		}
		return r.index.drop(prefix+name, size, sum)
	})
	if err != nil {
		return err
	}
	// What is left was put there by hand (or by another program).
	names := make([]string, 0, len(onDisk))
	for name := range onDisk {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if r.isStateDir(filepath.Join(full, name)) {
			continue
		}
		info, err := onDisk[name].Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if err := r.index.note(prefix+name, info.Size(), nil); err != nil {
			return err
		}
	}
	return nil
}

// isStateDir reports whether p is shoebox's state or a source inside the
// library, which the library's files never include.
func (r *Run) isStateDir(p string) bool {
	for _, ex := range r.libraryExcludes() {
		if p == ex || within(p, ex) {
			return true
		}
	}
	return false
}

// queueIndexedOfSize queues the index's library files of size whose hash
// is not known yet for hashing (after a stat: gone or resized files are
// dropped from the index), and says whether the index holds any file of
// that size at all.
func (r *Run) queueIndexedOfSize(size int64, pool *hashPool) (bool, error) {
	prefix := sizeKey(keyLibBySize, size, nil)
	any := false
	unknown := append(append([]byte(nil), prefix...), 0)
	err := r.scanIndex(prefix, func(k []byte) error {
		any = true
		if len(k) < len(unknown) || k[len(prefix)] != 0 {
			return errStopScan // the known hashes follow the unknown ones
		}
		rel := string(k[len(unknown):])
		ok := r.libraryFile(rel, size, nil)
		if !ok {
			return nil
		}
		m := member{copy: plan.Copy{Path: filepath.Join(r.dest, filepath.FromSlash(rel)), InLibrary: true}, rel: rel}
		return pool.add(m, size)
	})
	if errors.Is(err, errStopScan) {
		err = nil
	}
	return any, err
}

var errStopScan = errors.New("stop scan")

// libraryFile stats an index entry's file: ok while it is a regular file
// of the recorded size. Otherwise the entry is dropped (the file was
// removed or changed by hand; a folder listing or walk adds it anew).
//
// An entry inside this run's state or inside one of its sources (a
// library folder sorted anew, e.g. to a new layout) is no library file in
// this run: a source would otherwise be its own twin, "already in
// library". It is kept in the index for the runs after.
func (r *Run) libraryFile(rel string, size int64, sum []byte) bool {
	path := filepath.Join(r.dest, filepath.FromSlash(rel))
	if r.isStateDir(path) {
		return false
	}
	info, err := os.Lstat(path)
	if err == nil && info.Mode().IsRegular() && info.Size() == size {
		return true
	}
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		if derr := r.index.drop(rel, size, sum); derr != nil {
			r.emit(Event{Type: "warning", Stage: "plan", Reason: fmt.Sprintf("library index: %v", derr)})
		}
	}
	return false
}

// addIndexedTwins adds, for every content some source has, the library
// files the index lists with that size and hash: each is stat'ed and its
// hash taken from the hash cache or read, so only a file that really has
// those bytes becomes a library member of the content.
func (r *Run) addIndexedTwins(ctx context.Context) error {
	w := r.st.Writer(writeBatch)
	var last []byte
	err := r.st.Scan(keyContent, func(k, _ []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if len(k) < contentPrefixLen+1 || k[contentPrefixLen] != 1 || string(k[:contentPrefixLen]) == string(last) {
			return nil // a library member, or a content already looked up
		}
		last = append(last[:0], k[:contentPrefixLen]...)
		size := int64(store.Uint64(k[2:10]))
		sum := k[10:contentPrefixLen]
		return r.twinsOf(size, sum, w)
	})
	err = firstErr(err, w.Flush(), r.index.flush())
	if err != nil {
		return fmt.Errorf("find duplicates in the library index: %w", err)
	}
	return nil
}

// twinsOf files the library's verified files of size and sum as members.
func (r *Run) twinsOf(size int64, sum []byte, w opWriter) error {
	prefix := libSizeKey(size, sum, "")
	var rels []string
	err := r.scanIndex(prefix, func(k []byte) error {
		rels = append(rels, string(k[len(prefix):]))
		return nil
	})
	for _, rel := range rels {
		if err != nil {
			break
		}
		ok := r.libraryFile(rel, size, sum)
		if !ok {
			continue
		}
		m := member{copy: plan.Copy{Path: filepath.Join(r.dest, filepath.FromSlash(rel)), InLibrary: true}}
		got, err2 := r.sumOf(m, size)
		switch {
		case err2 != nil:
			r.emit(Event{Type: "problem", Stage: "dedup", Src: m.copy.Path, Reason: err2.Error()})
		case string(got[:]) != string(sum):
			// Changed in place since it was indexed: filed anew under its bytes.
			err = firstErr(r.index.drop(rel, size, sum), r.index.note(rel, size, got[:]))
		default:
			err = putHashed(hashed{m: m, size: size, sum: got}, w)
		}
	}
	return err
}

// noteLanding adds a file the transfer stage is about to put in the
// library to the index, before it lands (see above). Links (symlink mode)
// are not library files of their own.
func (r *Run) noteLanding(p planned, dst string, companion bool) error {
	if r.cfg.Mode == transfer.Symlink {
		return nil
	}
	if err := r.openIndex(); err != nil {
		return err
	}
	rel, err := filepath.Rel(r.dest, dst)
	if err != nil || !filepath.IsLocal(rel) {
		return nil
	}
	var sum []byte
	if !companion && r.sourceSums {
		// The hash dedup computed, when it did (a companion shares its
		// photo's Seq, not its bytes).
		if v, ok, err := r.st.Get(seqKey(keySum, p.Seq)); err == nil && ok && len(v) == digest.Size {
			sum = v
		}
	}
	return r.index.note(filepath.ToSlash(rel), p.Size, sum)
}

var keySum = []byte("K/") // k/<seq> → the source's content hash, when dedup computed it

// noteSum files an index entry under the hash just computed for it.
func (r *Run) noteSum(rel string, size int64, sum digest.Sum) {
	if err := firstErr(r.index.drop(rel, size, nil), r.index.note(rel, size, sum[:])); err != nil {
		r.emit(Event{Type: "warning", Stage: "plan", Reason: fmt.Sprintf("library index: %v", err)})
	}
}

// scanIndex calls fn for each by-size key of the library index under
// prefix. Dedup asks for sizes and contents in ascending order, so one
// cursor serves the whole pass, each seek continuing from the last,
// instead of a new iterator (and its index blocks read again) per size.
// The cursor sees the index as it was when dedup began: entries added or
// re-filed since are already members of this run's contents.
func (r *Run) scanIndex(prefix []byte, fn func(k []byte) error) error {
	if r.indexCur == nil {
		c, err := r.index.st.Cursor(keyLibBySize)
		if err != nil {
			return err
		}
		r.indexCur = c
	}
	c := r.indexCur
	for ok := c.SeekGE(prefix); ok && bytes.HasPrefix(c.Key(), prefix); ok = c.Next() {
		if err := fn(c.Key()); err != nil {
			return err
		}
	}
	return nil
}

// closeIndexCursor releases scanIndex's cursor.
func (r *Run) closeIndexCursor() error {
	if r.indexCur == nil {
		return nil
	}
	err := r.indexCur.Close()
	r.indexCur = nil
	return err
}

// LibraryIndexDir is the library index's store inside a state folder.
func LibraryIndexDir(state string) string { return filepath.Join(state, "index") }

// IndexedSum is the content hash the library index (opened read-only by
// shoebox check) records for the library file rel (slash separated), nil
// when it records none. size is the size it was recorded with.
func IndexedSum(st *store.Store, rel string) (size int64, sum []byte, err error) {
	v, ok, err := st.Get(libPathKey(rel))
	if err != nil || !ok {
		return 0, nil, err
	}
	size, sum, err = decodeLibPath(v)
	if err != nil || len(sum) != digest.Size {
		return 0, nil, nil // unreadable: as if not recorded
	}
	return size, sum, nil
}
