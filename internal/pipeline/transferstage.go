package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/shoebox-photos/shoebox/internal/archive"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/shift"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// opRecord is one resolved transfer, stored in destination-directory order.
type opRecord struct {
	planned
	Dst       string
	Renamed   bool
	Companion bool // a sidecar or pair half: it shares its photo's Seq and is stored just before it
}

func putOp(e *enc, o opRecord) {
	putPlanned(e, o.planned)
	e.s(o.Dst)
	e.bool(o.Renamed)
	e.bool(o.Companion)
}

func getOp(d *dec) opRecord {
	o := opRecord{planned: getPlanned(d)}
	o.Dst = d.s()
	o.Renamed = d.bool()
	o.Companion = d.bool()
	return o
}

// flushEvery is how many finished operations may share one round of
// directory fsyncs and one journal sync: the batching that makes small-file
// copies cheaper than a plain write-fsync-rename loop, at the price of
// redoing at most this many files after a crash (they are found identical
// and skipped, or their temp files removed, on the re-run).
const flushEvery = 256

// Transfer performs the planned operations with a pool of workers. In a dry
// run the same executor predicts instead of acting.
func (r *Run) Transfer(ctx context.Context) error {
	start := time.Now()
	r.sum.Planned = int64(r.nextOp)
	r.begin("transfer", r.transferring(), r.sum.Planned, r.plannedBytes)
	if err := r.openExecutor(); err != nil {
		r.sum.NotAttempted = r.sum.Planned
		return err
	}
	outer := ctx
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	r.stop = stop
	jobs := make(chan []opRecord, queueLen)
	results := make(chan opResult, queueLen)
	var wg sync.WaitGroup
	for i := 0; i < r.cfg.Workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.transferWorker(ctx, jobs, results)
		}()
	}
	go func() { wg.Wait(); close(results) }()
	readErr := make(chan error, 1)
	go func() {
		defer close(jobs)
		readErr <- r.readGroups(jobs)
	}()
	n, ferr := r.collect(results)
	rerr := <-readErr
	r.accountUnread(n)
	if gone := r.exec.DriveFault(ferr); gone != nil {
		r.stopFor(gone) // making the files durable met the failing drive: the same one message
	}
	r.checkDrives()
	if r.cfg.DeleteDuplicates && firstErr(r.stopped, rerr, ferr, outer.Err()) == nil {
		r.begin("transfer", "removing the sources that duplicate a file now in the library", 0, 0)
		ferr = r.removeDuplicates(outer) // after the final Flush: every kept copy is durable
	}
	cause := firstErr(r.stopped, outer.Err(), rerr, ferr)
	err := firstErr(cause, r.closeExecutor(cause))
	// Count is what was attempted, Total what was planned: a stopped run
	// says 1,020 of 2,040, not the 2,040 handed back to it.
	r.emit(Event{Type: "stage", Stage: "transfer", Count: r.sum.Transferred + r.sum.Failed, Total: r.sum.Planned,
		Elapsed: time.Since(start).Seconds()})
	if err == nil {
		err = r.st.DeletePrefix(keyOp)
	}
	return err
}

// checkDrives, once the files in flight are done, notes a library or
// backup drive that went away (also after the last file: what follows
// writes in the library by name) and counts the files safe before it.
func (r *Run) checkDrives() {
	if gone := r.exec.Gone(); gone != nil {
		r.stopFor(gone)
	}
	var g *driveGoneStop
	if errors.As(r.stopped, &g) {
		g.safe, g.backup = r.sum.Transferred, r.backup != ""
	}
}

// transferring names the transfer stage's work for the progress line.
func (r *Run) transferring() string {
	if r.cfg.DryRun {
		return "checking each planned file against the library (dry run)"
	}
	verb := map[transfer.Mode]string{transfer.Copy: "copying", transfer.Move: "moving", transfer.Hardlink: "linking (hard links)",
		transfer.Symlink: "linking (symbolic links)", transfer.Reflink: "cloning (reflinks)"}[r.cfg.Mode]
	if verb == "" {
		verb = r.cfg.Mode.String()
	}
	return verb + " files into the library"
}

