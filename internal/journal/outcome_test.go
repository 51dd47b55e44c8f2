package journal

import (
	"errors"
	"os"
	"testing"
)

// A run's outcome is read back with its journal, and its file counts are
// per file: a library copy, its --backup copy outside the library, its
// folder and a move's removal of its source are not four files.
func TestOutcomeAndFileCounts(t *testing.T) {
	dir := t.TempDir()
	h := Header{RunID: "r1", Dest: "/lib", Args: []string{"sort", "card", "/lib"}}
	w, err := Create(dir, h)
	if err != nil {
		t.Fatal(err)
	}
	entries := []Entry{
		{Seq: 1, State: Intent, Action: Mkdir, Dst: "/lib/2019"},
		{Seq: 1, State: Done, Action: Mkdir, Dst: "/lib/2019"},
		{Seq: 2, State: Intent, Action: Move, Src: "/card/a.jpg", Dst: "/lib/2019/a.jpg", Tmp: "/lib/2019/.t"},
		{Seq: 3, State: Intent, Action: Copy, Src: "/card/a.jpg", Dst: "/bak/2019/a.jpg", Tmp: "/bak/2019/.t"},
		{Seq: 3, State: Done, Action: Copy, Src: "/card/a.jpg", Dst: "/bak/2019/a.jpg"},
		{Seq: 2, State: Done, Action: RemoveSource, Src: "/card/a.jpg", Dst: "/lib/2019/a.jpg"},
		{Seq: 2, State: Done, Action: Move, Src: "/card/a.jpg", Dst: "/lib/2019/a.jpg"},
		{Seq: 4, State: Failed, Action: Move, Src: "/card/b.jpg", Dst: "/lib/2019/b.jpg", Err: "no space"},
		{Seq: 5, State: Failed, Action: Copy, Src: "/card/b.jpg", Dst: "/bak/2019/b.jpg", Err: "withdrawn"},
		{Seq: 6, State: Done, Action: RemoveDuplicate, Src: "/card/c.jpg", Dst: "/lib/2019/a.jpg"},
	}
	for _, e := range entries {
		if err := w.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	out := Outcome{End: EndInterrupted, Planned: 3, Transferred: 1, Failed: 1, NotAttempted: 1, DuplicatesRemoved: 1, BackupCopies: 1}
	if err := w.CloseWith(out); err != nil {
		t.Fatal(err)
	}
	sum, err := Read(w.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Closed || sum.Outcome != out || !sum.Outcome.Resumable() {
		t.Errorf("closed %v, outcome %+v, want %+v", sum.Closed, sum.Outcome, out)
	}
	want := Files{Transferred: 1, Failed: 1, BackupCopies: 1, BackupFailed: 1, DuplicatesRemoved: 1}
	if sum.Files != want {
		t.Errorf("files %+v, want %+v", sum.Files, want)
	}
	if closed, err := Closed(w.Path()); !closed || err != nil {
		t.Errorf("Closed = %v, %v: a journal with an outcome ends with the closed marker", closed, err)
	}
}

// An entry after the outcome, or a second outcome, is corruption: the
// outcome is the run's last word.
func TestOutcomeIsLast(t *testing.T) {
	for name, tail := range map[string][]byte{
		"entry":   appendFrame(nil, appendEntry(nil, Entry{Seq: 1, State: Done, Action: Copy})),
		"outcome": appendFrame(nil, encodeOutcome(Outcome{End: EndComplete})),
	} {
		t.Run(name, func(t *testing.T) {
			data := appendFrame(append([]byte(magic), 0, 2), encodeHeader(Header{RunID: "r"}))
			data = appendFrame(data, encodeOutcome(Outcome{End: EndComplete}))
			data = append(data, tail...)
			path := t.TempDir() + "/r.journal"
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := Read(path, nil); !errors.Is(err, ErrCorrupt) {
				t.Errorf("err = %v, want ErrCorrupt", err)
			}
		})
	}
}

// A version-1 journal holding an outcome record is not one this or any
// shoebox wrote.
func TestOutcomeNotInVersion1(t *testing.T) {
	data := appendFrame(append([]byte(magic), 0, 1), encodeHeader(Header{RunID: "r"}))
	data = appendFrame(data, encodeOutcome(Outcome{End: EndComplete}))
	path := t.TempDir() + "/r.journal"
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(path, nil); !errors.Is(err, ErrCorrupt) {
		t.Errorf("err = %v, want ErrCorrupt", err)
	}
}
