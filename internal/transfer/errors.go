package transfer

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

var (
	// ErrChanged: the source no longer matches what was scanned, or changed
	// while it was being copied. Nothing lands at the destination.
	ErrChanged = errors.New("changed during copy")
	// ErrVerify: the written copy differs from the source.
	ErrVerify = errors.New("verification failed: the copy differs from the source")
	// ErrCrossDevice: a hard link was asked for across filesystems.
	ErrCrossDevice = errors.New("source and destination are on different filesystems")
	// ErrReservedName: a destination names, inside the library, something
	// shoebox keeps for itself (its state folder, a temp file). The planner
	// never plans one; the executor refuses it as a last line of defence.
	ErrReservedName = errors.New("the destination is a name shoebox keeps for its own files")
	// ErrLinkInLibrary: a folder on the way to the destination, inside the
	// library, is a symbolic link; shoebox does not write through it.
	ErrLinkInLibrary = errors.New("is a symbolic link inside the library; shoebox does not write through links (replace it with a real folder, or remove it)")
	// ErrSourceKept: a move's copy landed (and its backup, if any), but its
	// source could not be removed and is still there. What failed is on
	// the source's side (a read-only folder of the card), not the
	// library's: it says nothing of the files that follow.
	ErrSourceKept = errors.New("source kept")
	// errDstExists wraps fs.ErrExist: shoebox never overwrites a file.
	errDstExists = fmt.Errorf("destination already exists, not overwritten: %w", fs.ErrExist)
)

// Error is the error of a failed Op: it names the mode and both paths and
// wraps the cause, so errors.Is works for ErrChanged, fs.ErrExist, syscall
// errnos and so on.
type Error struct {
	Mode     Mode
	Src, Dst string
	Err      error
}

// Error reads as a sentence for the user: what, both paths, the cause and,
// where one helps, what to check ("the destination is full").
func (e *Error) Error() string {
	msg := fmt.Sprintf("%s %s to %s: %v", e.Mode, quote.Path(e.Src), quote.Path(e.Dst), e.Err)
	if h := fsx.Hint(e.Err); h != "" {
		msg += " (" + h + ")"
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }
