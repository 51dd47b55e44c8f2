package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/shoebox-photos/shoebox/internal/digest"
	"github.com/shoebox-photos/shoebox/internal/importlog"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/recovery"
	"github.com/shoebox-photos/shoebox/internal/scan"
	"github.com/shoebox-photos/shoebox/internal/storage"
	"github.com/shoebox-photos/shoebox/internal/store"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// The import history (internal/importlog) lets a re-run recognise what it
// imported before from stat data alone. The rule, documented in the
// docs/library.md: a source whose device, inode, size, mtime and change time are
// those recorded when it was imported is that file. If its library copy
// still has the size and mtime shoebox gave it, it is already in the
// library: neither file is read (--checksum compares their bytes instead).
// If the copy is gone or changed (culled, edited), the file was imported
// before and is left alone (--reimport brings it back).
//
// The scan files each source under its identity too (n/<dev><ino><seq>),
// so recall meets the sources in identity order and merges them against
// the history with one forward cursor: no lookup per file, nothing loaded.
// A recognised file skips the header read: it goes straight to its group
// with what the history kept (kind, date), marked Known.

var keyIdentity = []byte("n/") // n/<dev><ino><seq> → scanned file, for recall

func identityKey(f fileKey) []byte {
	k := store.AppendUint64(append([]byte(nil), keyIdentity...), f.dev)
	k = store.AppendUint64(k, f.ino)
	return store.AppendUint64(k, f.seq)
}

type fileKey struct{ dev, ino, seq uint64 }

// openImports opens the library's import history. A dry run only reads
// it (and leaves it alone when absent or busy). A real run reads it too
// while it has nothing to record, and opens it for writing the first time
// it does (recorder): opening a store for writing writes its manifest and
// log anew, and a run with nothing to do must leave the library as it
// found it but for its own journal record. It never stops a sort: a
// history that cannot be used is a warning, and the run goes on comparing
// content as before.
func (r *Run) openImports() {
	if r.cfg.NoHistory {
		return
	}
	state := StateDir(r.dest)
	if r.cfg.DryRun || r.readsHistoryFirst(state) {
		r.imports = importlog.OpenReadOnly(state)
		r.importsReadOnly = !r.cfg.DryRun && r.imports != nil
	}
	if r.imports == nil && !r.cfg.DryRun {
		r.openImportsForWriting("files imported before are recognised by their content only")
	}
	if r.imports != nil {
		empty, err := r.imports.Empty()
		r.recallOn = err == nil && !empty
	}
}

// readsHistoryFirst reports whether a real run opens the history
// read-only until it records something: a history is there, and the run
// is not one that rewrites what it knows of many files (--checksum and
// --reimport keep the landing of every source they do not recognise).
func (r *Run) readsHistoryFirst(state string) bool {
	return importlog.Exists(state) && !r.cfg.Checksum && !r.cfg.Reimport
}

// openImportsForWriting opens the history for writing (a history that
// cannot be opened is started anew, with a warning); a failure is a
// warning that ends with what it costs.
func (r *Run) openImportsForWriting(cost string) {
	warn := func(msg string) {
		r.emit(Event{Type: "warning", Stage: "plan", Reason: strings.ReplaceAll(msg, "\n", "; ")})
	}
	l, err := importlog.Open(StateDir(r.dest), warn)
	if err != nil {
		warn(fmt.Sprintf("%v: %s", err, cost))
		return
	}
	r.imports, r.remember = l, l.Recorder()
}

// recorder returns the history's writer, nil in a dry run or when the
// history cannot be used. A history opened read-only is reopened for
// writing here, the first time the run records something; never while a
// lookup cursor is open on it (recall defers its writes, keepLanding).
func (r *Run) recorder() *importlog.Recorder {
	if !r.importsReadOnly {
		return r.remember
	}
	r.importsReadOnly = false
	if err := r.imports.Close(); err != nil {
		r.emit(Event{Type: "warning", Stage: "plan", Reason: fmt.Sprintf("close the import history to reopen it for writing: %v", err)})
	}
	r.imports = nil
	r.openImportsForWriting("what this run imports or moves is not recorded in it: the next run compares those files by content, and shoebox check may list them")
	if r.remember != nil {
		for _, e := range r.pendingKeeps {
			_ = r.remember.Keep(e)
		}
	}
	r.pendingKeeps = nil
	return r.remember
}

