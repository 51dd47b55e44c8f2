package pipeline

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/fsx/faultfuse"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// The failing-drive chaos test (issue 24): TestDriveLossChaos pulls a
// drive; this one keeps it plugged in and makes it fail. Each seed sorts a
// small card with --backup, one of the two folders (the backup, or the
// library with the backup on local disk) on a FUSE drive (faultfuse) that,
// at the nth time a crash point is reached, starts returning EIO to every
// operation, EROFS to every write (the kernel remounted it read-only), or
// vanishes (lazily unmounted, its open files failing with EIO). The run
// must stop between files with one message that names the drive, report
// no file failed one by one, remove no source without its two verified
// copies, write nothing outside the drive, and leave no partial file at a
// final name; once the drive is healthy again, the same command finishes
// the job, each photo in the library and in the backup exactly once.
//
//	go test ./internal/pipeline -run TestFailingDriveChaos          # short: a few seeds
//	SHOEBOX_FUSE_CHAOS_ITERATIONS=50 go test -count=1 -run TestFailingDriveChaos -timeout 0 -v ./internal/pipeline/
//	SHOEBOX_FUSE_CHAOS_SEED=1234 go test -count=1 -run TestFailingDriveChaos -v ./internal/pipeline/   # replay one
const (
	envFuseChaosIterations = "SHOEBOX_FUSE_CHAOS_ITERATIONS"
	envFuseChaosSeed       = "SHOEBOX_FUSE_CHAOS_SEED"
	fuseChaosShortRuns     = 8
)

// fuseChaosRegressions are seeds that once failed; they run every time.
var fuseChaosRegressions = []uint64{
	181799004, // move, backup EIO: a temp the drive would not let go of was left for ever (its op journaled Failed); fixed: its Intent stays open and the journal unfinished, for the next run's recovery
	181799003, // copy, library EIO: the same, on the library's drive; and one "failed" per file
	986275001, // copy, backup read-only: a photo reported failed "to stay with" its sidecar, which the drive's stop left on the card
	986275023, // copy, backup read-only: a backup temp's fsync error named /proc/self/fd/N/... (a Pin over a Pin), so the drive went unnamed
	429009002, // copy, backup EIO while its record was read: "invalid arguments" instead of the drive's stop
	147393016, // copy, library vanished while its identity was written: an error naming no drive
}

// fuseChaosCase is everything one seed decides.
type fuseChaosCase struct {
	seed   uint64
	mode   transfer.Mode
	onFuse string // "library" or "backup": the folder on the failing drive
	fault  faultfuse.Fault
	point  string
	nth    int
	card   map[string][]byte
}

func (c fuseChaosCase) String() string {
	return fmt.Sprintf("seed %d: %s --backup, %d files, the %s drive goes %s at %s #%d",
		c.seed, c.mode, len(c.card), c.onFuse, c.fault, c.point, c.nth)
}

func (c fuseChaosCase) key() string {
	return fmt.Sprintf("%s/%s/%s", c.mode, c.onFuse, c.fault)
}

func newFuseChaosCase(seed uint64) fuseChaosCase {
	rng := rand.New(rand.NewPCG(seed, 0xf05e))
	c := fuseChaosCase{seed: seed, mode: transfer.Copy, onFuse: "backup"}
	if rng.IntN(2) == 0 {
		c.mode = transfer.Move
	}
	if rng.IntN(2) == 0 {
		c.onFuse = "library"
	}
	c.fault = []faultfuse.Fault{faultfuse.IOError, faultfuse.ReadOnly, faultfuse.Vanished}[rng.IntN(3)]
	c.card = chaosCard(rng, seed)
	points := []string{fsx.AfterTempWrite, fsx.AfterSync, fsx.AfterRename, fsx.AfterMkdir}
	if c.mode == transfer.Move {
		points = append(points, fsx.AfterRemoveSource)
	}
	c.point, c.nth = points[rng.IntN(len(points))], 1+rng.IntN(len(c.card)+1)
	return c
}

