package importlog

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// history opens a new history in the state folder of a real library
// folder.
func history(t *testing.T) (*Log, string) {
	t.Helper()
	lib := t.TempDir()
	state := filepath.Join(lib, ".shoebox")
	if err := os.Mkdir(state, 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := Open(state, func(msg string) { t.Error(msg) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, lib
}

// landing is source 1/7 (a card file) landed at path by a copy.
func landing(path, run string, at int64) Entry {
	return Entry{Dev: 1, Ino: 7, Size: 10, ModTime: 5, Src: "/card/DCIM/IMG_1.JPG",
		Path: path, LibSize: 10, LibModTime: 6, LibDev: 2, LibIno: uint64(100 + at), Run: run, At: at}
}

func add(t *testing.T, l *Log, es ...Entry) {
	t.Helper()
	r := l.Recorder()
	for _, e := range es {
		if err := r.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Commit(); err != nil {
		t.Fatal(err)
	}
}

// paths is what EachPath yields, as path@run.
func paths(t *testing.T, l *Log) []string {
	t.Helper()
	var got []string
	if err := l.EachPath(func(e Entry) error { got = append(got, e.Path+"@"+e.Run); return nil }); err != nil {
		t.Fatal(err)
	}
	return got
}

func knows(t *testing.T, l *Log, path string) bool {
	t.Helper()
	ok, err := l.Knows(path)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func forget(t *testing.T, l *Log, path string) {
	t.Helper()
	if _, err := l.Forget(slices.Values([]string{path})); err != nil {
		t.Fatal(err)
	}
}

// A source landed again elsewhere (its first copy damaged) leaves both
// landings known, each with its own entry, until undo forgets each.
func TestEveryLandingOfASourceIsKept(t *testing.T) {
	l, _ := history(t)
	add(t, l, landing("2019/IMG_1.JPG", "first", 1))
	add(t, l, landing("2019/IMG_1-1.JPG", "second", 2))
	if got, want := paths(t, l), []string{"2019/IMG_1-1.JPG@second", "2019/IMG_1.JPG@first"}; !slices.Equal(got, want) {
		t.Errorf("EachPath: %v, want %v", got, want)
	}
	if !knows(t, l, "2019/IMG_1.JPG") || !knows(t, l, "2019/IMG_1-1.JPG") {
		t.Error("a landing is not known")
	}
	forget(t, l, "2019/IMG_1-1.JPG") // undo of the second run
	if got := paths(t, l); !slices.Equal(got, []string{"2019/IMG_1.JPG@first"}) {
		t.Errorf("after undo of the second run: %v", got)
	}
	forget(t, l, "2019/IMG_1.JPG")
	if got := paths(t, l); len(got) != 0 || knows(t, l, "2019/IMG_1.JPG") {
		t.Errorf("after undo of both: %v", got)
	}
}

// A history written before path records kept their entry: a run that
// does not recognise a recorded source keeps its entry under its path
// (Keep) before it lands the source anew, so the first landing stays
// known.
func TestAnOlderHistoryKeepsTheLandingALaterOneReplaces(t *testing.T) {
	l, _ := history(t)
	first := landing("2019/IMG_1.JPG", "first", 1)
	add(t, l, first)
	w := l.st.Writer(0) // as an older shoebox wrote it: no entry
	if err := w.Put(pathKey(first.Path, first.Dev, first.Ino), nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if !knows(t, l, first.Path) || len(paths(t, l)) != 1 {
		t.Fatalf("as an older shoebox left it: %v", paths(t, l))
	}
	r := l.Recorder()
	if err := r.Keep(first); err != nil {
		t.Fatal(err)
	}
	if err := r.Add(landing("2019/IMG_1-1.JPG", "second", 2)); err != nil {
		t.Fatal(err)
	}
	if err := r.Commit(); err != nil {
		t.Fatal(err)
	}
	if !knows(t, l, "2019/IMG_1.JPG") || len(paths(t, l)) != 2 {
		t.Errorf("the first landing is forgotten: %v", paths(t, l))
	}
}

// A landed file a later landing took as its source (moved on by a sort
// of the library's own folder) is no longer expected where it was: told
// by its identity (a rename kept the card's inode) or by the later
// landing's source path.
func TestALandingMovedOnIsNotExpected(t *testing.T) {
	for _, byIdentity := range []bool{true, false} {
		l, lib := history(t)
		first := landing("2019/2019-07-04/IMG_1.JPG", "first", 1)
		again := landing("2019/07/IMG_1.JPG", "second", 2)
		if byIdentity {
			first.LibDev, first.LibIno = first.Dev, first.Ino
		} else {
			again.Src = filepath.Join(lib, "2019", "2019-07-04", "IMG_1.JPG")
		}
		add(t, l, first)
		add(t, l, again)
		if got := paths(t, l); !slices.Equal(got, []string{"2019/07/IMG_1.JPG@second"}) || knows(t, l, first.Path) {
			t.Errorf("by identity %v: EachPath %v", byIdentity, got)
		}
	}
}
