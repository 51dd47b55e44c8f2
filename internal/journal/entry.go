package journal

import "fmt"

// Action is the kind of file operation an Entry records.
type Action uint8

const (
	Copy Action = iota + 1
	Move
	Hardlink
	Symlink
	Reflink
	// RemoveSource is the second step of a move across devices: the source
	// is removed only after its copy is Done.
	RemoveSource
	Mkdir
	// RemoveDuplicate removes a source that is byte-identical to a file
	// kept in the library (Src the removed duplicate, Dst the kept file).
	// Appended last: the numbers above are in journals already written.
	RemoveDuplicate
)

var actionNames = [...]string{
	Copy: "copy", Move: "move", Hardlink: "hardlink", Symlink: "symlink",
	Reflink: "reflink", RemoveSource: "remove-source", Mkdir: "mkdir",
	RemoveDuplicate: "remove-duplicate",
}

func (a Action) valid() bool { return a >= Copy && a <= RemoveDuplicate }

func (a Action) String() string {
	if a.valid() {
		return actionNames[a]
	}
	return fmt.Sprintf("action(%d)", uint8(a))
}

// State is where an operation stands.
type State uint8

const (
	Intent State = iota + 1 // about to happen
	Done
	Failed
	Undone
)

var stateNames = [...]string{Intent: "intent", Done: "done", Failed: "failed", Undone: "undone"}

func (s State) valid() bool { return s >= Intent && s <= Undone }

func (s State) String() string {
	if s.valid() {
		return stateNames[s]
	}
	return fmt.Sprintf("state(%d)", uint8(s))
}

// Entry is one record of one operation. An operation is journaled as an
// Intent before it starts and as Done or Failed after, both with its Seq.
// Every file and folder a run touches is its own operation with its own
// Seq (Writer.NextSeq): recovery pairs an Intent with its outcome by it.
// An undo's records of what it reversed carry the reversed run's Seq.
type Entry struct {
	Seq           uint64 // operation number within the run, one per file or folder
	State         State
	Action        Action
	Src, Dst, Tmp string
	Size          int64
	ModTime       int64  // unix nanoseconds of the created file
	Dev, Ino      uint64 // identity of the created file (Done)
	Err           string // for Failed
}