// seedList is one named seed (env seedVar), or the regressions and n
// fresh ones (short of them by default, envN of them from a start that
// differs on every long run).
func seedList(t *testing.T, seedVar, envN string, short int, regressions []uint64) []uint64 {
	if s := os.Getenv(seedVar); s != "" {
		seed, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: want a number", seedVar, s)
		}
		return []uint64{seed}
	}
	n, start := short, uint64(0)
	if s := os.Getenv(envN); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			t.Fatalf("%s=%q: want a positive number", envN, s)
		}
		n, start = v, uint64(time.Now().UnixNano()%1_000_000)*1000
	}
	seeds := slices.Clone(regressions)
	for i := range n {
		if s := start + uint64(i); !slices.Contains(seeds, s) {
			seeds = append(seeds, s)
		}
	}
	return seeds
}

// fuseTally counts what the seeds did, for the one line the test logs.
type fuseTally struct {
	seeds, fired, failed, held int
	unsafeRemovals, outside    int
	perKey                     map[string]int
	failedSeeds                []string
}

func (ty *fuseTally) String() string {
	keys := make([]string, 0, len(ty.perKey))
	for k := range ty.perKey {
		keys = append(keys, fmt.Sprintf("%s=%d", k, ty.perKey[k]))
	}
	slices.Sort(keys)
	return fmt.Sprintf("failing-drive chaos: %d seeds (%d with the drive failing, %d not reached), %d sources removed without two verified copies, %d copies written outside their drive, %d failed, %d runs still holding a vanished library drive; %s",
		ty.seeds, ty.fired, ty.seeds-ty.fired, ty.unsafeRemovals, ty.outside, ty.failed, ty.held, strings.Join(keys, " "))
}

