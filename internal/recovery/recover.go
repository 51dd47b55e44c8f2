package recovery

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/shoebox-photos/shoebox/internal/digest"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// Stats says what Interrupted found and did.
type Stats struct {
	Journals       int      // interrupted journals examined
	TempsRemoved   int      // temp files of operations in flight, deleted
	Adopted        int      // operations that had landed but were not journaled Done: recorded now
	DirsAdopted    int      // folders a killed run created before journaling them Done: recorded now
	MovesCompleted int      // cross-device moves whose verified copy had landed: source removed
	Problems       []string // what could not be recovered, as sentences
}

// Interrupted finishes what killed runs left half done in the library at
// dest. The caller must hold the library lock (store.Lock on
// DEST/.shoebox) and call it before starting a new run. For every journal
// that was never closed and not yet recovered it removes the temp files of
// operations in flight, records as Done the operations that had landed
// (so undo can reverse them), and completes moves whose verified copy had
// landed. What it did goes into a recovery journal naming the killed run.
// Damaged journals and per-file trouble are reported in Problems, not as
// an error: they must not stop the next run.
func Interrupted(ctx context.Context, dest string, fsys fsx.FS) (Stats, error) {
	st, _, err := All(ctx, dest, fsys, false)
	return st, err
}

// All is Interrupted that also returns the entries it recorded, by run id;
// in a dry run it changes nothing and returns the entries it would have
// recorded.
func All(ctx context.Context, dest string, fsys fsx.FS, dry bool) (Stats, map[string][]journal.Entry, error) {
	var st Stats
	found := map[string][]journal.Entry{}
	dest, err := filepath.Abs(dest)
	if err != nil {
		return st, found, fmt.Errorf("recover %s: %w", quote.Path(dest), err)
	}
	h, err := LoadHistory(JournalDir(dest))
	if err != nil {
		return st, found, err
	}
	for _, bad := range h.Unreadable {
		st.Problems = append(st.Problems, fmt.Sprintf("skipped a damaged journal: %v", bad.Err))
	}
	for _, s := range h.interrupted() {
		if err := ctx.Err(); err != nil {
			return st, found, err
		}
		st.Journals++
		rc := &recoverer{ctx: ctx, dest: dest, fsys: fsys, dry: dry, h: h, run: s, st: &st, backups: map[string]journal.Entry{}}
		entries, err := rc.run1()
		found[s.Header.RunID] = entries
		if err != nil {
			return st, found, err
		}
	}
	return st, found, nil
}

// recoverer deals with one interrupted journal.
type recoverer struct {
	ctx  context.Context
	dest string
	fsys fsx.FS
	dry  bool
	h    *History
	run  journal.Summary
	st   *Stats

	w       *journal.Writer
	exec    *transfer.Executor
	found   []journal.Entry
	backups map[string]journal.Entry // Copy Intents by source: a moved source's is its backup copy
}

// opKey pairs an Intent with its outcome. The seq alone is unique per
// operation in journals written since each file got its own; Dst keeps
// apart the photo and sidecar that older journals numbered alike, and an
// undo's own moves from the reversal records it writes with the original
// run's numbers.
type opKey struct {
	seq    uint64
	action journal.Action
	dst    string
}

func (rc *recoverer) run1() ([]journal.Entry, error) {
	pending, err := rc.pendingIntents()
	if err != nil {
		rc.problem("could not read journal %s: %v", quote.Path(rc.run.Path), err)
		return nil, nil
	}
	if err := rc.open(); err != nil {
		return nil, err
	}
	if !rc.isUndo() {
		// A move with --backup completes only after its backup copy is
		// recorded (adopted while the source is still there to compare).
		slices.SortStableFunc(pending, func(a, b journal.Entry) int {
			return cmp.Compare(isMove(a), isMove(b))
		})
	}
	for _, in := range pending {
		rc.recoverOne(in)
	}
	return rc.found, rc.close()
}

func isMove(e journal.Entry) int {
	if e.Action == journal.Move {
		return 1
	}
	return 0
}

