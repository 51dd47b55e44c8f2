package layout

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// TestStateFolderShortNameIsReserved checks the Reserved rule against the
// filesystem's own 8.3 aliases: whatever short name the system gives the
// state folder opens that folder, so a planned segment spelling it (from
// {make}, {model}, {folder}, a file name) would write into DEST\.shoebox
// (the run store there is removed with everything in it when the run
// ends). NTFS gives "SHOEBO~1"; Wine gives a hashed "_SHO~E2X", which
// Reserved did not know: a sort with -t '{make}/{model}/{name}{ext}' of a
// photo whose Make is "_SHO~E2X" and Model "run" moved it into
// DEST\.shoebox\run, and Close's RemoveAll of the run store deleted it.
func TestStateFolderShortNameIsReserved(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, StateDirName)
	if err := os.Mkdir(state, 0o755); err != nil {
		t.Fatal(err)
	}
	short := fsxtest.ShortName(t, state)
	if short == StateDirName {
		t.Skipf("this volume gives %q no 8.3 alias", StateDirName)
	}
	t.Logf("the system's short name for %q: %q", StateDirName, short)
	if fi, err := os.Stat(filepath.Join(dir, short)); err != nil || !fi.IsDir() {
		t.Fatalf("the short name %q does not open the state folder: %v", short, err)
	}
	if !Reserved(short) {
		t.Errorf("Reserved(%q) = false, but %q opens %s", short, short, state)
	}
	if got := SafeName(short); got == short {
		t.Errorf("SafeName(%q) = %q: a planned segment so named lands in the state folder", short, got)
	}
}
