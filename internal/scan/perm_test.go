//go:build unix

// Running the walk as another user (uid 65534) is a Unix facility.

package scan

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// Root ignores permission bits, and CI runs as root. To see what an
// ordinary user sees, the test binary re-runs itself as "nobody" with
// childEnv set; TestMain then walks the given root and prints the outcome
// as JSON instead of running tests.
const childEnv = "SHOEBOX_SCAN_CHILD_ROOT"

func TestMain(m *testing.M) {
	if root := os.Getenv(childEnv); root != "" {
		os.Exit(childWalk(root))
	}
	os.Exit(m.Run())
}

type childOutcome struct {
	Files    []string
	Problems []childProblem
}

type childProblem struct{ Path, Op, Err string }

func childWalk(root string) int {
	r := walk(&noTB{}, []string{root}, Options{})
	var out childOutcome
	for _, f := range r.files {
		out.Files = append(out.Files, f.Path)
	}
	for _, p := range r.problems {
		out.Problems = append(out.Problems, childProblem{p.Path, p.Op, p.Err.Error()})
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil || r.err != nil {
		return 1
	}
	return 0
}

// noTB lets the test helpers run outside a test, in the child process.
type noTB struct{ testing.TB }

func (noTB) Helper()               {}
func (noTB) Fatal(args ...any)     { panic(args) }
func (noTB) Fatalf(string, ...any) { panic("fatal") }

func TestWalkReportsUnreadableDirsAndGoesOn(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "src")
	buildTree(t, root, map[string]node{
		"ok/a.jpg":       file("a"),
		"locked/b.jpg":   file("b"),
		"locked":         withMode(dir(), 0o000),
		"listonly/c.jpg": file("c"),
		"listonly":       withMode(dir(), 0o444), // names readable, entries not statable
		"z.jpg":          file("z"),
	})
	var out childOutcome
	if os.Geteuid() == 0 {
		out = walkAsNobody(t, base, root)
	} else {
		r := walk(t, []string{root}, Options{})
		must(t, r.err)
		for _, f := range r.files {
			out.Files = append(out.Files, f.Path)
		}
		for _, p := range r.problems {
			out.Problems = append(out.Problems, childProblem{p.Path, p.Op, p.Err.Error()})
		}
	}
	slices.Sort(out.Files)
	wantFiles := []string{filepath.Join(root, "ok/a.jpg"), filepath.Join(root, "z.jpg")}
	if !slices.Equal(out.Files, wantFiles) {
		t.Errorf("files = %q, want %q", out.Files, wantFiles)
	}
	slices.SortFunc(out.Problems, func(a, b childProblem) int { return strings.Compare(a.Path, b.Path) })
	want := []childProblem{
		{filepath.Join(root, "listonly/c.jpg"), "lstat", "permission denied"},
		{filepath.Join(root, "locked"), "open", "permission denied"},
	}
	if !slices.Equal(out.Problems, want) {
		t.Errorf("problems = %+v, want %+v", out.Problems, want)
	}
}

// walkAsNobody copies the test binary where nobody may run it, opens the
// tree's parents to nobody, and runs the child walk as uid/gid 65534.
func walkAsNobody(t *testing.T, base, root string) childOutcome {
	t.Helper()
	for _, d := range []string{filepath.Dir(base), base, root} {
		must(t, os.Chmod(d, 0o755))
	}
	self, err := os.Executable()
	must(t, err)
	bin := filepath.Join(base, "scan.test")
	copyFile(t, self, bin)
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), childEnv+"="+root)
	cmd.Dir = base
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	stdout, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		if len(stdout) == 0 {
			t.Skipf("cannot drop privileges to uid 65534 to test permission errors as root: %v %s", err, stderr)
		}
		t.Fatalf("child walk failed: %v\n%s\n%s", err, stdout, stderr)
	}
	var out childOutcome
	must(t, json.Unmarshal(stdout, &out))
	return out
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	must(t, err)
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	must(t, err)
	_, err = io.Copy(dst, src)
	must(t, err)
	must(t, dst.Close())
}