// readGroups sends the planned operations to the workers, a photo and
// its companions (consecutive, one Seq) as one job. Every op goes to a
// worker even once the run is stopping: the worker hands it back as not
// attempted, so each planned file is accounted for exactly once (a stop
// must not lose the count of the files it left undone).
//
// Groups read from a tgz are held back and sent last, in the order of
// their members in the archive's stream (tgzGroups).
func (r *Run) readGroups(jobs chan<- []opRecord) error {
	var group []opRecord
	var held tgzGroups
	send := func() {
		if !held.hold(r.archives, group) {
			jobs <- group
		}
		group = nil
	}
	err := r.st.Scan(keyOp, func(k, v []byte) error {
		d := newDec(v)
		o := getOp(d)
		if d.Err() != nil {
			return d.Err()
		}
		if len(group) > 0 && group[0].Seq != o.Seq {
			send()
		}
		group = append(group, o)
		return nil
	})
	if len(group) > 0 {
		send()
	}
	held.send(jobs)
	return err
}

// tgzGroups are the groups that read members of a tgz. A tgz cannot
// seek: a member read behind every stream the archive keeps open costs a
// pass over the archive from its start, so copying in plan order (by
// date) would cost about a pass per member. Sent in stream order, the
// copies (and their verification) cost about one pass in all. Holding
// them costs memory in proportion to the archive's index, which is held
// already.
type tgzGroups struct {
	groups  [][]opRecord
	offsets []int64
}

func (h *tgzGroups) hold(set *archive.Set, group []opRecord) bool {
	first, found := int64(-1), false
	for _, o := range group {
		m, _ := set.Lookup(o.Src)
		if m == nil {
			continue
		}
		if off, sequential := m.StreamOffset(); sequential && (!found || off < first) {
			first, found = off, true
		}
	}
	if found {
		h.groups = append(h.groups, group)
		h.offsets = append(h.offsets, first)
	}
	return found
}

func (h *tgzGroups) send(jobs chan<- []opRecord) {
	order := make([]int, len(h.groups))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return h.offsets[order[a]] < h.offsets[order[b]] })
	for _, i := range order {
		jobs <- h.groups[i]
	}
}

// Batches: each worker writes the temps of up to batchFiles files (or
// batchBytes of them) before making them durable together and renaming
// them into place (see transfer.Staged). While one batch's temps are being
// made durable, the worker writes the temps of the next: the fsyncs' wait
// overlaps the next files' writes instead of adding to them. A worker
// finishes everything it holds as soon as no further job is waiting, so a
// slow reader never holds files back.
const (
	batchFiles = 16
	batchBytes = 16 << 20
)

// transferWorker performs the groups it receives, batching their copies.
func (r *Run) transferWorker(ctx context.Context, jobs <-chan []opRecord, results chan<- opResult) {
	b := &batch{r: r, results: results}
	for {
		var group []opRecord
		var ok bool
		select {
		case group, ok = <-jobs:
		default:
			b.finish()
			group, ok = <-jobs
		}
		if !ok {
			break
		}
		b.stageGroup(ctx, group)
		if len(b.staged) >= batchFiles || b.bytes >= batchBytes {
			b.startSync()
		}
	}
	b.finish()
}

// batch is one worker's staged copies, in the order their groups came,
// and the batch before them whose temps are being made durable.
type batch struct {
	r       *Run
	results chan<- opResult
	staged  []stagedOp
	bytes   int64

	syncing []stagedOp    // the previous batch, handed to Sync
	synced  chan struct{} // closed when its Sync has returned
}

type stagedOp struct {
	o     opRecord
	s     *transfer.Staged
	group *groupState
}

// groupState is what a group's photo needs to know of its companions.
type groupState struct {
	failedCompanion string
	// leftForDrive: that companion was left on the card because the
	// library's or the backup's drive went away or failed; the photo is
	// left with it, not attempted, as every file after it is.
	leftForDrive bool
}

// stageGroup starts one group in order, companions first. A photo whose
// companion failed is not transferred (and reported failed): it stays with
// its sidecar, so the same command can move them together. A companion
// that fails later, when its batch is finished, takes its photo with it
// there (see publish).
func (b *batch) stageGroup(ctx context.Context, group []opRecord) {
	r := b.r
	g := &groupState{}
	if gone := r.exec.Gone(); gone != nil {
		r.stopFor(gone) // between files: none of this group is started
	}
	for _, o := range group {
		switch {
		case ctx.Err() != nil:
			b.results <- opResult{op: o, skipped: true}
		case !o.Companion && g.leftForDrive:
			b.results <- opResult{op: o, skipped: true}
		case !o.Companion && g.failedCompanion != "":
			b.results <- opResult{op: o, res: transfer.Result{Err: r.staysWithCompanion(o, g)}}
		default:
			// A file once started is finished (or discarded whole by the
			// executor): stopping, for Ctrl-C or a full disk, happens
			// between files.
			s, res := r.exec.Stage(context.WithoutCancel(ctx), r.transferOp(o))
			if s != nil {
				b.staged = append(b.staged, stagedOp{o: o, s: s, group: g})
				b.bytes += s.Size()
				continue
			}
			b.done(o, g, res)
		}
	}
}

