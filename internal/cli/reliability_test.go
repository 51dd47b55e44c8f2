package cli

// The reliability suite, command-line half: faults only real OS mechanisms
// can produce (a full tmpfs, an unprivileged user), run through the real
// `shoebox sort` in-process or as a child, checking exit codes and the
// messages the user reads. docs/reliability.md maps faults to these tests.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// childArgsEnv carries the arguments of a shoebox run that
// TestReliabilityChild performs in a child process, as a JSON array.
const childArgsEnv = "SHOEBOX_RELIABILITY_CHILD_ARGS"

// TestReliabilityChild is not a test of its own: it is the body of the
// child process runAsNobody starts, running shoebox and exiting with its code.
func TestReliabilityChild(t *testing.T) {
	encoded := os.Getenv(childArgsEnv)
	if encoded == "" {
		t.Skip("only runs as the child of a permission test")
	}
	var args []string
	if err := json.Unmarshal([]byte(encoded), &args); err != nil {
		t.Fatalf("%s: %v", childArgsEnv, err)
	}
	env := Env{Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin}
	os.Exit(Run(context.Background(), env, args))
}

// result is what one shoebox run showed the user.
type result struct {
	code           int
	stdout, stderr string
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
}

func shoebox(args ...string) result {
	var out, errOut bytes.Buffer
	code := Run(context.Background(), Env{Stdout: &out, Stderr: &errOut, Stdin: strings.NewReader("")}, args)
	return result{code, out.String(), errOut.String()}
}

// card writes n distinct photos of about size bytes each, one per day of
// July 2019, and returns their contents by name.
func card(t *testing.T, dir string, n, size int) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for i := 0; i < n; i++ {
		b := fixture.JPEG(fixture.EXIF{When: time.Date(2019, 7, 1+i, 12, 0, 0, 0, time.UTC), Comment: fmt.Sprint("photo ", i)})
		// Bytes after the end-of-image marker: still a valid JPEG, just bigger.
		for len(b) < size {
			b = append(b, byte(len(b)*7+i))
		}
		name := fmt.Sprintf("IMG_%04d.JPG", i)
		files[name] = b
		writeFile(t, filepath.Join(dir, name), b, 0o644)
	}
	return files
}

func writeFile(t *testing.T, p string, b []byte, perm os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, perm); err != nil {
		t.Fatal(err)
	}
}

// libraryFiles maps each regular file in the library (outside .shoebox)
// to its content, failing on any shoebox temp file.
func libraryFiles(t *testing.T, lib string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	filepath.WalkDir(lib, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == ".shoebox" {
			return filepath.SkipDir
		}
		if transfer.IsTempName(d.Name()) {
			t.Errorf("temp file left in the library: %s", p)
		}
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out[p] = b
		}
		return nil
	})
	return out
}

// assertWholeCopies checks that every library file is a complete copy of
// one of the sources, by its name: nothing half-written at a final name.
func assertWholeCopies(t *testing.T, lib string, sources map[string][]byte) int {
	t.Helper()
	got := libraryFiles(t, lib)
	for p, b := range got {
		want, ok := sources[filepath.Base(p)]
		if !ok || !bytes.Equal(b, want) {
			t.Errorf("%s (%d bytes) is not a whole copy of its source", p, len(b))
		}
	}
	return len(got)
}

func assertSourcesIntact(t *testing.T, dir string, sources map[string][]byte) {
	t.Helper()
	for name, want := range sources {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("source %s changed or lost (%v)", name, err)
		}
	}
}

// tinyTmpfs mounts a tmpfs with opts at a new dir and unmounts it at the
// end. Only root can; everyone else skips.
func tinyTmpfs(t *testing.T, opts string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := filepath.Join(t.TempDir(), "lib")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	return dir
}

func remount(t *testing.T, dir, opts string) {
	t.Helper()
	if out, err := exec.Command("mount", "-o", "remount,"+opts, dir).CombinedOutput(); err != nil {
		t.Fatalf("remount %s: %v %s", dir, err, out)
	}
}

