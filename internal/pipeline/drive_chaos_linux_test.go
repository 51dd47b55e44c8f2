package pipeline

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/transfer"
	"github.com/shoebox-photos/shoebox/internal/undo"
)

// The drive-loss chaos test (issue 24): each seed sorts a small card onto
// a library drive, most often with --backup onto a second drive (both
// ext4 images, loop-mounted), and pulls one of the two drives (umount -l)
// at the nth time a crash point is reached, during the sort or during an
// undo of a finished sort. Once the drive is back it checks that no source
// left the card without its two verified copies, that nothing was written
// into the empty mount point, that no partial file is visible, and that
// the same command, run again, finishes the job.
//
//	go test ./internal/pipeline -run TestDriveLossChaos          # short: a few seeds
//	SHOEBOX_DRIVE_CHAOS_ITERATIONS=200 go test -count=1 -run TestDriveLossChaos -timeout 0 -v ./internal/pipeline/
//	SHOEBOX_DRIVE_CHAOS_SEED=1234 go test -count=1 -run TestDriveLossChaos -v ./internal/pipeline/   # replay one
const (
	envDriveChaosIterations = "SHOEBOX_DRIVE_CHAOS_ITERATIONS"
	envDriveChaosSeed       = "SHOEBOX_DRIVE_CHAOS_SEED"
	driveChaosShortRuns     = 10
	// pullOnEvent pulls the drive at the nth line an undo reports: the
	// moments between two reversals, which no crash point marks.
	pullOnEvent = "undo-event"
)

// driveChaosRegressions are seeds that once failed; they run every time.
var driveChaosRegressions = []uint64{
	0, // copy --backup, library drive pulled during undo: every copy left looked "already removed" through the empty mount point, the undo closed as finished, and undo again had nothing to undo (fixed in internal/undo: the library is reached through its open folder)
	// The library drive pulled while the sort was starting (after the
	// backup's record was written): the transfer made the library anew in
	// the empty mount point and moved the photos there (fixed: the roots
	// are opened before the first write and checked before the transfer).
	458120140, // move --backup
	458120154, // copy --backup
	// The backup drive pulled right after the library's identity was
	// written: the backup's record made the folder anew, with its record,
	// in the empty mount point (fixed: the records go through the roots).
	72304092, // move --backup
}

// driveChaosCase is everything one seed decides.
type driveChaosCase struct {
	seed   uint64
	mode   transfer.Mode
	backup bool   // --backup, on a drive of its own
	pulled string // "library" or "backup"
	phase  string // "sort" or "undo"
	point  string // the crash point (or pullOnEvent) at which the drive goes
	nth    int
	card   map[string][]byte
}

func (c driveChaosCase) String() string {
	b := ""
	if c.backup {
		b = " --backup"
	}
	return fmt.Sprintf("seed %d: %s%s, %d files, %s drive pulled during %s at %s #%d",
		c.seed, c.mode, b, len(c.card), c.pulled, c.phase, c.point, c.nth)
}

func (c driveChaosCase) key() string {
	return fmt.Sprintf("%s/%s/%s", c.mode, c.pulled, c.phase)
}

func newDriveChaosCase(seed uint64) driveChaosCase {
	rng := rand.New(rand.NewPCG(seed, 0xd21e))
	c := driveChaosCase{seed: seed, mode: transfer.Copy, phase: "sort", pulled: "library"}
	if rng.IntN(2) == 0 {
		c.mode = transfer.Move
	}
	c.backup = rng.IntN(4) != 0
	if c.backup && rng.IntN(2) == 0 {
		c.pulled = "backup"
	}
	c.card = chaosCard(rng, seed)
	if rng.IntN(4) == 0 {
		c.phase = "undo"
	}
	c.point, c.nth = chaosPullPoint(rng, c)
	return c
}

// chaosCard is two to five photos over three days, half of them with an
// .xmp sidecar, and in one card in three a byte-identical duplicate.
func chaosCard(rng *rand.Rand, seed uint64) map[string][]byte {
	card := map[string][]byte{}
	n := 2 + rng.IntN(4)
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("DCIM/IMG_%d", i)
		card[name+".JPG"] = photo(2019, 7, 1+rng.IntN(3), 8+i, fmt.Sprintf("seed %d photo %d", seed, i))
		if rng.IntN(2) == 0 {
			card[name+".xmp"] = fmt.Appendf(nil, `<x:xmpmeta xmlns:x="adobe:ns:meta/"><!-- %d %d --></x:xmpmeta>`, seed, i)
		}
	}
	if rng.IntN(3) == 0 {
		card["DCIM/COPY_1.JPG"] = card["DCIM/IMG_1.JPG"]
	}
	return card
}