// finish makes every temp the worker holds durable and publishes it.
func (b *batch) finish() {
	b.startSync()
	b.publish()
}

// startSync publishes the batch already syncing, then hands the staged
// temps to a Sync of their own and starts a new batch: a worker holds at
// most one batch being made durable while it writes the next.
func (b *batch) startSync() {
	b.publish()
	if len(b.staged) == 0 {
		return
	}
	all := make([]*transfer.Staged, len(b.staged))
	for i, so := range b.staged {
		all[i] = so.s
	}
	synced := make(chan struct{})
	go func() {
		defer close(synced)
		b.r.exec.Sync(all)
	}()
	b.syncing, b.synced = b.staged, synced
	b.staged, b.bytes = nil, 0
}

// publish waits for the syncing batch's temps to be durable, then renames
// each into place in order (or discards a photo whose companion just
// failed). Publish itself refuses a temp whose fsync did not succeed.
func (b *batch) publish() {
	if b.synced == nil {
		return
	}
	<-b.synced
	for _, so := range b.syncing {
		var res transfer.Result
		if !so.o.Companion && so.group.failedCompanion != "" {
			// The executor's error names the mode and both paths.
			res = so.s.Discard(fmt.Errorf("not done, so that it stays with %s, which failed", quote.Path(so.group.failedCompanion)))
		} else {
			res = so.s.Publish()
		}
		b.done(so.o, so.group, res)
	}
	b.syncing, b.synced = nil, nil
}

// done hands one finished op to the collector.
func (b *batch) done(o opRecord, g *groupState, res transfer.Result) {
	if res.Err != nil && !res.Landed && !o.Companion && g.leftForDrive {
		// Discarded to stay with its companion, which the drive's
		// failure left on the card: the run's one message covers both.
		b.results <- opResult{op: o, skipped: true}
		return
	}
	if res.Err != nil {
		// Decided here, not when the result is counted: by then
		// every worker would have failed a queue's worth more.
		gone := b.r.exec.DriveFault(res.Err)
		if gone == nil {
			gone = b.r.exec.Gone()
		}
		if gone == nil {
			b.r.stopFor(res.Err)
		} else {
			// The file failed because its drive went away or failed
			// (or as it did): it is untouched on the card, like the
			// files after it, and the run's one message says so for
			// all of them.
			b.r.stopFor(gone)
			if !res.Landed {
				if o.Companion && g.failedCompanion == "" {
					g.failedCompanion, g.leftForDrive = o.Src, true
				}
				b.results <- opResult{op: o, skipped: true}
				return
			}
		}
	}
	// A companion that landed, even if what came after failed (its
	// journal record on a full disk), is in the library: its photo goes
	// with it, not stays behind.
	if res.Err != nil && !res.Landed && o.Companion && g.failedCompanion == "" {
		g.failedCompanion = o.Src
	}
	b.results <- opResult{op: o, res: res}
}

func (r *Run) staysWithCompanion(o opRecord, g *groupState) error {
	return fmt.Errorf("%s %s: not done, so that it stays with %s, which failed", r.cfg.Mode, quote.Path(o.Src), quote.Path(g.failedCompanion))
}

type opResult struct {
	op      opRecord
	res     transfer.Result
	skipped bool // not attempted: the run was stopping
}

// ErrStopped is returned when the transfer stopped early because every
// further file would fail the same way.
var ErrStopped = errors.New("stopped")

// ErrDriveGone is returned when the transfer stopped because the drive
// of the library or of the backup folder went away during the run, or
// failed (I/O errors, or made read-only by the system).
var ErrDriveGone = errors.New("a drive went away or failed")

// driveGoneStop is the one message of a run whose library or backup drive
// went away or failed: how many files are safe, and that the rest were
// left alone. Its counts are filled in once the files in flight are
// finished.
type driveGoneStop struct {
	gone   *transfer.DriveGoneError
	safe   int64
	backup bool
}

