package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/digest"
	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

func TestMain(m *testing.M) {
	if os.Getenv(envChild) != "" {
		os.Exit(runChild(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// library is a generated source tree and what it holds.
type library struct {
	root     string
	files    map[string][]byte // relative path → content
	contents map[digest.Sum]bool
}

// makeSources writes ~80 real JPEGs: distinct dates, a few name
// collisions (same name, same day, different folders), byte-identical
// duplicates and a few ~2 MB files so that kills land mid-copy.
func makeSources(t *testing.T, root string) *library {
	t.Helper()
	lib := &library{root: root, files: map[string][]byte{}, contents: map[digest.Sum]bool{}}
	day := time.Date(2016, 3, 1, 9, 0, 0, 0, time.UTC)
	for i := 0; i < 72; i++ {
		when := day.AddDate(0, 0, i*5).Add(time.Duration(i) * time.Minute)
		data := fixture.JPEG(fixture.EXIF{When: when, Camera: fixture.Camera{Make: "Canon", Model: "EOS"}, Comment: fmt.Sprintf("photo %d", i)})
		if i%12 == 5 {
			data = append(data, bytes.Repeat([]byte{byte(i)}, 2<<20)...) // after EOI: still a valid JPEG
		}
		lib.files[fmt.Sprintf("card%d/DCIM/IMG_%04d.JPG", i%3, i)] = data
	}
	for i := 0; i < 4; i++ { // same name, same day, different content: collisions
		when := day.AddDate(0, 0, 1).Add(time.Duration(i) * time.Hour)
		data := fixture.JPEG(fixture.EXIF{When: when, Comment: fmt.Sprintf("collision %d", i)})
		lib.files[fmt.Sprintf("phone%d/IMG_0001.JPG", i)] = data
	}
	for i := 0; i < 4; i++ { // byte-identical copies of earlier photos
		orig := fmt.Sprintf("card%d/DCIM/IMG_%04d.JPG", (i*7)%3, i*7)
		lib.files[fmt.Sprintf("backup/copy-%d.jpg", i)] = lib.files[orig]
	}
	for rel, data := range lib.files {
		writeFile(t, filepath.Join(root, rel), data)
		lib.contents[sumOf(data)] = true
	}
	return lib
}

func writeFile(t *testing.T, p string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func sumOf(data []byte) digest.Sum {
	s, _, err := digest.Reader(bytes.NewReader(data))
	if err != nil {
		panic(err) // reading memory cannot fail
	}
	return s
}

// files maps every regular file under root, .shoebox excluded, to its
// content; temps lists the shoebox temp files found.
func files(t *testing.T, root string) (map[string][]byte, []string) {
	t.Helper()
	out := map[string][]byte{}
	var temps []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == root {
			return filepath.SkipDir
		}
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".shoebox" {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if strings.Contains(d.Name(), ".shoebox-tmp-") {
			temps = append(temps, p)
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, temps
}

// shoebox runs the command (the re-executed test binary) to completion.
func shoebox(t *testing.T, env []string, args ...string) (int, string) {
	t.Helper()
	cmd := command(env, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := waitUnderWine(t, cmd)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("shoebox %q: %v", args, err)
	}
	return cmd.ProcessState.ExitCode(), out.String()
}

// wineExitWait bounds the wait for a child under Wine, where the slowest
// run seen took about a minute.
const wineExitWait = 4 * time.Minute

// waitUnderWine runs cmd to its end. Under Wine 8 a child that ended at a
// crash point (TerminateProcess of itself; os.Exit did the same) is at
// times never reported ended: its Unix process is gone, and the parent's
// WaitForSingleObject waits forever (seen once in about ten runs of the
// suite, docs/platforms.md). There, a child not reported ended in
// wineExitWait skips the test, saying so, instead of hanging the suite.
// Elsewhere the wait is unbounded: a hang there is a defect.
func waitUnderWine(t *testing.T, cmd *exec.Cmd) error {
	t.Helper()
	if !fsxtest.UnderWine() {
		return cmd.Run()
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(wineExitWait):
		cmd.Process.Kill()
		t.Skipf("under Wine: the child %q was not reported ended within %v (Wine 8 at times never signals the end of a process that ended itself at a crash point); skipped, not passed", cmd.Args[1:], wineExitWait)
		return nil
	}
}

func command(env []string, args ...string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(append(os.Environ(), envChild+"=1"), env...)
	return cmd
}

// killAfter starts a sort and SIGKILLs it after delay (if it is still
// running by then).
func killAfter(t *testing.T, delay time.Duration, args ...string) {
	t.Helper()
	fsxtest.RunKilled(t, command(nil, args...), delay)
}

type iteration struct {
	seed     uint64
	move     bool
	crashAt  string        // a crash point spec, or "" to kill after delay
	delay    time.Duration // for a kill
	describe string
}

func plan(n int, fullRun time.Duration) []iteration {
	points := []string{fsx.AfterTempWrite, fsx.AfterSync, fsx.AfterRename}
	var its []iteration
	for i := 0; i < n; i++ {
		rng := rand.New(rand.NewPCG(uint64(i), 42))
		it := iteration{seed: uint64(i), move: i%4 == 3}
		if i%3 == 2 {
			it.crashAt = fmt.Sprintf("%s:%d", points[rng.IntN(len(points))], 1+rng.IntN(70))
			it.describe = "crash " + it.crashAt
		} else {
			it.delay = time.Duration(rng.Int64N(int64(fullRun) + 1))
			it.describe = "kill after " + it.delay.Round(time.Millisecond).String()
		}
		if it.move {
			it.describe += ", move"
		}
		its = append(its, it)
	}
	return its
}

func TestKillAndRerun(t *testing.T) {
	if testing.Short() {
		t.Skip("kill-and-rerun loop: not in -short")
	}
	master := makeSources(t, filepath.Join(t.TempDir(), "master"))
	fullRun := timeFullRun(t, master)
	iterations := 25
	if fsxtest.WineQuick() {
		// Two kills after a delay (TestChaos adds a crash point): each
		// iteration takes ~40 s under Wine; SHOEBOX_WINE_FULL=1 runs all 25.
		iterations = 2
		t.Logf("under Wine: %d of the 25 iterations (SHOEBOX_WINE_FULL=1 runs all)", iterations)
	}
	for _, it := range plan(iterations, fullRun) {
		t.Run(fmt.Sprintf("%02d %s", it.seed, it.describe), func(t *testing.T) {
			if !fsxtest.UnderWine() {
				// Each iteration has its own folders, and spends half its
				// time waiting on fsync: two at a time take about half as
				// long. (Under Wine, one at a time: a loaded Wine at times
				// cannot start a process.)
				t.Parallel()
			}
			runIteration(t, master, it)
		})
	}
}

// timeFullRun measures one uninterrupted run, to spread kill delays over it.
func timeFullRun(t *testing.T, master *library) time.Duration {
	t.Helper()
	start := time.Now()
	if code, out := shoebox(t, nil, "sort", master.root, filepath.Join(t.TempDir(), "lib")); code != 0 {
		t.Fatalf("full run: exit %d\n%s", code, out)
	}
	return time.Since(start)
}

func runIteration(t *testing.T, master *library, it iteration) {
	root := t.TempDir()
	src, dest := filepath.Join(root, "src"), filepath.Join(root, "lib")
	if err := os.CopyFS(src, os.DirFS(master.root)); err != nil {
		t.Fatal(err)
	}
	args := []string{"sort", src, dest}
	if it.move {
		args = []string{"sort", "--mode", "move", src, dest}
	}
	if it.crashAt != "" {
		code, out := shoebox(t, []string{envCrashAt + "=" + it.crashAt}, args...)
		if code != crashExitCode && code != 0 {
			t.Fatalf("crash child: exit %d\n%s", code, out)
		}
	} else {
		killAfter(t, it.delay, args...)
	}
	checkAfterKill(t, master, src, dest, it.move)

	if code, out := shoebox(t, nil, args...); code != 0 {
		t.Fatalf("re-run: exit %d\n%s", code, out)
	}
	checkComplete(t, master, src, dest, it.move)

	srcBefore, _ := files(t, src)
	destBefore, _ := files(t, dest)
	if code, out := shoebox(t, nil, args...); code != 0 {
		t.Fatalf("second re-run: exit %d\n%s", code, out)
	}
	srcAfter, _ := files(t, src)
	destAfter, _ := files(t, dest)
	if len(srcAfter) != len(srcBefore) || len(destAfter) != len(destBefore) {
		t.Errorf("second re-run transferred files: src %d -> %d, library %d -> %d",
			len(srcBefore), len(srcAfter), len(destBefore), len(destAfter))
	}

	code, out := shoebox(t, nil, "undo", dest)
	if code != 0 {
		t.Fatalf("undo: exit %d\n%s", code, out)
	}
	checkUndone(t, master, src, dest, it.move, out)
}

// checkAfterKill: nothing half-written under a final name, no source lost
// or changed.
func checkAfterKill(t *testing.T, master *library, src, dest string, move bool) {
	t.Helper()
	lib, _ := files(t, dest)
	for rel, data := range lib {
		if !master.contents[sumOf(data)] {
			t.Errorf("library file %s (%d bytes) matches no source: partial or corrupt", rel, len(data))
		}
	}
	inLib := map[digest.Sum]bool{}
	for _, data := range lib {
		inLib[sumOf(data)] = true
	}
	now, _ := files(t, src)
	for rel, want := range master.files {
		got, ok := now[rel]
		switch {
		case ok && !bytes.Equal(got, want):
			t.Errorf("source %s was modified", rel)
		case !ok && !move:
			t.Errorf("source %s vanished in a copy run", rel)
		case !ok && !inLib[sumOf(want)]:
			t.Errorf("source %s is lost: neither in the source nor in the library", rel)
		}
	}
}

// checkComplete: every distinct content exactly once in the library, and
// no temp file anywhere.
func checkComplete(t *testing.T, master *library, src, dest string, move bool) {
	t.Helper()
	lib, temps := files(t, dest)
	_, srcTemps := files(t, src)
	for _, p := range append(temps, srcTemps...) {
		t.Errorf("temp file left after the re-run: %s", p)
	}
	count := map[digest.Sum]int{}
	for _, data := range lib {
		count[sumOf(data)]++
	}
	for sum := range master.contents {
		if count[sum] != 1 {
			t.Errorf("content %s is in the library %d times, want once", sum.String()[:12], count[sum])
		}
	}
	if len(lib) != len(master.contents) {
		t.Errorf("library holds %d files, want %d distinct contents", len(lib), len(master.contents))
	}
	checkAfterKill(t, master, src, dest, move)
}

// checkUndone: copy mode leaves no photo in the library; move mode puts
// every source back at its path.
func checkUndone(t *testing.T, master *library, src, dest string, move bool, out string) {
	t.Helper()
	lib, temps := files(t, dest)
	if len(temps) > 0 {
		t.Errorf("temp files after undo: %v", temps)
	}
	if len(lib) > 0 {
		names := make([]string, 0, len(lib))
		for rel := range lib {
			names = append(names, rel)
		}
		t.Errorf("after undo the library still holds %d files: %v\nundo said:\n%s", len(lib), names, out)
	}
	now, _ := files(t, src)
	for rel, want := range master.files {
		if got, ok := now[rel]; !ok || !bytes.Equal(got, want) {
			t.Errorf("after undo source %s is missing or changed (move %v)", rel, move)
		}
	}
	if len(now) != len(master.files) {
		t.Errorf("after undo the source holds %d files, want %d", len(now), len(master.files))
	}
}