// chaosPullPoint picks where the drive goes; nth may exceed what the run
// reaches, and then the drive stays (counted as "not reached").
func chaosPullPoint(rng *rand.Rand, c driveChaosCase) (string, int) {
	points := []string{fsx.AfterTempWrite, fsx.AfterSync, fsx.AfterRename, fsx.AfterMkdir}
	if c.mode == transfer.Move {
		points = append(points, fsx.AfterRemoveSource)
	}
	if c.phase == "undo" {
		// An undo of a copy only removes files: no crash point. An undo
		// of a move copies each file back to the card through the
		// transfer protocol, so its crash points are reached too.
		points = []string{pullOnEvent}
		if c.mode == transfer.Move {
			points = append(points, fsx.AfterTempWrite, fsx.AfterRename, fsx.AfterRemoveSource)
		}
	}
	return points[rng.IntN(len(points))], 1 + rng.IntN(len(c.card)+1)
}

// driveChaosSeeds is one named seed, or the regressions and n fresh ones
// (0..n-1 on a short run, from a start that differs on every long run).
func driveChaosSeeds(t *testing.T) []uint64 {
	if s := os.Getenv(envDriveChaosSeed); s != "" {
		seed, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: want a number", envDriveChaosSeed, s)
		}
		return []uint64{seed}
	}
	n, start := driveChaosShortRuns, uint64(0)
	if s := os.Getenv(envDriveChaosIterations); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			t.Fatalf("%s=%q: want a positive number", envDriveChaosIterations, s)
		}
		n, start = v, uint64(time.Now().UnixNano()%1_000_000)*1000
	}
	seeds := slices.Clone(driveChaosRegressions)
	for i := range n {
		if s := start + uint64(i); !slices.Contains(seeds, s) {
			seeds = append(seeds, s)
		}
	}
	return seeds
}

// driveTally counts what the seeds did, for the one line the test logs.
type driveTally struct {
	seeds, pulled, failed int
	unsafeRemovals        int // sources gone from the card without two verified copies
	outside               int // files written into an empty mount point
	perKey                map[string]int
	failedSeeds           []string
}

func (ty *driveTally) String() string {
	keys := make([]string, 0, len(ty.perKey))
	for k := range ty.perKey {
		keys = append(keys, fmt.Sprintf("%s=%d", k, ty.perKey[k]))
	}
	slices.Sort(keys)
	return fmt.Sprintf("drive chaos: %d seeds (%d with the drive pulled, %d not reached), %d sources removed without two verified copies, %d copies written outside their drive, %d failed; %s",
		ty.seeds, ty.pulled, ty.seeds-ty.pulled, ty.unsafeRemovals, ty.outside, ty.failed, strings.Join(keys, " "))
}

func TestDriveLossChaos(t *testing.T) {
	newDrive(t) // skips, saying why, where loop mounts are impossible
	ty := &driveTally{perKey: map[string]int{}}
	for _, seed := range driveChaosSeeds(t) {
		c := newDriveChaosCase(seed)
		ran := false
		ok := t.Run(fmt.Sprintf("seed %d %s", seed, c.key()), func(t *testing.T) {
			ran = true
			t.Log(c)
			r := runDriveChaos(t, c)
			ty.unsafeRemovals += r.unsafeRemovals
			ty.outside += r.outside
			if r.pulled {
				ty.pulled++
			}
			if t.Failed() {
				t.Logf("FAILED %s; replay: %s=%d go test -count=1 -run TestDriveLossChaos -v ./internal/pipeline/", c, envDriveChaosSeed, seed)
			}
		})
		if ran {
			ty.seeds++
			ty.perKey[c.key()]++
		}
		if !ok {
			ty.failed++
			ty.failedSeeds = append(ty.failedSeeds, c.String())
		}
	}
	t.Log(ty)
	for _, s := range ty.failedSeeds {
		t.Logf("drive chaos failure: %s", s)
	}
}

// chaosRig is one seed's card, library drive and backup drive.
type chaosRig struct {
	*relCase
	c        driveChaosCase
	lib, bak *drive // bak is nil without --backup
	backup   string // the backup folder, on bak
	orig     map[string]string
}

// chaosResult is what a seed adds to the tally.
type chaosResult struct {
	pulled                  bool
	unsafeRemovals, outside int
}