// TestDiskFullOnRealTmpfs fills a real 512 KB filesystem, then out of
// inodes: the run stops (1) or fails the files that did not fit (3), with
// the destination named and "full" said; every file in the library is
// whole; and once there is room again a re-run completes.
func TestDiskFullOnRealTmpfs(t *testing.T) {
	cases := []struct{ name, opts, roomy string }{
		{"out of space", "size=512k", "size=16m"},
		{"out of inodes", "size=16m,nr_inodes=24", "nr_inodes=4096"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lib := tinyTmpfs(t, tc.opts)
			src := filepath.Join(filepath.Dir(lib), "card")
			sources := card(t, src, 24, 60<<10) // 1.4 MB, 24 dated folders
			r := shoebox("sort", src, lib)
			if r.code != ExitIncomplete && r.code != ExitFatal {
				t.Fatalf("want exit 3 or 1 on a full disk, got:\n%s", r)
			}
			if !strings.Contains(r.stderr, "no space left on device") || !strings.Contains(r.stderr, "the destination is full") {
				t.Errorf("stderr should say the disk is full, with the hint:\n%s", r.stderr)
			}
			if !strings.Contains(r.stderr, lib) {
				t.Errorf("stderr should name the destination %s:\n%s", lib, r.stderr)
			}
			landed := assertWholeCopies(t, lib, sources)
			if landed == len(sources) {
				t.Errorf("all %d files fit: the filesystem was not full", landed)
			}
			assertSourcesIntact(t, src, sources)

			remount(t, lib, tc.roomy)
			if r := shoebox("sort", src, lib); r.code != ExitOK {
				t.Fatalf("re-run with room to spare:\n%s", r)
			}
			if n := assertWholeCopies(t, lib, sources); n != len(sources) {
				t.Errorf("after the re-run the library holds %d files, want %d", n, len(sources))
			}
		})
	}
}

// nobody is the unprivileged user the permission tests run shoebox as.
const nobody = 65534

// permFixture is a temp tree nobody can reach: base (0755) holding the
// test binary, a source card and a library owned by nobody.
type permFixture struct {
	t              *testing.T
	base, src, lib string
	bin            string
}

func newPermFixture(t *testing.T) *permFixture {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("permission faults are tested by dropping from root to nobody; not root here")
	}
	base := t.TempDir()
	f := &permFixture{t: t, base: base, src: filepath.Join(base, "card"), lib: filepath.Join(base, "lib")}
	for _, d := range []string{filepath.Dir(base), base} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(f.lib, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(f.lib, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f.bin = filepath.Join(base, "cli.test")
	copyExecutable(t, self, f.bin)
	return f
}

func copyExecutable(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// runAsNobody runs shoebox with args as uid/gid 65534, skipping the test
// when privileges cannot be dropped.
func (f *permFixture) runAsNobody(args ...string) result {
	f.t.Helper()
	cmd := exec.Command(f.bin, "-test.run=^TestReliabilityChild$")
	encoded, err := json.Marshal(args)
	if err != nil {
		f.t.Fatal(err)
	}
	cmd.Env = append(os.Environ(), childArgsEnv+"="+string(encoded))
	cmd.Dir = f.base
	runAsUser(cmd, nobody)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return result{ee.ExitCode(), out.String(), errOut.String()}
	case err != nil:
		f.t.Skipf("cannot run shoebox as uid %d: %v", nobody, err)
	}
	return result{0, out.String(), errOut.String()}
}

// assertPermissionMessage checks the user is told which path, that
// permission was denied, and what to check: the file or the folder, as
// the path is; and that no message says the same operation twice
// (`open "x": open x: permission denied`).
func assertPermissionMessage(t *testing.T, r result, path, what string) {
	t.Helper()
	for _, want := range []string{path, "permission denied", "check the " + what + "'s permissions"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r)
		}
	}
	for _, line := range strings.Split(r.stderr, "\n") {
		if strings.Count(line, "open ") > 1 || strings.Count(line, "read ") > 1 {
			t.Errorf("nested error message: %s", line)
		}
	}
}