func (e *driveGoneStop) Error() string {
	where := "are in the library"
	if e.backup {
		where = "are safe in both places"
	}
	then := "run the same command again when it is back"
	if e.gone.Cause != nil {
		// A drive that fails is still plugged in: what to do is check it.
		then = "check the drive (its cable, and a disk check: the system makes a drive read-only after an error on it), then run the same command again"
	}
	return fmt.Sprintf("stopped: the %s drive at %s %s after %d files; %d %s, the rest are untouched on the card; %s",
		e.gone.What, quote.Path(e.gone.Mount), e.gone.Happened(), e.safe, e.safe, where, then)
}

func (e *driveGoneStop) Is(target error) bool { return target == ErrStopped || target == ErrDriveGone }
func (e *driveGoneStop) Unwrap() error        { return e.gone }

// stopFor ends the transfer at the first error that no other file can
// escape — the destination is full, over quota or read-only — instead of
// failing every remaining file one by one. Files in flight finish or are
// discarded whole; the rest are counted as not attempted.
func (r *Run) stopFor(err error) {
	r.stopMu.Lock()
	defer r.stopMu.Unlock()
	if r.stopped != nil {
		return
	}
	if gone := (*transfer.DriveGoneError)(nil); errors.As(err, &gone) {
		r.stopped = &driveGoneStop{gone: gone}
		r.stop()
		return
	}
	if errors.Is(err, transfer.ErrSourceKept) {
		// A moved file's source could not be removed (a read-only folder
		// of the card): its copy is safe, and the next file may well be
		// in another folder. Its errno is the source's, not the library's.
		return
	}
	for _, errno := range []syscall.Errno{syscall.ENOSPC, syscall.EDQUOT, syscall.EROFS} {
		if errors.Is(err, errno) {
			r.stopped = fmt.Errorf("%w: %s: %v; free some space (or fix the destination) and run the same command again to finish",
				ErrStopped, fsx.Hint(err), errno)
			r.stop()
			return
		}
	}
}

func (r *Run) transferOp(o opRecord) transfer.Op {
	return transfer.Op{Mode: r.cfg.Mode, Src: o.Src, Dst: o.Dst, Size: o.Size, ModTime: o.ModTime,
		FollowLink: r.cfg.FollowLinks, Backup: r.backupPath(o.Dst)}
}

// collect counts results as they finish and syncs in batches.
func (r *Run) collect(results <-chan opResult) (int64, error) {
	var n, bytes int64
	var err error
	for res := range results {
		n, bytes = n+1, bytes+res.op.Size
		r.tick(Event{Type: "progress", Stage: "transfer", Count: n, Total: int64(r.nextOp), Bytes: bytes, TotalBytes: r.plannedBytes})
		if res.skipped {
			r.notAttempted(res.op)
			continue
		}
		r.account(res)
		if n%flushEvery == 0 && err == nil {
			err = r.flush()
		}
	}
	if ferr := r.flush(); err == nil {
		err = ferr
	}
	return n, err
}