// pendingIntents lists, in journal order, the transfer Intents that have no
// Done or Failed record in the journal or its earlier recoveries.
func (rc *recoverer) pendingIntents() ([]journal.Entry, error) {
	var order []opKey
	intents := map[opKey]journal.Entry{}
	finished := map[opKey]bool{}
	note := func(e journal.Entry) error {
		k := opKey{e.Seq, e.Action, e.Dst}
		switch {
		case e.State == journal.Intent && recoverable(e.Action):
			if e.Action == journal.Copy {
				// In a move run, a copy of a moved source is its
				// --backup copy: the move completes only with it.
				rc.backups[e.Src] = e
			}
			if _, seen := intents[k]; !seen {
				order = append(order, k)
			}
			intents[k] = e
		case e.State != journal.Intent:
			finished[k] = true
		}
		return nil
	}
	paths := []string{rc.run.Path}
	for _, r := range rc.h.Recoveries[rc.run.Header.RunID] {
		paths = append(paths, r.Path)
	}
	for _, p := range paths {
		if _, err := journal.Read(p, note); err != nil {
			return nil, err
		}
	}
	var out []journal.Entry
	for _, k := range order {
		if !finished[k] {
			out = append(out, intents[k])
		}
	}
	return out, nil
}

// recoverable: an Intent of these without an outcome may have happened.
func recoverable(a journal.Action) bool {
	return IsTransfer(a) || a == journal.RemoveDuplicate || a == journal.Mkdir
}

func (rc *recoverer) isUndo() bool {
	args := rc.run.Header.Args
	return len(args) > 0 && args[0] == KindUndo
}

func (rc *recoverer) open() error {
	exec, w, err := JournaledExecutor(rc.fsys, rc.dry, rc.dest, KindRecover, rc.run.Header.RunID)
	if err != nil {
		return fmt.Errorf("recover run %s: %w", rc.run.Header.RunID, err)
	}
	rc.exec, rc.w = exec, w
	return nil
}

func (rc *recoverer) close() error {
	err := rc.exec.Flush()
	if rc.w != nil {
		err = errors.Join(err, rc.w.Close())
	}
	if err != nil {
		return fmt.Errorf("recover run %s: %w", rc.run.Header.RunID, err)
	}
	return nil
}

func (rc *recoverer) problem(format string, args ...any) {
	rc.st.Problems = append(rc.st.Problems, fmt.Sprintf(format, args...))
}

// recoverOne handles one operation that was in flight when the run died.
func (rc *recoverer) recoverOne(in journal.Entry) {
	if in.Tmp != "" {
		removed, err := rc.exec.RemoveTemp(in.Tmp)
		if err != nil {
			rc.problem("%v", err)
		} else if removed {
			rc.st.TempsRemoved++
		}
	}
	// In an undo journal only the executor's own moves (which name a temp)
	// are transfers; its other Intents announce removals, which a new undo
	// simply repeats.
	if rc.isUndo() && (in.Action != journal.Move || in.Tmp == "") {
		return
	}
	switch in.Action {
	case journal.Copy, journal.Reflink:
		rc.adoptIf(in, rc.copyLanded(in))
	case journal.Move:
		rc.recoverMove(in)
	case journal.Hardlink:
		rc.adoptIf(in, rc.linkLanded(in))
	case journal.Symlink:
		rc.adoptIf(in, rc.symlinkLanded(in))
	case journal.RemoveDuplicate:
		rc.adoptIf(in, rc.duplicateRemoved(in))
	case journal.Mkdir:
		rc.adoptIf(in, rc.dirMade(in))
	}
}

// dirMade: the run announced it would create a missing folder; if the
// folder is there now, the run made it, and recording that lets undo remove
// it once empty. (A folder that existed before was never announced.)
func (rc *recoverer) dirMade(in journal.Entry) os.FileInfo {
	fi, err := rc.fsys.Lstat(in.Dst)
	if err != nil || !fi.IsDir() {
		return nil
	}
	return fi
}