// TestPermissionDenied runs shoebox as an ordinary user against sources
// and destinations it may not read or write.
func TestPermissionDenied(t *testing.T) {
	t.Run("unreadable source file", func(t *testing.T) {
		f := newPermFixture(t)
		sources := card(t, f.src, 3, 2<<10)
		locked := filepath.Join(f.src, "IMG_0001.JPG")
		if err := os.Chmod(locked, 0o000); err != nil {
			t.Fatal(err)
		}
		r := f.runAsNobody("sort", f.src, f.lib)
		if r.code != ExitIncomplete {
			t.Fatalf("want exit 3:\n%s", r)
		}
		assertPermissionMessage(t, r, locked, "file")
		if n := assertWholeCopies(t, f.lib, sources); n != 2 {
			t.Errorf("library holds %d files, want the 2 readable ones", n)
		}
		os.Chmod(locked, 0o644)
		assertSourcesIntact(t, f.src, sources)
	})
	t.Run("unreadable source folder", func(t *testing.T) {
		f := newPermFixture(t)
		sources := card(t, f.src, 2, 2<<10)
		lockedDir := filepath.Join(f.src, "private")
		card(t, lockedDir, 1, 2<<10)
		if err := os.Chmod(lockedDir, 0o000); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(lockedDir, 0o755)
		r := f.runAsNobody("sort", f.src, f.lib)
		if r.code != ExitIncomplete {
			t.Fatalf("want exit 3:\n%s", r)
		}
		assertPermissionMessage(t, r, lockedDir, "folder")
		if n := assertWholeCopies(t, f.lib, sources); n != 2 {
			t.Errorf("library holds %d files, want the 2 readable ones", n)
		}
	})
	t.Run("destination not writable", func(t *testing.T) {
		f := newPermFixture(t)
		sources := card(t, f.src, 2, 2<<10)
		if err := os.Chown(f.lib, 0, 0); err != nil {
			t.Fatal(err)
		}
		r := f.runAsNobody("sort", f.src, f.lib)
		if r.code != ExitFatal {
			t.Fatalf("want exit 1:\n%s", r)
		}
		assertPermissionMessage(t, r, f.lib, "folder")
		if n := assertWholeCopies(t, f.lib, sources); n != 0 {
			t.Errorf("library holds %d files, want none", n)
		}
	})
	t.Run("destination folder not writable", func(t *testing.T) {
		f := newPermFixture(t)
		sources := card(t, f.src, 2, 2<<10)
		dayDir := filepath.Join(f.lib, "2019", "2019-07-01")
		if err := os.MkdirAll(dayDir, 0o755); err != nil {
			t.Fatal(err)
		}
		os.Chown(filepath.Dir(dayDir), nobody, nobody) // the year is the user's, the day is not
		r := f.runAsNobody("sort", f.src, f.lib)
		if r.code != ExitIncomplete {
			t.Fatalf("want exit 3:\n%s", r)
		}
		assertPermissionMessage(t, r, dayDir, "folder")
		if n := assertWholeCopies(t, f.lib, sources); n != 1 {
			t.Errorf("library holds %d files, want the 1 whose folder is writable", n)
		}
	})
}

// TestSourceIsDestination: sorting a folder onto itself, however spelled,
// is a usage error and touches nothing.
func TestSourceIsDestination(t *testing.T) {
	base := t.TempDir()
	lib := filepath.Join(base, "lib")
	sources := card(t, lib, 2, 1<<10)
	link := filepath.Join(base, "link")
	fsxtest.Symlink(t, lib, link)
	for _, args := range [][]string{
		{lib, lib}, {lib + "/", lib}, {lib, lib + "/."}, {filepath.Join(lib, "..", "lib"), lib}, {link, lib},
	} {
		r := shoebox(append([]string{"sort"}, args...)...)
		if r.code != ExitUsage {
			t.Errorf("sort %q: want exit 2:\n%s", args, r)
		}
		if !strings.Contains(r.stderr, "destination") {
			t.Errorf("sort %q: stderr should say the source is the destination:\n%s", args, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(lib, ".shoebox")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused run created %s/.shoebox (%v)", lib, err)
	}
	if n := len(libraryFiles(t, lib)); n != len(sources) {
		t.Errorf("folder holds %d files, want the %d untouched", n, len(sources))
	}
	assertSourcesIntact(t, lib, sources)
}

// TestHostileCorpusThroughSortDryRun: every fuzzer-found file through the
// real command; it must finish with a summary, never panic or hang.
func TestHostileCorpusThroughSortDryRun(t *testing.T) {
	slowUnderWine(t)
	corpus := fixture.CorpusDir(t)
	lib := filepath.Join(t.TempDir(), "lib")
	r := shoebox("sort", "--dry-run", "--hidden", filepath.Join(corpus, "fuzzed"), filepath.Join(corpus, "hangs"), lib)
	if r.code != ExitOK && r.code != ExitIncomplete {
		t.Fatalf("want exit 0 or 3:\n%s", r)
	}
	if !strings.Contains(r.stdout, "dry run: nothing was changed") {
		t.Errorf("no dry-run summary:\n%s", r)
	}
	if _, err := os.Stat(lib); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("dry run created the library (%v)", err)
	}
}
