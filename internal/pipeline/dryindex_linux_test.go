package pipeline

import (
	"path/filepath"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// A dry run into a library reads the library's hash index as the real run
// does: new files that share their sizes with library files are compared
// by the hashes the index holds, not by reading those library files again
// (it used to walk the library and read every one of them), the library's
// state is left as it was, and the dry run says what the real run then
// does (issue 26).
func TestDryRunReadsTheLibraryIndexNotTheLibrary(t *testing.T) {
	root := t.TempDir()
	const n, size = 40, 1 << 20
	src, _ := cardOf(t, root, n, size)
	lib := filepath.Join(root, "lib")
	if sum, _ := sortTree(t, []string{src}, lib); sum.Transferred != n {
		t.Fatalf("first run: %+v", sum)
	}
	card := filepath.Join(root, "new")
	files := map[string][]byte{"DCIM/COPY.JPG": bigPhoto(12, size)} // in the library already
	for i := 50; i < 53; i++ {
		files["DCIM/IMG_"+itoa(i)+".JPG"] = bigPhoto(i, size) // the size of 30 library photos
	}
	tree(t, card, files)
	state := snapshotAll(t, StateDir(lib))

	before := fsxtest.ProcIO(t, "rchar")
	_, dry := sortTree(t, []string{card}, lib, func(c *Config) { c.DryRun = true })
	read := fsxtest.ProcIO(t, "rchar") - before
	if limit := int64(2*len(files)) * size; read > limit { // each new file read for its header and its hash
		t.Errorf("the dry run read %d bytes; the new files are %d bytes, and no library file needs reading", read, len(files)*size)
	}
	t.Logf("dry run read %d bytes for %d new files of %d bytes", read, len(files), size)
	if got := snapshotAll(t, StateDir(lib)); got != state {
		t.Errorf("the dry run changed the library's state folder:\nbefore\n%s\nafter\n%s", state, got)
	}

	_, real := sortTree(t, []string{card}, lib)
	predicted, done := outcomes(dry), outcomes(real)
	dryTo, realTo := landings(dry, OutPlanned, OutPlannedAs), landings(real, OutTransferred, OutRenamed)
	if len(realTo) != 3 {
		t.Errorf("the real run transferred %d files, want the 3 new ones: %v", len(realTo), done)
	}
	for p, out := range done {
		want := map[Outcome]Outcome{OutTransferred: OutPlanned, OutRenamed: OutPlannedAs}[out]
		if want == "" {
			want = out
		}
		if predicted[p] != want || dryTo[p] != realTo[p] {
			t.Errorf("%s: the dry run said %s %q, the run did %s %q", p, predicted[p], dryTo[p], out, realTo[p])
		}
	}
	if got := done[filepath.Join(card, "DCIM", "COPY.JPG")]; got != OutIdentical {
		t.Errorf("the copy of a library photo: %s, want %s", got, OutIdentical)
	}
}
