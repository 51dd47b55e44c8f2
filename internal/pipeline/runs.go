package pipeline

import (
	"bytes"
	"context"

	"github.com/shoebox-photos/shoebox/internal/store"
)

// scanRuns walks the keys under prefix in order, in runs of keys that share
// their first runLen(k) bytes — one group, one content, one folder at a
// time, which is how every stage keeps memory to one group. each sees every
// entry (first marks a run's first); end is called when a run is over, and
// once more after the last, with a writer that is flushed at the end.
func (r *Run) scanRuns(ctx context.Context, prefix []byte, runLen func(k []byte) int,
	each func(k, v []byte, first bool) error, end func(run []byte, w *store.Writer) error) error {
	w := r.st.Writer(writeBatch)
	var run []byte
	started := false
	err := r.st.Scan(prefix, func(k, v []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := runLen(k)
		if n < len(prefix) || n > len(k) {
			return errRecord
		}
		first := !started || !bytes.Equal(k[:n], run)
		if first && started {
			if err := end(run, w); err != nil {
				return err
			}
		}
		if first {
			run, started = append(run[:0], k[:n]...), true
		}
		return each(k, v, first)
	})
	if err == nil && started {
		err = end(run, w)
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return err
}

// withoutSeq is the run length of keys that end in an 8-byte sequence number.
func withoutSeq(k []byte) int { return len(k) - 8 }