// recording reports whether this run records in the history (a real run
// whose history is usable), whether or not it has opened it for writing.
func (r *Run) recording() bool { return r.remember != nil || r.importsReadOnly }

// followInterruptedMoves moves the history entries after the library
// files that runs which did not finish moved within the library before
// they could record it (see movedWithinLibrary): a kill between a move
// and its record leaves them naming the old place. It keeps those runs'
// moves for dropInterruptedBackupCopies. The history is opened for
// writing only when an entry still names an old place.
func (r *Run) followInterruptedMoves() {
	if !r.recording() {
		return
	}
	runs, err := recovery.MovesWithinByRun(r.dest, func(journal.Summary) bool { return true })
	r.interruptedMoves = runs
	var pairs [][2]string
	for _, rm := range runs {
		for _, p := range rm.Pairs {
			if known, kerr := r.imports.Knows(p[0]); kerr != nil || known {
				pairs = append(pairs, p)
			}
		}
	}
	if err == nil && len(pairs) > 0 && r.recorder() != nil {
		_, err = r.imports.Relocate(importlog.Pairs(pairs))
	}
	if err != nil {
		r.emit(Event{Type: "warning", Stage: "plan", Reason: fmt.Sprintf("could not move the import history after the files an interrupted run moved in the library (%v): shoebox check may call them missing", err)})
	}
}

// dropInterruptedBackupCopies finishes dropOldBackupCopies for runs that
// did not finish: the backup copies they left at the old places of the
// library files they moved within the library go, each once the copy at
// the new place is there and proved identical, as a recovery of the run
// that moved them (so that undo of that run puts them back). Only a real
// run with the backup does it.
func (r *Run) dropInterruptedBackupCopies() {
	if r.backup == "" || r.cfg.DryRun {
		return
	}
	for _, rm := range r.interruptedMoves {
		pending := oldBackupCopies(r.backup, rm.Pairs)
		if len(pending) == 0 {
			continue
		}
		x, w, err := recovery.JournaledExecutor(r.cfg.FS, false, r.dest, recovery.KindRecover, rm.Run)
		if err != nil {
			r.emit(Event{Type: "warning", Stage: "recover", Reason: fmt.Sprintf("the backup copies the interrupted run %s left at the old places of the files it moved stay: %v", rm.Run, err)})
			return
		}
		r.removeOldBackupCopies(x, pending)
		if err := w.Close(); err != nil {
			r.emit(Event{Type: "warning", Stage: "recover", Reason: fmt.Sprintf("finish the record of the backup copies removed after run %s: %v", rm.Run, err)})
		}
	}
}

// followInterruptedRelayouts moves the backup copies that a relayout which
// did not finish (killed) left at the old places of the library files it
// had moved, as running that relayout again would: a sort with the backup
// finishes the backup's side of it too (recovery.FollowInterruptedBackups).
func (r *Run) followInterruptedRelayouts() {
	if r.backup == "" || r.cfg.DryRun || len(r.interruptedMoves) == 0 {
		return
	}
	left := func(path, reason string) {
		r.emit(Event{Type: "warning", Stage: "recover", Src: path, Reason: fmt.Sprintf("%s (after an interrupted relayout): %s", path, reason)})
	}
	if _, err := recovery.FollowInterruptedBackups(context.Background(), r.dest, r.backup, r.cfg.FS, recovery.IsRelayout, left); err != nil {
		r.emit(Event{Type: "warning", Stage: "recover", Reason: fmt.Sprintf("the backup copies an interrupted relayout left at their old places stay there (%v): run that relayout again to move them", err)})
	}
}

// oldBackupCopies keeps the pairs whose backup copy is still at the old
// place, and that have one at the new place.
func oldBackupCopies(backup string, pairs [][2]string) [][2]string {
	var out [][2]string
	for _, p := range pairs {
		_, errOld := os.Lstat(filepath.Join(backup, filepath.FromSlash(p[0])))
		_, errNew := os.Lstat(filepath.Join(backup, filepath.FromSlash(p[1])))
		if errOld == nil && errNew == nil {
			out = append(out, p)
		}
	}
	return out
}