func TestFailingDriveChaos(t *testing.T) {
	if why := faultfuse.Available(); why != "" {
		t.Skip(why)
	}
	ty := &fuseTally{perKey: map[string]int{}}
	for _, seed := range seedList(t, envFuseChaosSeed, envFuseChaosIterations, fuseChaosShortRuns, fuseChaosRegressions) {
		c := newFuseChaosCase(seed)
		ran := false
		ok := t.Run(fmt.Sprintf("seed %d %s", seed, c.key()), func(t *testing.T) {
			ran = true
			t.Log(c)
			r := runFuseChaos(t, c)
			ty.unsafeRemovals += r.unsafeRemovals
			ty.outside += r.outside
			if r.pulled {
				ty.fired++
			}
			if r.held {
				ty.held++
			}
			if t.Failed() {
				t.Logf("FAILED %s; replay: %s=%d go test -count=1 -run TestFailingDriveChaos -v ./internal/pipeline/", c, envFuseChaosSeed, seed)
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
		t.Logf("failing-drive chaos failure: %s", s)
	}
}

// fuseFault puts the drive in its fault at the nth time point is reached.
type fuseFault struct {
	d     *faultfuse.Drive
	fault faultfuse.Fault
	point string
	nth   int
	mu    sync.Mutex
	seen  int
	fired bool
}

func (p *fuseFault) at(point string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if point != p.point || p.fired {
		return
	}
	if p.seen++; p.seen == p.nth {
		p.d.Set(p.fault)
		p.fired = true
	}
}

// fuseResult is chaosResult and whether the vanished drive stayed held.
type fuseResult struct {
	chaosResult
	held bool
}

func runFuseChaos(t *testing.T, c fuseChaosCase) fuseResult {
	d := faultfuse.Mount(t)
	dc := driveChaosCase{seed: c.seed, mode: c.mode, backup: true, pulled: c.onFuse, phase: "sort", card: c.card}
	r := &chaosRig{relCase: newRelCase(t, c.card), c: dc}
	r.orig = snapshot(t, r.src)
	local := t.TempDir()
	r.dst, r.backup = filepath.Join(local, "Library"), filepath.Join(d.Mount, "Photos")
	if c.onFuse == "library" {
		r.dst, r.backup = filepath.Join(d.Mount, "Library"), filepath.Join(local, "Photos")
	}
	if err := os.Mkdir(r.backup, 0o755); err != nil {
		t.Fatal(err)
	}
	r.cfg.Dest, r.cfg.Backup, r.cfg.Mode, r.cfg.Workers = r.dst, r.backup, c.mode, 1
	r.cfg.Args = []string{"sort", "--mode", c.mode.String(), "--backup", r.backup, r.src, r.dst}

	p := &fuseFault{d: d, fault: c.fault, point: c.point, nth: c.nth}
	f := fsx.NewFaults(fsx.OS)
	f.OnCrashPoint(p.at)
	r.cfg.FS = f
	_, err := r.sortAll()
	t.Logf("sort: %v", err)
	res := fuseResult{chaosResult: chaosResult{pulled: p.fired}}
	if p.fired {
		checkOneStop(t, err, c.onFuse, d.Mount, r.rec)
	} else if err != nil {
		t.Errorf("the sort failed with the drive healthy: %v", err)
	}
	if c.fault == faultfuse.Vanished && p.fired {
		if got := d.Underneath(); len(got) != 0 {
			t.Errorf("written into the empty mount point while the drive was away: %v", got)
			res.outside = len(got)
			for _, f := range got {
				_ = os.RemoveAll(f)
			}
		}
		if !d.Released(2 * time.Second) {
			// Known, not fixed: a store on the library's drive whose
			// close fails with EIO keeps its handles (see the report in
			// the tally); the drive is plugged back beside it.
			t.Logf("the run returned, but still holds the vanished drive: %v", openFiles())
			res.held = true
		}
	}
	d.Set(faultfuse.Healthy)
	res.unsafeRemovals += r.checkRemovals("after the fault")
	checkNoPartialsBut(r, "after the fault", d.Mount)
	r.cfg.FS = nil
	*r.rec = recorder{}
	if _, err := r.sortAll(); err != nil {
		t.Errorf("the same sort again, with the drive healthy: %v", err)
	}
	res.unsafeRemovals += r.checkRemovals("after the re-run")
	r.checkNoPartials("after the re-run")
	r.checkExactlyOnce()
	return res
}

// checkOneStop: a run whose drive failed reports that as one error, a
// stop that names the drive (what it is and where it is mounted), and
// reports no file failed one by one.
func checkOneStop(t *testing.T, err error, what, mount string, rec *recorder) {
	t.Helper()
	if err == nil {
		t.Errorf("the sort reported success though the %s drive failed", what)
		return
	}
	msg := err.Error()
	if !errors.Is(err, ErrStopped) || !strings.Contains(msg, fmt.Sprintf("the %s drive at %q", what, mount)) {
		t.Errorf("err = %v, want a stop naming the %s drive at %q", err, what, mount)
	}
	if f := rec.failed(); len(f) != 0 {
		t.Errorf("a failure reported per file: %v", f)
	}
}

// openFiles lists what the test process holds open, for a leak's report.
func openFiles() []string {
	var out []string
	ents, _ := os.ReadDir("/proc/self/fd")
	for _, e := range ents {
		if l, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && strings.HasPrefix(l, "/") && !strings.HasPrefix(l, "/dev/") {
			out = append(out, e.Name()+"="+l)
		}
	}
	return out
}

// checkNoPartialsBut is checkNoPartials, except that a temp is allowed
// under mount: the failing drive refused its removal (EIO, read-only),
// and the run left its journal for the next one to remove it, which
// checkNoPartials after the re-run verifies. Nothing but a whole file is
// ever at a final name.
func checkNoPartialsBut(r *chaosRig, when, mount string) {
	whole := contents(r.orig)
	for _, root := range []string{r.src, r.dst, r.backup} {
		for rel, data := range snapshot(r.t, root) {
			temp := transfer.IsTempName(filepath.Base(rel))
			if temp && strings.HasPrefix(root, mount+string(filepath.Separator)) {
				continue
			}
			if temp || whole[data] == 0 {
				r.t.Errorf("%s: %s in %s is not a whole file of the card (%d bytes)", when, rel, root, len(data))
			}
		}
	}
}
