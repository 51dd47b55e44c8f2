package pipeline

import (
	"context"
	"fmt"

	"github.com/shoebox-photos/shoebox/internal/plan"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// With DeleteDuplicates, a move also removes each source that duplicates a
// kept file, as the last step of the transfer stage. The dedup stage
// records every duplicate (u/<seq> → kept path, in library, own path) and
// marks each source keeper under keyKept; the transfer stage writes where a
// marked keeper landed. A duplicate goes only if its kept copy is in the
// library: one that was there before the run, or a keeper that landed in
// this run. A keeper that failed, was skipped or never ran keeps its
// duplicates where they are.

// keyKept: k/<source path> → "" for a keeper of duplicates, then the path
// it landed at once its transfer succeeded.
var keyKept = []byte("k/")

func keptKey(src string) []byte { return append(append([]byte(nil), keyKept...), src...) }

// checkDeleteDuplicates refuses the option where it cannot apply: only a
// move takes files out of the sources, and only dedup finds duplicates.
func (r *Run) checkDeleteDuplicates() error {
	switch {
	case !r.cfg.DeleteDuplicates:
		return nil
	case r.cfg.Mode != transfer.Move:
		return fmt.Errorf("%w: --delete-duplicates only applies to --mode move (with --mode %s every source stays where it is)", ErrConfig, r.cfg.Mode)
	case !r.cfg.Dedup:
		return fmt.Errorf("%w: --delete-duplicates needs duplicate detection: drop --dedup off", ErrConfig)
	}
	return nil
}

// markKeeper notes a source that keeps the content of some duplicates, so
// the transfer stage records where it lands.
func (r *Run) markKeeper(keep plan.Copy, w opWriter) error {
	if !r.cfg.DeleteDuplicates || keep.InLibrary {
		return nil
	}
	return w.Put(keptKey(keep.Path), nil)
}

// noteLanded records where a marked keeper landed. Losing the note only
// leaves its duplicates in place, so a failure is a warning.
func (r *Run) noteLanded(o opRecord) {
	if !r.cfg.DeleteDuplicates {
		return
	}
	key := keptKey(o.Src)
	_, marked, err := r.st.Get(key)
	if err == nil && marked {
		w := r.st.Writer(1)
		if err = w.Put(key, []byte(o.Dst)); err == nil {
			err = w.Flush()
		}
	}
	if err != nil {
		r.emit(Event{Type: "warning", Stage: "transfer", Src: o.Src,
			Reason: fmt.Sprintf("could not note where %s landed (%v): its duplicates stay in place", quote.Path(o.Src), err)})
	}
}

// removeDuplicates removes every duplicate whose kept copy is in the
// library, through the executor, which proves each removal safe and
// journals it for undo. It runs after the transfer's final Flush, so a kept
// copy that landed in this run is durable before its duplicate goes. A
// refusal leaves that duplicate in place and is reported as a warning.
func (r *Run) removeDuplicates(ctx context.Context) error {
	err := r.st.Scan(keyDup, func(_, v []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if gone := r.exec.Gone(); gone != nil {
			return gone // one message, not one per duplicate left in place
		}
		d := newDec(v)
		kept, inLibrary, dup := d.s(), d.bool(), d.s()
		if err := d.Err(); err != nil {
			return err
		}
		landed, compareWith, ok, err := r.keptCopy(kept, inLibrary)
		if err != nil || !ok {
			return err
		}
		r.removeDuplicate(ctx, dup, landed, compareWith)
		return nil
	})
	if ferr := r.exec.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return fmt.Errorf("remove duplicates: %w", err)
	}
	return nil
}

// keptCopy says where a duplicate's content is kept in the library and
// which file to compare the duplicate with now: the same file, except in a
// dry run, where a keeper from the sources has not really moved.
func (r *Run) keptCopy(kept string, inLibrary bool) (landed, compareWith string, ok bool, err error) {
	if inLibrary {
		return kept, kept, true, nil
	}
	v, _, err := r.st.Get(keptKey(kept))
	if err != nil || len(v) == 0 {
		return "", "", false, err // the keeper did not land: its duplicates stay
	}
	landed = string(v)
	if r.cfg.DryRun {
		return landed, kept, true, nil
	}
	return landed, landed, true, nil
}

func (r *Run) removeDuplicate(ctx context.Context, dup, landed, compareWith string) {
	res := r.exec.RemoveDuplicate(ctx, dup, compareWith, r.dest)
	if res.Err != nil {
		r.emit(Event{Type: "warning", Stage: "transfer", Src: dup, SameAs: landed,
			Reason: res.Err.Error()})
		return
	}
	r.sum.DuplicatesRemoved++
	ev := Event{Type: "op", Outcome: OutDupRemoved, Action: "remove", Src: dup, SameAs: landed, Size: res.Op.Size,
		Reason: "removed: same content as " + landed}
	if r.cfg.DryRun {
		ev.Outcome, ev.Reason = OutDupPlanned, "would be removed: same content as "+landed
	}
	r.emit(ev)
}