func newChaosRig(t *testing.T, c driveChaosCase) *chaosRig {
	r := &chaosRig{relCase: newRelCase(t, c.card), c: c, lib: newDrive(t)}
	r.orig = snapshot(t, r.src)
	r.dst = filepath.Join(r.lib.mnt, "Library")
	r.cfg.Dest, r.cfg.Mode, r.cfg.Workers = r.dst, c.mode, 1
	r.cfg.Args = []string{"sort", "--mode", c.mode.String(), r.src, r.dst}
	if c.backup {
		r.bak = newDrive(t)
		r.backup = filepath.Join(r.bak.mnt, "Photos")
		if err := os.Mkdir(r.backup, 0o755); err != nil {
			t.Fatal(err)
		}
		r.cfg.Backup = r.backup
		r.cfg.Args = append(r.cfg.Args, "--backup", r.backup)
	}
	return r
}

func (r *chaosRig) pulledDrive() *drive {
	if r.c.pulled == "backup" {
		return r.bak
	}
	return r.lib
}

func runDriveChaos(t *testing.T, c driveChaosCase) chaosResult {
	r := newChaosRig(t, c)
	if c.phase == "undo" {
		return r.undoChaos()
	}
	return r.sortChaos()
}

// chaosPull pulls a drive at the nth time point is reached, once.
type chaosPull struct {
	d      *drive
	point  string
	nth    int
	mu     sync.Mutex
	seen   int
	pulled bool
}

func (p *chaosPull) at(point string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if point != p.point || p.pulled {
		return
	}
	if p.seen++; p.seen == p.nth {
		p.d.pull()
		p.pulled = true
	}
}

func (p *chaosPull) faults() *fsx.Faults {
	f := fsx.NewFaults(fsx.OS)
	f.OnCrashPoint(p.at)
	return f
}

// sortChaos: the sort loses a drive; then the checks, and the same sort
// again with the drive back.
func (r *chaosRig) sortChaos() chaosResult {
	t := r.t
	p := &chaosPull{d: r.pulledDrive(), point: r.c.point, nth: r.c.nth}
	r.cfg.FS = p.faults()
	_, err := r.sortAll()
	t.Logf("sort: %v", err)
	res := r.afterPull(p)
	if p.pulled && err == nil {
		t.Errorf("the sort reported success though the %s drive went away", r.c.pulled)
	}
	if !p.pulled && err != nil {
		t.Errorf("the sort failed with no drive pulled: %v", err)
	}
	res.unsafeRemovals += r.checkRemovals("after the pull")
	r.checkNoPartials("after the pull")
	r.cfg.FS = nil
	if _, err := r.sortAll(); err != nil {
		t.Errorf("the same sort again, with the drive back: %v", err)
	}
	res.unsafeRemovals += r.checkRemovals("after the re-run")
	r.checkNoPartials("after the re-run")
	r.checkExactlyOnce()
	return res
}

// afterPull checks the empty mount point, then plugs the drive back.
func (r *chaosRig) afterPull(p *chaosPull) chaosResult {
	res := chaosResult{pulled: p.pulled}
	if !p.pulled {
		return res
	}
	if got := p.d.underneath(); len(got) != 0 {
		r.t.Errorf("written into the empty mount point while the drive was away: %v", got)
		res.outside = len(got)
		for _, f := range got {
			_ = os.RemoveAll(f) // so that the drive can be mounted there again
		}
	}
	r.waitReleased(p.d)
	p.d.plugBack()
	return res
}