// landedFile returns the file at in.Dst if it has the size and mtime the
// operation was recorded with, else nil.
func (rc *recoverer) landedFile(in journal.Entry) os.FileInfo {
	fi, err := rc.fsys.Lstat(in.Dst)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != in.Size ||
		(in.ModTime != 0 && fi.ModTime().UnixNano() != in.ModTime) {
		return nil
	}
	return fi
}

// copyLanded: the rename into place happened if the destination now holds
// exactly the source's bytes with the recorded mtime.
func (rc *recoverer) copyLanded(in journal.Entry) os.FileInfo {
	fi := rc.landedFile(in)
	if fi == nil {
		return nil
	}
	if same, err := digest.Equal(rc.fsys, in.Src, in.Dst); err != nil || !same {
		return nil
	}
	return fi
}

func (rc *recoverer) linkLanded(in journal.Entry) os.FileInfo {
	dst, err1 := rc.fsys.Lstat(in.Dst)
	src, err2 := rc.fsys.Lstat(in.Src)
	if err1 != nil || err2 != nil || !os.SameFile(dst, src) {
		return nil
	}
	return dst
}

func (rc *recoverer) symlinkLanded(in journal.Entry) os.FileInfo {
	dst, err := rc.fsys.Lstat(in.Dst)
	if err != nil || dst.Mode()&fs.ModeSymlink == 0 {
		return nil
	}
	target, err := os.Readlink(in.Dst)
	abs, absErr := filepath.Abs(in.Src)
	if err != nil || absErr != nil || target != abs {
		return nil
	}
	return dst
}

// duplicateRemoved: a killed run announced the removal of a duplicate; if
// the duplicate is gone and its kept copy is still there, the removal
// happened and is recorded as Done, so an undo restores the duplicate. If
// the duplicate is still there, nothing happened and nothing is owed.
func (rc *recoverer) duplicateRemoved(in journal.Entry) os.FileInfo {
	if _, err := rc.fsys.Lstat(in.Src); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	kept, err := rc.fsys.Lstat(in.Dst)
	if err != nil || !kept.Mode().IsRegular() || kept.Size() != in.Size {
		return nil
	}
	return kept
}

// adoptIf records a landed operation as Done, with the identity of the file
// that landed, so an undo can prove it is shoebox's.
func (rc *recoverer) adoptIf(in journal.Entry, landed os.FileInfo) {
	if landed == nil {
		return
	}
	done := in
	done.State = journal.Done
	done.Dev, done.Ino = fsx.DevIno(landed)
	if err := rc.record(done); err != nil {
		rc.problem("%v", err)
		return
	}
	if in.Action == journal.Mkdir {
		rc.st.DirsAdopted++
		return
	}
	rc.st.Adopted++
}

func (rc *recoverer) record(e journal.Entry) error {
	rc.found = append(rc.found, e)
	if rc.w == nil {
		return nil
	}
	return rc.w.Append(e)
}

// recoverMove: with the source gone and the file at its destination, the
// move happened (a rename, or a cross-device move whose removal finished);
// with both present and identical, the verified copy landed and only the
// source's removal is missing.
func (rc *recoverer) recoverMove(in journal.Entry) {
	landed := rc.landedFile(in)
	if landed == nil {
		return
	}
	_, err := rc.fsys.Lstat(in.Src)
	if errors.Is(err, fs.ErrNotExist) {
		rc.adoptIf(in, landed)
		return
	}
	if err != nil {
		rc.problem("check %s: %v", quote.Path(in.Src), err)
		return
	}
	var backup *journal.Entry
	if b, ok := rc.backups[in.Src]; ok {
		backup = &b
	}
	res := rc.exec.CompleteMoveWithBackup(rc.ctx, in, rc.dest, backup)
	if res.Err != nil {
		rc.problem("could not finish moving %s to %s, both kept: %v", quote.Path(in.Src), quote.Path(in.Dst), res.Err)
		return
	}
	done := res.Entry
	done.State = journal.Done
	rc.found = append(rc.found, done) // CompleteMove journaled it already
	rc.st.MovesCompleted++
}