// recall moves every source the history recognises from the scanned files
// to its group, so the meta stage never opens it.
func (r *Run) recall(ctx context.Context) error {
	if !r.recallOn {
		return nil
	}
	defer r.st.DeletePrefix(keyIdentity)
	m, err := r.imports.Matcher()
	if err != nil {
		r.recallFailed(err)
		return nil
	}
	w := r.st.Writer(writeBatch)
	var e enc
	err = r.st.Scan(keyIdentity, func(k, v []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		d := newDec(v)
		f := getFile(d)
		if d.Err() != nil || len(k) != len(keyIdentity)+24 {
			return errRecord
		}
		fi, ok, err := r.recognise(m, f, store.Uint64(k[len(k)-8:]))
		if err != nil || !ok {
			return err
		}
		r.sum.Recalled++
		e.reset()
		putInfo(&e, fi)
		if err := w.Put(groupKey(fi), e.bytes()); err != nil {
			return err
		}
		if err := r.putKnownCopy(fi, w); err != nil {
			return err
		}
		return w.Delete(seqKey(keyFile, fi.Seq))
	})
	err = firstErr(err, w.Flush(), m.Close())
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		// What was moved is consistent (each file whole); the rest goes
		// through the meta stage as if the history did not know it.
		r.recallFailed(err)
	}
	return nil
}

// putKnownCopy files a recognised file's library copy with the library's
// files by size, as the library walk would: a new source with its bytes is
// then "already in the library", as it was when that file was compared
// itself. Nothing is read unless a new source has its size. In symlink
// mode the copy is a link, which the walk does not see: its source is what
// gets hashed.
func (r *Run) putKnownCopy(fi fileInfo, w opWriter) error {
	if !r.cfg.Dedup || fi.Known != importlog.Intact || !isMedia(fi.Info.Kind) || fi.File.Size <= 0 {
		return nil
	}
	info, err := os.Lstat(fi.KnownPath)
	if err != nil {
		return nil
	}
	var e enc
	size, read := info.Size(), ""
	if !info.Mode().IsRegular() {
		size, read = fi.File.Size, fi.File.Path
	}
	e.t(info.ModTime())
	e.s(read)
	return w.Put(sizeKey(keyLib, size, []byte(fi.KnownPath)), e.bytes())
}

func (r *Run) recallFailed(err error) {
	r.emit(Event{Type: "warning", Stage: "meta", Reason: fmt.Sprintf("could not read the import history (%v): files imported before are compared by content", err)})
}

// recognise applies the rule to one scanned file: by its identity, or on
// a filesystem that numbers inodes afresh by its place (renumbers).
func (r *Run) recognise(m *importlog.Matcher, f scan.File, seq uint64) (fileInfo, bool, error) {
	mtime, ctime, rel := timeNanos(f.ModTime), ctimeNanos(f.CTime), relToRoot(f)
	ent, ok, err := m.Find(f.Dev, f.Ino)
	if errors.Is(err, importlog.ErrRecord) {
		// One damaged record: its file is compared by content (and
		// recorded anew); the rest of the history still counts.
		r.warnDamagedRecord(f, err)
		ok, err = false, nil
	}
	if err != nil {
		return fileInfo{}, false, err
	}
	if !ok || !ent.SameSource(f.Dev, f.Ino, f.Size, mtime, ctime, rel) {
		if ok {
			r.keepLanding(ent) // another file now has its identity
		}
		if !r.renumbers(f.Root) {
			return fileInfo{}, false, nil
		}
		if ent, ok, err = m.FindByPlace(f.Size, mtime, ctime, rel); err != nil || !ok {
			return fileInfo{}, false, err
		}
	}
	check := ent.Check
	if r.renumbers(r.dest) {
		check = ent.CheckByPlace // a library on sshfs: its copies are renumbered too
	}
	state := check(r.dest)
	switch {
	case state == importlog.Unsure: // its content decides, as without a history
		r.keepLanding(ent)
		return fileInfo{}, false, nil
	case state == importlog.Intact && r.cfg.Checksum, state != importlog.Intact && r.cfg.Reimport:
		r.keepLanding(ent)
		return fileInfo{}, false, nil
	}
	fi := fileInfo{Seq: seq, File: f, Known: state, KnownPath: ent.LibraryPath(r.dest), KnownRun: ent.Run}
	fi.Info.Kind = meta.Kind(ent.Kind)
	fi.Info.Date.Source = meta.Source(ent.DateSource)
	if ent.Taken != 0 {
		fi.Info.Date.Wall = time.Unix(0, ent.Taken).UTC()
	}
	return fi, true, nil
}