// waitReleased waits until nothing holds the pulled drive (its loop
// device is freed once the last open file on it is closed): mounting the
// image again while the lazily unmounted one lives would mount one ext4
// twice. A run that keeps a file open on the drive after it returned is
// a leak, reported as such.
func (r *chaosRig) waitReleased(d *drive) {
	deadline := time.Now().Add(5 * time.Second)
	for {
		out, err := exec.Command("losetup", "-j", d.img).CombinedOutput()
		if err != nil || len(strings.TrimSpace(string(out))) == 0 {
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("the run returned, but still holds the pulled drive: %s", out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// contents maps each content of m to how many files hold it.
func contents(m map[string]string) map[string]int {
	out := map[string]int{}
	for _, v := range m {
		out[v]++
	}
	return out
}

// checkRemovals: a source gone from the card is, byte for byte, in the
// library and, with --backup, in the backup. It returns how many are not.
func (r *chaosRig) checkRemovals(when string) int {
	card, lib := snapshot(r.t, r.src), contents(snapshot(r.t, r.dst))
	bak := map[string]int{}
	if r.c.backup {
		bak = contents(snapshot(r.t, r.backup))
	}
	bad := 0
	for name, data := range r.orig {
		if now, ok := card[name]; ok {
			if now != data {
				r.t.Errorf("%s: %s changed on the card", when, name)
			}
			continue
		}
		if lib[data] == 0 || (r.c.backup && bak[data] == 0) {
			bad++
			r.t.Errorf("%s: %s left the card; in the library: %v, in the backup: %v", when, name, lib[data] > 0, bak[data] > 0)
		}
	}
	return bad
}

// checkNoPartials: every file of the library and backup (outside
// .shoebox, which snapshot skips) and of the card is a whole original.
func (r *chaosRig) checkNoPartials(when string) {
	whole := contents(r.orig)
	roots := []string{r.src, r.dst}
	if r.c.backup {
		roots = append(roots, r.backup)
	}
	for _, root := range roots {
		for rel, data := range snapshot(r.t, root) {
			if whole[data] == 0 || transfer.IsTempName(filepath.Base(rel)) {
				r.t.Errorf("%s: %s in %s is not a whole file of the card (%d bytes)", when, rel, root, len(data))
			}
		}
	}
}

// checkExactlyOnce: after the re-run every photo of the card is in the
// library, and in the backup, exactly once by content.
func (r *chaosRig) checkExactlyOnce() {
	places := map[string]string{"library": r.dst}
	if r.c.backup {
		places["backup"] = r.backup
	}
	for what, root := range places {
		got := contents(snapshot(r.t, root))
		for data := range contents(r.orig) {
			if got[data] != 1 {
				r.t.Errorf("after the re-run the %s holds %d copies of %s", what, got[data], r.nameOf(data))
			}
		}
	}
}

func (r *chaosRig) nameOf(data string) string {
	var names []string
	for n, d := range r.orig {
		if d == data {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return strings.Join(names, " = ")
}

// undoChaos: a finished sort is undone, and the undo loses a drive. No
// file may leave the library unless its source is back on the card; the
// undo must not claim success unless it reverted everything; undo again,
// with the drive back, finishes.
func (r *chaosRig) undoChaos() chaosResult {
	t := r.t
	r.mustSort()
	p := &chaosPull{d: r.pulledDrive(), point: r.c.point, nth: r.c.nth}
	opt := undo.Options{FS: p.faults(), Events: func(string) { p.at(pullOnEvent) }}
	st, err := undo.Last(context.Background(), r.dst, opt)
	t.Logf("undo: %+v: %v", st, err)
	res := r.afterPull(p)
	r.checkNothingLost("after the pull")
	r.checkNoPartials("after the pull")
	if err == nil && !r.reverted() {
		t.Errorf("the undo reported success, yet the run is not reverted (the %s drive went away: %v)", r.c.pulled, p.pulled)
	}
	t.Logf("library after the pull: %v", keysOf(snapshot(t, r.dst)))
	_, err2 := undo.Last(context.Background(), r.dst, undo.Options{})
	t.Logf("undo again: %v", err2)
	switch {
	case err == nil && !errors.Is(err2, undo.ErrNothingToUndo):
		t.Errorf("undo again after a finished undo: %v, want nothing to undo", err2)
	case err != nil && err2 != nil:
		t.Errorf("undo again, with the drive back: %v", err2)
	}
	if !r.reverted() {
		t.Errorf("after the second undo the run is not reverted")
	}
	return res
}

// checkNothingLost: every photo is on the card or in the library.
func (r *chaosRig) checkNothingLost(when string) {
	card, lib := snapshot(r.t, r.src), contents(snapshot(r.t, r.dst))
	for name, data := range r.orig {
		if now, ok := card[name]; ok {
			if now != data {
				r.t.Errorf("%s: %s changed on the card", when, name)
			}
			continue
		}
		if lib[data] == 0 {
			r.t.Errorf("%s: %s is neither on the card nor in the library", when, name)
		}
	}
}

// reverted: the card is as it was, the library and backup hold no photo.
func (r *chaosRig) reverted() bool {
	ok := len(snapshot(r.t, r.dst)) == 0
	if r.c.backup {
		ok = ok && len(snapshot(r.t, r.backup)) == 0
	}
	card := snapshot(r.t, r.src)
	if len(card) != len(r.orig) {
		return false
	}
	for name, data := range r.orig {
		ok = ok && card[name] == data
	}
	return ok
}

func keysOf(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
