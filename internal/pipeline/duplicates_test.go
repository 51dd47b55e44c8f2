package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// dupTrees is one photo under three names in two sources (none in the
// library yet), another already in the library with a copy in a source,
// and a unique photo.
type dupTrees struct {
	root, card1, card2, lib string
	x, y, u                 []byte
}

func newDupTrees(t *testing.T) *dupTrees {
	t.Helper()
	root := t.TempDir()
	d := &dupTrees{root: root, card1: filepath.Join(root, "card1"), card2: filepath.Join(root, "card2"), lib: filepath.Join(root, "lib"),
		x: photo(2019, 7, 4, 10, "x"), y: photo(2018, 1, 2, 3, "y"), u: photo(2019, 7, 4, 11, "u")}
	tree(t, d.card1, map[string][]byte{"DCIM/IMG_0001.JPG": d.x, "backup/IMG_0001 copy.JPG": d.x, "DCIM/IMG_0002.JPG": d.u})
	tree(t, d.card2, map[string][]byte{"IMG_0001.JPG": d.x, "old/IMG_0100.JPG": d.y})
	tree(t, d.lib, map[string][]byte{"2018/2018-01-02/IMG_0100.JPG": d.y})
	return d
}

func (d *dupTrees) sources() []string { return []string{d.card1, d.card2} }

// sourcesLeft lists what is left in both sources, relative to root.
func (d *dupTrees) sourcesLeft(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, s := range d.sources() {
		for p := range snapshot(t, s) {
			out = append(out, filepath.Base(s)+"/"+p)
		}
	}
	sort.Strings(out)
	return out
}

func (d *dupTrees) wantLibrary() map[string]string {
	return map[string]string{
		"2019/2019-07-04/IMG_0001.JPG": string(d.x),
		"2019/2019-07-04/IMG_0002.JPG": string(d.u),
		"2018/2018-01-02/IMG_0100.JPG": string(d.y),
	}
}

func moveDeletingDuplicates(c *Config) { c.Mode = transfer.Move; c.DeleteDuplicates = true }

func TestMoveLeavesDuplicatesInPlaceByDefault(t *testing.T) {
	d := newDupTrees(t)
	sum, rec := sortTree(t, d.sources(), d.lib, func(c *Config) { c.Mode = transfer.Move })
	assertSame(t, snapshot(t, d.lib), d.wantLibrary())
	left := d.sourcesLeft(t)
	if len(left) != 3 || !slices.Contains(left, "card2/old/IMG_0100.JPG") || !slices.Contains(left, "card1/backup/IMG_0001 copy.JPG") {
		t.Errorf("sources hold %q, want the three duplicates: two copies of one photo, one of the library's", left)
	}
	if sum.DuplicatesRemoved != 0 || len(removals(rec, d.root)) != 0 {
		t.Errorf("removed %d duplicates without being asked", sum.DuplicatesRemoved)
	}
}

