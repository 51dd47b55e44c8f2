package transfer

import (
	"context"
	"errors"
	"sync"
)

// Staged is a copy (or reflink) whose temp file is written beside its
// destination but neither durable nor in place yet. Small files pay most
// of their time in the fsync of each temp, one filesystem journal commit
// per file; a batch of staged temps is made durable by one Sync, whose
// fsyncs run at once and share commits, and only then is each renamed
// into place. The rule of the single-file protocol holds for every file:
// nothing is renamed into place before its own fsync succeeded (Publish
// refuses otherwise), and a kill at any point leaves only temps that the
// journal names (each op's Intent, written before its temp was created),
// which recovery removes.
type Staged struct {
	r        *run
	err      error // why the temp could not be made durable; it is then already removed
	finished bool
}

// Stage does everything Do does, except that for a real (not dry) copy or
// reflink it stops once the temp is written, returning it to be finished
// by Sync and Publish. Every other op (another mode, a dry run, a failure)
// is finished at once: Stage then returns a nil *Staged and the result.
func (e *Executor) Stage(ctx context.Context, op Op) (*Staged, Result) {
	r := &run{e: e, ctx: ctx, op: op, res: Result{Op: op}, seq: e.journalSeq()}
	if err := r.do(); err != nil {
		r.fail(err)
		return nil, r.res
	}
	if r.tmpFile == nil {
		return nil, r.res
	}
	return &Staged{r: r}, Result{}
}

// Size is how many bytes the staged temp holds.
func (s *Staged) Size() int64 { return s.r.op.Size }

// Sync makes the temps of staged durable, with their fsyncs issued at once
// so that the filesystem can commit many in one journal transaction. A
// temp whose fsync failed is removed; its Publish reports the failure.
func (e *Executor) Sync(staged []*Staged) {
	if len(staged) == 1 {
		staged[0].sync()
		return
	}
	var wg sync.WaitGroup
	for _, s := range staged {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.sync()
		}()
	}
	wg.Wait()
}

func (s *Staged) sync() {
	if s.finished || s.err != nil || s.r.durable {
		return
	}
	s.err = s.r.syncTemp()
}

// Publish finishes a staged op: its temp, made durable by Sync, is
// verified if asked and renamed into place, and the op is journaled done.
// A temp that Sync did not make durable is never renamed: it is removed
// and the op fails. Publish reports the op's result; a second call
// reports the same.
func (s *Staged) Publish() Result {
	if s.finished {
		return s.r.res
	}
	s.finished = true
	err := s.err
	if err == nil {
		err = s.r.finishCopy()
	} else {
		s.r.removeTemp()
	}
	if err != nil {
		s.r.fail(err)
	}
	return s.r.res
}

// Discard finishes a staged op without landing it: its temp is removed and
// the op fails with cause (a photo whose sidecar failed in the same batch
// stays with its sidecar).
func (s *Staged) Discard(cause error) Result {
	if s.finished {
		return s.r.res
	}
	s.finished = true
	s.r.removeTemp()
	if cause == nil {
		cause = errors.New("discarded")
	}
	s.r.fail(cause)
	return s.r.res
}
