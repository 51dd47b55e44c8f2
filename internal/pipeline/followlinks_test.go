package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/transfer"
	"github.com/shoebox-photos/shoebox/internal/undo"
)

// linkedCard is a card holding one photo and one symbolic link to a photo
// kept outside every source (a link to a file inside a source would be
// that file, sorted once under its real path).
func linkedCard(t *testing.T) (c *relCase, link, target string, content []byte) {
	t.Helper()
	c = newRelCase(t, map[string][]byte{"IMG_1.JPG": photo(2019, 7, 4, 10, "one")})
	content = photo(2019, 7, 4, 11, "linked")
	target = filepath.Join(filepath.Dir(c.src), "elsewhere", "IMG_9.JPG")
	tree(t, filepath.Dir(target), map[string][]byte{"IMG_9.JPG": content})
	link = filepath.Join(c.src, "IMG_2.JPG")
	fsxtest.Symlink(t, target, link) // or skip where links cannot be made
	c.cfg.FollowLinks = true
	return c, link, target, content
}

// TestFollowedSymlinkedFileIsSortedAsItsTarget: with --follow-links a link
// to a photo is sorted as that photo in every mode; a move copies the
// target's bytes and leaves the link and the target where they are.
func TestFollowedSymlinkedFileIsSortedAsItsTarget(t *testing.T) {
	for _, mode := range []transfer.Mode{transfer.Copy, transfer.Move, transfer.Hardlink, transfer.Symlink, transfer.Reflink} {
		t.Run(mode.String(), func(t *testing.T) {
			c, link, target, content := linkedCard(t)
			c.cfg.Mode = mode
			sum := c.mustSort()
			if sum.Failed != 0 || sum.Transferred != 2 {
				t.Fatalf("summary %+v, failures %v: want both files transferred", sum, c.rec.failed())
			}
			landed := filepath.Join(c.dst, day+"IMG_2.JPG")
			if b, err := os.ReadFile(landed); err != nil || string(b) != string(content) {
				t.Errorf("%s does not hold the link's target's bytes: %v", landed, err)
			}
			if b, err := os.ReadFile(target); err != nil || string(b) != string(content) {
				t.Errorf("the link's target was changed or removed: %v", err)
			}
			if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("the link itself was removed or replaced: %v", err)
			}
			ti, _ := os.Stat(target)
			li, err := os.Lstat(landed)
			switch {
			case err != nil:
				t.Fatal(err)
			case mode == transfer.Hardlink && !os.SameFile(ti, li):
				t.Errorf("hardlink mode: %s is not the target's inode", landed)
			case mode == transfer.Symlink && li.Mode()&os.ModeSymlink == 0:
				t.Errorf("symlink mode: %s is not a link", landed)
			case mode != transfer.Symlink && !li.Mode().IsRegular():
				t.Errorf("%s is not a regular file: %v", landed, li.Mode())
			}
			again := c.mustSort()
			if again.Transferred != 0 || again.Failed != 0 {
				t.Errorf("re-run %+v: want nothing more to do", again)
			}
		})
	}
}

// TestSwappedLinksAfterTheScanAreRefused attacks the source between the
// scan and the transfer: a followed link re-pointed at /dev/zero or at a
// folder, and (without --follow-links) a scanned file replaced by a link.
// Each fails with what it now is; nothing blocks, nothing lands.
func TestSwappedLinksAfterTheScanAreRefused(t *testing.T) {
	repoint := func(t *testing.T, link, to string) {
		t.Helper()
		if err := os.Remove(link); err != nil {
			t.Fatal(err)
		}
		fsxtest.Symlink(t, to, link) // or skip where links cannot be made
	}
	cases := []struct {
		name, want string
		follow     bool
		meddle     func(t *testing.T, c *relCase, link, target string)
	}{
		{"followed link re-pointed at /dev/zero", "character device", true, func(t *testing.T, c *relCase, link, _ string) {
			repoint(t, link, "/dev/zero")
		}},
		{"followed link re-pointed at a folder", "directory", true, func(t *testing.T, c *relCase, link, _ string) {
			repoint(t, link, c.src)
		}},
		{"scanned file replaced by a link", "symbolic link", false, func(t *testing.T, c *relCase, link, target string) {
			repoint(t, link, target)
		}},
	}
	for _, tc := range cases {
		for _, mode := range []transfer.Mode{transfer.Copy, transfer.Move, transfer.Hardlink, transfer.Symlink} {
			t.Run(tc.name+"/"+mode.String(), func(t *testing.T) {
				c, link, target, _ := linkedCard(t)
				c.cfg.Mode, c.cfg.FollowLinks = mode, tc.follow
				if !tc.follow { // the victim is a plain file at scan time
					os.Remove(link)
					tree(t, c.src, map[string][]byte{"IMG_2.JPG": photo(2019, 7, 4, 11, "plain")})
				}
				sum := c.stagedSort(func() { tc.meddle(t, c, link, target) })
				reason, failed := c.rec.failed()[link]
				if !failed || !strings.Contains(reason, tc.want) {
					t.Errorf("%s: failure %q, want one saying %q (summary %+v)", link, reason, tc.want, sum)
				}
				if _, err := os.Lstat(filepath.Join(c.dst, day+"IMG_2.JPG")); err == nil {
					t.Errorf("something landed for the swapped source")
				}
				if _, err := os.Stat(target); err != nil {
					t.Errorf("the link's original target is gone: %v", err)
				}
			})
		}
	}
}

// TestUndoOfAMovedLinkRemovesOnlyTheCopy: a move of a followed link was a
// copy (journaled as one), so undo removes the copy and leaves the link and
// its target; the plain photo goes back to the card.
func TestUndoOfAMovedLinkRemovesOnlyTheCopy(t *testing.T) {
	c, link, target, content := linkedCard(t)
	c.cfg.Mode = transfer.Move
	if sum := c.mustSort(); sum.Transferred != 2 {
		t.Fatalf("summary %+v", sum)
	}
	if _, err := undo.Last(context.Background(), c.dst, undo.Options{}); err != nil {
		t.Fatalf("undo: %v", err)
	}
	if got := snapshot(t, c.dst); len(got) != 0 {
		t.Errorf("library after undo = %v, want empty", keys(got))
	}
	if b, err := os.ReadFile(link); err != nil || string(b) != string(content) {
		t.Errorf("the link no longer leads to its photo: %v", err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	if _, err := os.Stat(target); err != nil {
		t.Errorf("the target is gone: %v", err)
	}
	if _, err := os.Stat(filepath.Join(c.src, "IMG_1.JPG")); err != nil {
		t.Errorf("the moved photo did not come back: %v", err)
	}
}