// keepLanding keeps what the history knows of a source this run does not
// recognise under the path it landed at (importlog.Recorder.Keep): if the
// run lands it anew elsewhere, the file it landed before stays known to
// shoebox check. Histories written before the path records kept entries
// are brought up to date so, one such source at a time. A dry run writes
// nothing; a failure only leaves that record as it was.
func (r *Run) keepLanding(e importlog.Entry) {
	switch {
	case r.remember != nil:
		_ = r.remember.Keep(e)
	case r.importsReadOnly && len(r.pendingKeeps) < maxPendingKeeps:
		// Written once the history is open for writing; past the bound
		// the records stay as they were, as on a failed write.
		r.pendingKeeps = append(r.pendingKeeps, e)
	}
}

// maxPendingKeeps bounds the landings a run holds for keepLanding before it
// has opened the history for writing.
const maxPendingKeeps = 16384

// warnDamagedRecord says, once per run, that the history held a record it
// could not read.
func (r *Run) warnDamagedRecord(f scan.File, err error) {
	if r.damagedWarned {
		return
	}
	r.damagedWarned = true
	r.emit(Event{Type: "warning", Stage: "meta", Src: f.Path, Reason: fmt.Sprintf(
		"the import history's record of %s could not be read (%v): that file is compared by content and recorded again", quote.Path(f.Path), err)})
}

// renumbers reports whether the filesystem of root (a source root, or the
// library) numbers inodes afresh (storage.RenumbersInodes), probed once
// per root.
func (r *Run) renumbers(root string) bool {
	if v, ok := r.renumbering[root]; ok {
		return v
	}
	if r.renumbering == nil {
		r.renumbering = map[string]bool{}
	}
	v := renumbersInodes(root)
	r.renumbering[root] = v
	return v
}

// renumbersInodes probes a folder's filesystem; tests replace it to
// run the place rule on the filesystem they have.
var renumbersInodes = func(root string) bool {
	in, err := storage.Probe(root)
	return err == nil && storage.RenumbersInodes(in.FSType)
}

// relToRoot is a scanned file's path under its source root ("" for a
// source given as the file itself: its base name then).
func relToRoot(f scan.File) string {
	rel, err := filepath.Rel(f.Root, f.Path)
	if err != nil || rel == "." || !filepath.IsLocal(rel) {
		return filepath.Base(f.Path)
	}
	return rel
}

// ctimeNanos is 0 for a platform without change times, as the history
// records it.
func ctimeNanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// wallNanos keeps a capture wall clock as if it were UTC, so it reads back
// as the same wall clock whatever its zone.
func wallNanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC).UnixNano()
}

// admitKnown counts and reports a file the history recognised, and says
// whether a filter leaves it out (judged on the date the history kept).
func (r *Run) admitKnown(fi fileInfo) (leftOut bool) {
	switch fi.Info.Kind {
	case meta.KindSidecar:
		r.sum.Sidecars++
	default:
		r.sum.Media++
	}
	// A sidecar follows its photo, whose own verdict was given: judged
	// alone, on its own file's times, it would be left out where the
	// first run sent it along.
	if r.cfg.Filter.Active() && fi.Info.Kind != meta.KindSidecar {
		if why := r.cfg.Filter.Reject(r.filterView(fi)); why != "" {
			r.leaveOut(fi, why)
			return true
		}
	}
	ev := r.opEvent(fi, OutIdentical, fi.KnownPath, fi.KnownPath, "")
	switch fi.Known {
	case importlog.Intact:
		r.sum.Identical++
		ev.Reason = "already in the library as " + fi.KnownPath + " (recognised by the import history: not read)"
	default:
		r.sum.ImportedBefore++
		ev.Outcome, ev.Dst = OutImportedBefore, ""
		what := "deleted from the library since"
		if fi.Known == importlog.Changed {
			what = "changed in the library since"
		}
		ev.Reason = fmt.Sprintf("imported before as %s, %s: left out (--reimport brings it back)", fi.KnownPath, what)
	}
	r.emit(ev)
	return false
}