func (r *Run) account(x opResult) {
	o, res := x.op, x.res
	ev := Event{Type: "op", Action: r.cfg.Mode.String(), Src: o.Src, Dst: o.Dst, Size: o.Size,
		DateSource: o.Source.String(), Reason: res.Fallback}
	r.warnReflinkFallback(res.Fallback)
	if o.Unknown && o.Source == meta.SourceModTime {
		ev.DateSource = meta.SourceNone.String() // its mtime was not used: it has no date
	}
	if !o.Unknown && !o.Taken.IsZero() {
		ev.Date, ev.DateTag = o.Taken.Format("2006-01-02T15:04:05"), o.Tag
		ev.Shift = shiftNote(o.Shift, o.ShiftRule)
	}
	switch {
	case res.Err != nil && !res.Landed:
		r.sum.Failed++
		ev.Outcome, ev.Reason = OutFailed, res.Err.Error()
		r.emit(ev)
		return
	case res.Err != nil && errors.As(res.Err, new(*transfer.DriveGoneError)):
		// Landed, its source kept as its drive went away: the run's
		// one message counts it among the files safe in both places.
	case res.Err != nil:
		// The file is at its destination, whole; what failed came after
		// (its journal record, removing a moved source): say so, but do
		// not call a file that landed "failed".
		r.emit(Event{Type: "warning", Stage: "transfer", Src: o.Src, Dst: o.Dst,
			Reason: fmt.Sprintf("%s landed at %s, but: %v", o.Src, quote.Path(o.Dst), res.Err)})
		if errors.Is(res.Err, transfer.ErrSourceKept) {
			// Copied, not moved: the op line says what happened to the
			// source, not what a move would have done.
			ev.Action, ev.Reason = transfer.Copy.String(), "copied; the source could not be removed and stays where it is"
		}
	}
	switch {
	case o.Renamed:
		r.sum.Renamed++
		ev.Outcome = pick(r.cfg.DryRun, OutPlannedAs, OutRenamed)
	default:
		ev.Outcome = pick(r.cfg.DryRun, OutPlanned, OutTransferred)
	}
	if res.Backup != "" {
		ev.Backup = res.Backup
		r.sum.BackupCopies++
	}
	r.noteLanded(o)
	r.rememberImport(plannedSource(o.planned), o.Dst, res.Sum, r.cfg.Mode == transfer.Symlink, false)
	r.sum.Transferred++
	r.sum.Bytes += o.Size
	r.sum.PerYear[o.Year]++
	r.sum.Sources[ev.DateSource]++
	if o.Unknown {
		r.sum.UnknownDate++
	}
	if o.Note != "" && !o.Companion {
		r.sum.ModTimeDistrusted++
		ev.DateNote = o.Note
	}
	if o.Source == meta.SourceModTime && !o.Unknown { // with --no-mtime such a file is undated, not dated by file time
		r.sum.ModTimeOnly++
	}
	r.emit(ev)
}

// notAttempted accounts for a planned file the run stopped before.
func (r *Run) notAttempted(o opRecord) {
	r.sum.NotAttempted++
	r.emit(Event{Type: "op", Outcome: OutNotAttempted, Action: r.cfg.Mode.String(), Src: o.Src, Dst: o.Dst, Size: o.Size})
}

// accountUnread counts as not attempted the planned files that never came
// back from a worker (the op store could not be read to its end), so the
// summary's equation planned = transferred + failed + not attempted holds
// on every stop.
func (r *Run) accountUnread(seen int64) {
	if missing := r.sum.Planned - seen; missing > 0 {
		r.sum.NotAttempted += missing
	}
}

func pick(dry bool, ifDry, ifReal Outcome) Outcome {
	if dry {
		return ifDry
	}
	return ifReal
}

// openExecutor starts the journal (real runs only) and the executor.
func (r *Run) openExecutor() error {
	opt := transfer.Options{FS: r.cfg.FS, DryRun: r.cfg.DryRun, Verify: r.cfg.Verify, Hash: !r.cfg.DryRun, Library: r.dest, Backup: r.backup}
	if !r.cfg.DryRun {
		if err := r.rootsPresent(); err != nil {
			return err
		}
		if err := os.MkdirAll(r.dest, 0o755); err != nil {
			return fmt.Errorf("create destination %s: %w", quote.Path(r.dest), err)
		}
		if err := r.openRoots(); err != nil {
			return err
		}
		opt.LibraryRoot, opt.BackupRoot = r.libRoot, r.bakRoot
		jw, err := journal.Create(filepath.Join(StateDir(r.dest), "journal"), journal.Header{
			Version: 1, RunID: r.runID, Started: time.Now(), Dest: r.dest, Args: r.cfg.Args,
		})
		if err != nil {
			return fmt.Errorf("start journal: %w", err)
		}
		r.jw = jw
		r.journalP = jw.Path()
		opt.Journal = jw
	}
	r.exec = transfer.New(opt)
	return nil
}

// openRoots opens the library and the backup folder once, for the whole
// transfer: the executor works through them (see fsx.Root), so a drive
// unmounted during the run is never replaced by its empty mount point.
func (r *Run) openRoots() error {
	if r.libRoot == nil {
		lib, err := fsx.OpenRoot(r.dest)
		if err != nil {
			return fmt.Errorf("open the library %s: %w", quote.Path(r.dest), fsx.Bare(err))
		}
		r.libRoot = lib
	}
	if r.backup == "" || r.bakRoot != nil {
		return nil
	}
	bak, err := fsx.OpenRoot(r.backup)
	if err != nil {
		return fmt.Errorf("open the backup folder %s: %w", quote.Path(r.backup), fsx.Bare(err))
	}
	r.bakRoot = bak
	return nil
}

