package transfer

import (
	"fmt"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/journal"
)

// Mode says how a file reaches its destination.
type Mode uint8

const (
	Copy     Mode = iota // durable copy; the source is untouched (the default)
	Move                 // rename, or copy+verify+remove across devices
	Hardlink             // a second name for the same inode; same device only
	Symlink              // a symbolic link to the absolute source path
	Reflink              // a copy sharing extents (FICLONE), else a plain copy
)

var modeNames = [...]string{
	Copy:     "copy",
	Move:     "move",
	Hardlink: "hardlink",
	Symlink:  "symlink",
	Reflink:  "reflink",
}

// String returns the mode's lowercase name, as ParseMode accepts it.
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("mode(%d)", uint8(m))
}

// ParseMode reads a mode name (case-insensitive); "link" means hardlink.
func ParseMode(s string) (Mode, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	if name == "link" {
		return Hardlink, nil
	}
	for m, n := range modeNames {
		if n == name {
			return Mode(m), nil
		}
	}
	return Copy, fmt.Errorf("parse mode %q: want one of copy, move, hardlink, symlink, reflink", s)
}

func (m Mode) journalAction() journal.Action {
	switch m {
	case Move:
		return journal.Move
	case Hardlink:
		return journal.Hardlink
	case Symlink:
		return journal.Symlink
	case Reflink:
		return journal.Reflink
	default:
		return journal.Copy
	}
}