// rememberImport records a file that is in the library now, durable:
// transferred and flushed, or found identical to a library file by
// content (which heals a history that lost its last batch to a kill, or
// that predates it). A file the history cannot describe is skipped.
//
// durable says the file is durable already (found in the library by the
// plan stage): such entries are committed in batches as they come, so a
// first re-run over a big library does not hold them all.
func (r *Run) rememberImport(src importSource, libPath string, sum *digest.Sum, link, durable bool) {
	if r.cfg.DryRun && !durable {
		r.predictOldBackupCopy(src.path)
	}
	if !r.recording() || src.dev == 0 && src.ino == 0 {
		return
	}
	stat := os.Lstat
	if link {
		stat = os.Stat
	}
	info, err := stat(libPath)
	if err != nil || !info.Mode().IsRegular() {
		return
	}
	rel, err := filepath.Rel(r.dest, libPath)
	if err != nil || !filepath.IsLocal(rel) {
		return
	}
	if from, ok := r.movedWithinLibrary(src.path, durable); ok {
		// The history follows the file, as relayout's does: the landing
		// that put it at from now names rel, so check finds it there and
		// a re-run from its first source still knows it.
		r.pendingFollows = append(r.pendingFollows, [2]string{from, filepath.ToSlash(rel)})
		return
	}
	libDev, libIno, libCTime := importlog.Identity(libPath, info)
	srcCTime := ctimeNanos(src.ctime)
	if libDev == src.dev && libIno == src.ino {
		// A hard link (--mode hardlink): one inode under two names, whose
		// change time the link itself moved after the scan saw it.
		srcCTime = libCTime
	}
	r.pendingImports = append(r.pendingImports, importlog.Entry{
		Dev: src.dev, Ino: src.ino, Size: src.size, ModTime: timeNanos(src.mod), CTime: srcCTime, Src: src.path,
		Path: filepath.ToSlash(rel), LibSize: info.Size(), LibModTime: info.ModTime().UnixNano(), Link: link,
		LibDev: libDev, LibIno: libIno, LibCTime: libCTime,
		Kind: uint8(src.kind), Taken: wallNanos(src.taken), DateSource: uint8(src.source),
		Run: r.runID, At: time.Now().UnixNano(),
	})
	if sum != nil {
		r.pendingImports[len(r.pendingImports)-1].Sum = sum[:]
	}
	if durable && len(r.pendingImports) >= rememberBatch {
		r.commitImports()
	}
}

// movedWithinLibrary reports whether a transferred source is a library
// file the history knows, moved to another place in the same library (a
// sort of the library's own folder with --mode move), and returns its
// library path. Such a file is not a new import: its landing moves with it.
// A file the history does not know there (one put in the library by hand)
// is recorded as any other source.
func (r *Run) movedWithinLibrary(src string, durable bool) (string, bool) {
	if durable || r.cfg.Mode != transfer.Move {
		return "", false
	}
	rel, err := filepath.Rel(r.dest, src)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	from := filepath.ToSlash(rel)
	known, err := r.imports.Knows(from)
	return from, err == nil && known
}

// rememberBatch bounds the entries held before a commit.
const rememberBatch = 1024

// importSource is what the history keeps of a source.
type importSource struct {
	path       string
	dev, ino   uint64
	size       int64
	mod, ctime time.Time
	kind       meta.Kind
	taken      time.Time
	source     meta.Source
}

func plannedSource(p planned) importSource {
	return importSource{path: p.Src, dev: p.Dev, ino: p.Ino, size: p.Size, mod: p.ModTime, ctime: p.CTime,
		kind: p.KindCode, taken: p.Taken, source: p.Source}
}

func infoSource(fi fileInfo) importSource {
	f := fi.File
	return importSource{path: f.Path, dev: f.Dev, ino: f.Ino, size: f.Size, mod: f.ModTime, ctime: f.CTime,
		kind: fi.Info.Kind, taken: fi.Info.Date.Wall, source: fi.Info.Date.Source}
}

// commitImports makes the remembered entries durable. Call it only once
// their files are durable (after the executor's Flush). Losing them is
// harmless (the next run finds those files by content and records them),
// so a failure is a warning.
func (r *Run) commitImports() {
	if !r.recording() || len(r.pendingImports)+len(r.pendingFollows)+len(r.pendingKeeps) == 0 {
		return
	}
	if r.recorder() == nil {
		r.dropImports()
		r.pendingFollows = r.pendingFollows[:0]
		return
	}
	var err error
	for _, e := range r.pendingImports {
		if err = r.remember.Add(e); err != nil {
			break
		}
	}
	r.pendingImports = r.pendingImports[:0]
	if cerr := r.remember.Commit(); err == nil {
		err = cerr
	}
	if err == nil && len(r.pendingFollows) > 0 {
		if _, err = r.imports.Relocate(importlog.Pairs(r.pendingFollows)); err == nil {
			r.dropOldBackupCopies(r.pendingFollows)
		}
	}
	r.pendingFollows = r.pendingFollows[:0]
	if err != nil {
		r.emit(Event{Type: "warning", Stage: "transfer", Reason: fmt.Sprintf("could not record imports in the library's history (%v): the next run compares those files by content", err)})
		// The history lives in the library: if it is full (or read-only),
		// so is the destination, and the next files would fail one by one.
		if r.stop != nil {
			r.stopFor(err)
		}
	}
}

// dropImports forgets entries whose files are not known to be durable.
func (r *Run) dropImports() { r.pendingImports = r.pendingImports[:0] }

// dropOldBackupCopies removes the backup copies left at the old places
// of library files this run moved within the library. The backup mirrors
// the library, and the executor wrote each moved file's second copy at its
// new place, so the one at the old place is a duplicate of it: it goes the
// way a duplicate source goes (proved identical to the new copy, which is
// made durable first; journaled, so undo puts it back), and any doubt
// leaves it where it is. Called once the history follows the files, so a
// kill before leaves both copies, never none.
func (r *Run) dropOldBackupCopies(pairs [][2]string) {
	if r.backup == "" || r.exec == nil {
		return
	}
	r.removeOldBackupCopies(r.exec, pairs)
}

// removeOldBackupCopies removes, through x, the backup copy at the old
// place of each pair (old, new) whose copy at the new place is identical.
func (r *Run) removeOldBackupCopies(x *transfer.Executor, pairs [][2]string) {
	for _, p := range pairs {
		old := filepath.Join(r.backup, filepath.FromSlash(p[0]))
		if _, err := os.Lstat(old); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		now := filepath.Join(r.backup, filepath.FromSlash(p[1]))
		if res := x.RemoveDuplicate(context.Background(), old, now, r.backup); res.Err != nil {
			r.emit(Event{Type: "warning", Stage: "transfer", Src: old, Reason: fmt.Sprintf(
				"the backup copy at the old place of %s was kept: %v", p[1], res.Err)})
		} else {
			r.sum.OldBackupsRemoved++
		}
	}
}

// predictOldBackupCopy counts, in a dry run, the backup copy the run
// would remove from the old place of a library file it moves within the
// library (dropOldBackupCopies), so that the dry run's summary says what
// the run will do.
func (r *Run) predictOldBackupCopy(src string) {
	if r.backup == "" || r.imports == nil {
		return
	}
	from, ok := r.movedWithinLibrary(src, false)
	if !ok {
		return
	}
	if _, err := os.Lstat(filepath.Join(r.backup, filepath.FromSlash(from))); err == nil {
		r.sum.OldBackupsRemoved++
	}
}
