package journal

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
)

// End is how a run ended, as the run itself recorded it (format 2).
type End uint8

const (
	// EndComplete: the run went through every planned file (some may
	// have failed; Outcome.Failed counts them).
	EndComplete End = iota + 1
	// EndInterrupted: Ctrl-C or SIGTERM stopped it; the same command
	// resumes it.
	EndInterrupted
	// EndStopped: an error stopped it (a full destination, a journal
	// that could not be written); the same command resumes it.
	EndStopped
)

var endNames = [...]string{EndComplete: "complete", EndInterrupted: "interrupted", EndStopped: "stopped"}

func (e End) valid() bool { return e >= EndComplete && e <= EndStopped }

func (e End) String() string {
	if e.valid() {
		return endNames[e]
	}
	return fmt.Sprintf("end(%d)", uint8(e))
}

// Outcome is a sort run's own account of how it ended: its end and the
// file counts of the summary it printed, so that shoebox log says what
// the run said. A journal without one (format 1, or a run killed before
// its end) has none: Summary.Outcome.End is then zero.
type Outcome struct {
	End               End
	Planned           int64
	Transferred       int64
	Failed            int64
	NotAttempted      int64
	DuplicatesRemoved int64
	BackupCopies      int64
}

// counts lists the counts in their order on disk. A later format may
// append counts; a reader takes those it knows (see decodeOutcome).
func (o *Outcome) counts() []*int64 {
	return []*int64{&o.Planned, &o.Transferred, &o.Failed, &o.NotAttempted, &o.DuplicatesRemoved, &o.BackupCopies}
}

// Resumable reports whether the run stopped before its end, so that the
// same command run again finishes it.
func (o Outcome) Resumable() bool { return o.End == EndInterrupted || o.End == EndStopped }

func encodeOutcome(o Outcome) []byte {
	b := []byte{typeOutcome, byte(o.End)}
	cs := o.counts()
	b = binary.AppendUvarint(b, uint64(len(cs)))
	for _, c := range cs {
		b = binary.AppendUvarint(b, uint64(max(*c, 0)))
	}
	return b
}

func decodeOutcome(d *decoder) (Outcome, error) {
	var o Outcome
	o.End = End(d.Byte())
	n := d.Uvarint()
	if n > uint64(d.Len()) { // each count takes at least one byte
		d.Fail()
	}
	cs := o.counts()
	for i := uint64(0); i < n && d.Err() == nil; i++ {
		v := d.Uvarint()
		if v > 1<<62 {
			d.Fail()
		}
		if i < uint64(len(cs)) {
			*cs[i] = int64(v)
		}
	}
	if err := d.Finish(); err != nil {
		return Outcome{}, err
	}
	if !o.End.valid() {
		return Outcome{}, errors.New("malformed outcome: unknown " + o.End.String())
	}
	return o, nil
}

// Files counts the files (not the folders, nor the steps of one file) a
// journal's entries record: for a run killed before it could record its
// Outcome, and for undos, whose entries carry the reversed run's Action,
// Src and Dst. A transfer's Dst inside the journal's Dest is a library
// file; outside it, a --backup copy.
type Files struct {
	Transferred       int // library files Done
	Failed            int // library files Failed (an undo's: not reverted)
	BackupCopies      int // backup copies Done
	BackupFailed      int // backup copies Failed (an undo's: not reverted)
	DuplicatesRemoved int // duplicate sources removed (RemoveDuplicate Done)
	Reverted          int // files and duplicates an undo reverted (Undone)
}

// IsTransfer reports whether a is an operation that puts a file in place.
func IsTransfer(a Action) bool {
	switch a {
	case Copy, Move, Hardlink, Symlink, Reflink:
		return true
	}
	return false
}

// countFile adds e to the file counts of a journal whose run wrote into dest.
func (f *Files) countFile(dest string, e Entry) {
	file := IsTransfer(e.Action)
	if !file && e.Action != RemoveDuplicate {
		return
	}
	lib := inside(dest, e.Dst)
	switch {
	case e.State == Undone:
		f.Reverted++
	case e.State == Done && !file:
		f.DuplicatesRemoved++
	case e.State == Done && lib:
		f.Transferred++
	case e.State == Done:
		f.BackupCopies++
	case e.State == Failed && (lib || !file):
		f.Failed++
	case e.State == Failed:
		f.BackupFailed++
	}
}

// inside reports whether path lies in the folder dest.
func inside(dest, path string) bool {
	if dest == "" {
		return true
	}
	rel, err := filepath.Rel(dest, path)
	return err == nil && filepath.IsLocal(rel)
}