func TestDeleteDuplicatesRemovesThemOnceKept(t *testing.T) {
	d := newDupTrees(t)
	sum, rec := sortTree(t, d.sources(), d.lib, moveDeletingDuplicates)
	assertSame(t, snapshot(t, d.lib), d.wantLibrary())
	if left := d.sourcesLeft(t); len(left) != 0 {
		t.Errorf("sources still hold %q", left)
	}
	if sum.DuplicatesRemoved != 3 || sum.Duplicates != 2 || sum.Identical != 1 || sum.Failed != 0 {
		t.Errorf("summary %+v, want 3 removed (2 duplicates, 1 already in the library)", sum)
	}
	want := []string{
		"card1/DCIM/IMG_0001.JPG = lib/2019/2019-07-04/IMG_0001.JPG",
		"card1/backup/IMG_0001 copy.JPG = lib/2019/2019-07-04/IMG_0001.JPG",
		"card2/old/IMG_0100.JPG = lib/2018/2018-01-02/IMG_0100.JPG",
	}
	if got := removals(rec, d.root); !slices.Equal(got, want) && !slices.Equal(got, keeperIsCard1(want)) {
		t.Errorf("removals reported:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, ev := range rec.events {
		if ev.Outcome == OutDupRemoved && !strings.HasPrefix(ev.Reason, "removed: same content as "+d.lib) {
			t.Errorf("reason %q", ev.Reason)
		}
	}
	assertJournaledRemovals(t, d.lib, 3)
}

// keeperIsCard1 is want with card2's copy of x removed instead of card1's:
// which of two equal copies is kept is the planner's choice, not this test's.
func keeperIsCard1(want []string) []string {
	out := slices.Clone(want)
	out[0] = "card2/IMG_0001.JPG = lib/2019/2019-07-04/IMG_0001.JPG"
	sort.Strings(out)
	return out
}

// removals lists "src = kept" for every duplicate removed (or, in a dry
// run, to be removed), relative to root, sorted.
func removals(rec *recorder, root string) []string {
	var out []string
	for _, ev := range rec.events {
		if ev.Outcome == OutDupRemoved || ev.Outcome == OutDupPlanned {
			out = append(out, rel(root, ev.Src)+" = "+rel(root, ev.SameAs))
		}
	}
	sort.Strings(out)
	return out
}

// assertJournaledRemovals checks the run journal holds n Done removals,
// each naming a kept copy that exists in the library.
func assertJournaledRemovals(t *testing.T, lib string, n int) {
	t.Helper()
	sums, err := journal.List(filepath.Join(StateDir(lib), "journal"))
	if err != nil || len(sums) != 1 {
		t.Fatalf("journals: %v, %v", sums, err)
	}
	var done []journal.Entry
	if _, err := journal.Read(sums[0].Path, func(e journal.Entry) error {
		if e.Action == journal.RemoveDuplicate && e.State == journal.Done {
			done = append(done, e)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(done) != n {
		t.Fatalf("journal has %d removals, want %d", len(done), n)
	}
	for _, e := range done {
		if _, err := os.Stat(e.Dst); err != nil || !strings.HasPrefix(e.Dst, lib) {
			t.Errorf("removal of %s names kept copy %s: %v", e.Src, e.Dst, err)
		}
	}
}

func TestDeleteDuplicatesDryRunPredictsAndChangesNothing(t *testing.T) {
	d := newDupTrees(t)
	before := snapshot(t, d.root)
	sum, dry := sortTree(t, d.sources(), d.lib, moveDeletingDuplicates, func(c *Config) { c.DryRun = true })
	assertSame(t, snapshot(t, d.root), before)
	if sum.DuplicatesRemoved != 3 {
		t.Errorf("dry run predicted %d removals, want 3", sum.DuplicatesRemoved)
	}
	_, real := sortTree(t, d.sources(), d.lib, moveDeletingDuplicates)
	if p, r := removals(dry, d.root), removals(real, d.root); !slices.Equal(p, r) {
		t.Errorf("dry run predicted:\n%s\nreal run removed:\n%s", strings.Join(p, "\n"), strings.Join(r, "\n"))
	}
}

// TestDuplicateChangedAfterPlanningIsKept: a duplicate edited between the
// plan and its removal no longer matches its kept copy and stays, with a
// warning naming it; the others go.
func TestDuplicateChangedAfterPlanningIsKept(t *testing.T) {
	d := newDupTrees(t)
	c := &relCase{t: t, src: d.card1, dst: d.lib, rec: &recorder{}}
	c.cfg = relConfig(d.sources(), d.lib, c.rec)
	moveDeletingDuplicates(&c.cfg)
	edited := filepath.Join(d.card1, "backup/IMG_0001 copy.JPG")
	edit := photo(2019, 7, 4, 10, "X") // same size, other bytes
	sum := c.stagedSort(func() {
		if err := os.WriteFile(edited, edit, 0o644); err != nil {
			t.Fatal(err)
		}
	})
	if got, err := os.ReadFile(edited); err != nil || string(got) != string(edit) {
		t.Fatalf("the edited duplicate was not kept as edited (%v)", err)
	}
	if sum.DuplicatesRemoved != 2 || sum.Incomplete() {
		t.Errorf("summary %+v, want the other 2 removed", sum)
	}
	var warned bool
	for _, ev := range c.rec.ofType("warning") {
		warned = warned || (ev.Src == edited && strings.Contains(ev.Reason, "differs from") && strings.Contains(ev.Reason, edited))
	}
	if !warned {
		t.Errorf("no warning names the kept duplicate %s: %v", edited, c.rec.ofType("warning"))
	}
	assertSame(t, snapshot(t, d.lib), d.wantLibrary())
}

// TestDuplicatesOfAFailedKeeperStay: when the copy to keep does not reach
// the library, its duplicates are all that is left of the photo outside it.
func TestDuplicatesOfAFailedKeeperStay(t *testing.T) {
	d := newDupTrees(t)
	faults := fsx.NewFaults(fsx.OS).Add(fsx.Rule{Op: "rename", Path: "IMG_0001", Err: syscall.EIO})
	sum, _ := sortTree(t, d.sources(), d.lib, moveDeletingDuplicates, func(c *Config) { c.FS = faults })
	if sum.Failed != 1 || sum.DuplicatesRemoved != 1 {
		t.Errorf("summary %+v, want the keeper failed and only the library photo's copy removed", sum)
	}
	left := d.sourcesLeft(t)
	for _, p := range []string{"card1/DCIM/IMG_0001.JPG", "card1/backup/IMG_0001 copy.JPG", "card2/IMG_0001.JPG"} {
		if !slices.Contains(left, p) {
			t.Errorf("%s is gone although its kept copy never landed (left: %q)", p, left)
		}
	}
	if slices.Contains(left, "card2/old/IMG_0100.JPG") {
		t.Error("the copy of a photo already in the library was not removed")
	}
}

func TestDeleteDuplicatesOnlyWithMove(t *testing.T) {
	d := newDupTrees(t)
	for _, mode := range []transfer.Mode{transfer.Copy, transfer.Hardlink, transfer.Symlink, transfer.Reflink} {
		cfg := relConfig(d.sources(), d.lib, &recorder{})
		cfg.Mode, cfg.DeleteDuplicates = mode, true
		if _, err := Open(cfg); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "--delete-duplicates only applies to --mode move") {
			t.Errorf("%s: err = %v, want ErrConfig", mode, err)
		}
	}
	cfg := relConfig(d.sources(), d.lib, &recorder{})
	moveDeletingDuplicates(&cfg)
	cfg.Dedup = false
	if _, err := Open(cfg); !errors.Is(err, ErrConfig) {
		t.Errorf("without dedup: err = %v, want ErrConfig", err)
	}
	if _, err := os.Stat(d.lib + "/.shoebox"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused configuration touched the library: %v", err)
	}
}
