package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/transfer"
	"golang.org/x/sys/unix"
)

// A move out of a source whose files cannot be removed (a card with its
// lock switch on: a read-only mount; or a folder the user may not write)
// is refused up front in one sentence, before anything is copied; a copy
// from it works. As root the source is a read-only bind mount; as anyone
// else, a folder without write permission.
func TestMoveFromASourceThatCannotLoseFilesIsRefusedUpFront(t *testing.T) {
	root := t.TempDir()
	card, src, lib := filepath.Join(root, "card"), filepath.Join(root, "locked"), filepath.Join(root, "lib")
	tree(t, card, map[string][]byte{"DCIM/a.jpg": photo(2019, 7, 4, 10, "a")})
	if os.Geteuid() == 0 {
		bindMount(t, card, src)
		if err := unix.Mount("", src, "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY, ""); err != nil {
			t.Skipf("cannot remount the bind mount read-only: %v", err)
		}
	} else {
		src = card
		for _, d := range []string{card, filepath.Join(card, "DCIM")} {
			if err := os.Chmod(d, 0o555); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(d, 0o755) })
		}
	}
	before := snapshot(t, card)
	for _, s := range []string{src, filepath.Join(src, "DCIM", "a.jpg")} {
		run, err := Open(Config{Sources: []string{s}, Dest: lib, Mode: transfer.Move, Dedup: true})
		if err == nil {
			run.Close()
		}
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "cannot remove files from the source") ||
			!strings.Contains(err.Error(), "use --mode copy") {
			t.Errorf("move from %s: err = %v; want it refused up front", s, err)
		}
		if _, err := os.Stat(lib); !os.IsNotExist(err) {
			t.Errorf("the refused move made the library (%v)", err)
		}
	}
	assertSame(t, snapshot(t, card), before)
	if sum, _ := sortTree(t, []string{src}, lib); sum.Transferred != 1 {
		t.Errorf("copy from the locked source: %+v", sum)
	}
}