// rootsPresent stops the run, before the transfer writes anything by
// name, when the library or the backup folder opened at the start is no
// longer at its path (its drive was pulled): 0 files are safe, the card
// is untouched.
func (r *Run) rootsPresent() error {
	for _, nr := range []struct {
		what string
		root *fsx.Root
	}{{"library", r.libRoot}, {"backup", r.bakRoot}} {
		if nr.root == nil {
			continue
		}
		var g *fsx.GoneError
		if errors.As(nr.root.Present(), &g) {
			return &driveGoneStop{gone: &transfer.DriveGoneError{What: nr.what, GoneError: g}, backup: r.backup != ""}
		}
	}
	return nil
}

// asDriveStop makes an error of the library's or the backup's drive met
// before the transfer (writing the library's identity or state folder,
// the backup's record) the run's one stop message naming the drive: EIO
// or EROFS on a path under either. Any other error is returned as is.
func (r *Run) asDriveStop(err error) error {
	for _, nr := range []struct {
		what string
		root *fsx.Root
	}{{"library", r.libRoot}, {"backup", r.bakRoot}} {
		if g := transfer.RootFault(err, nr.what, nr.root); g != nil {
			return &driveGoneStop{gone: g, backup: r.backup != ""}
		}
	}
	return err
}

// closeExecutor closes the journal with the run's outcome: how it ended
// (stop is what stopped it, nil for a run that went to its end) and the
// summary's counts, which shoebox log shows; then the roots.
func (r *Run) closeExecutor(stop error) error {
	var errs []error
	switch {
	case r.jw == nil:
	case r.exec != nil && r.exec.TempsKept() > 0:
		// Temps that a failing drive would not let go of are named by
		// the Intents left open: left unfinished, the journal is the
		// next run's to recover, and that removes them.
		errs = append(errs, r.jw.CloseUnfinished())
		r.jw = nil
	default:
		errs = append(errs, r.jw.CloseWith(r.outcome(stop)))
		r.jw = nil
	}
	// The roots go last: a drive unmounted lazily is let go once nothing
	// of the run holds it.
	for _, root := range []**fsx.Root{&r.libRoot, &r.bakRoot} {
		if *root != nil {
			errs = append(errs, (*root).Close())
			*root = nil
		}
	}
	return errors.Join(errs...)
}

// outcome is the run's account of how it ended, for its journal.
func (r *Run) outcome(stop error) journal.Outcome {
	out := journal.Outcome{End: journal.EndComplete, Planned: r.sum.Planned, Transferred: r.sum.Transferred,
		Failed: r.sum.Failed, NotAttempted: r.sum.NotAttempted, DuplicatesRemoved: r.sum.DuplicatesRemoved,
		BackupCopies: r.sum.BackupCopies}
	switch {
	case errors.Is(stop, context.Canceled):
		out.End = journal.EndInterrupted
	case stop != nil:
		out.End = journal.EndStopped
	}
	return out
}

// flush makes the files transferred so far durable, then records them in
// the import history: a history entry never claims a file that a crash
// could still take back.
func (r *Run) flush() error {
	if err := r.exec.Flush(); err != nil {
		r.dropImports()
		return err
	}
	fsx.CrashPoint(r.cfg.FS, crashBeforeImports)
	r.commitImports()
	fsx.CrashPoint(r.cfg.FS, crashAfterImports)
	return nil
}

// Crash points around the import history's commit (tests kill there).
const (
	crashBeforeImports = "before-import-history"
	crashAfterImports  = "after-import-history"
)

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// shiftNote says how --shift moved a file's date: "+1h30m (EOS=+1h30m)".
func shiftNote(by time.Duration, rule string) string {
	if rule == "" {
		return ""
	}
	return fmt.Sprintf("%s (--shift %s)", shift.Format(by), rule)
}

// backupPath is where --backup puts the second copy of the file going to
// dst: the same path below the backup folder as below the library.
func (r *Run) backupPath(dst string) string {
	if r.backup == "" {
		return ""
	}
	rel, err := filepath.Rel(r.dest, dst)
	if err != nil || !filepath.IsLocal(rel) {
		return r.backup // never happens (the planner puts every file in the library); the executor refuses it
	}
	return filepath.Join(r.backup, rel)
}
