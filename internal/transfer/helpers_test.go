package transfer

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
)

// fixture is a source tree and a library tree in one temp dir.
type fixture struct {
	t        *testing.T
	src, lib string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	root := t.TempDir()
	f := &fixture{t: t, src: filepath.Join(root, "src"), lib: filepath.Join(root, "lib")}
	for _, d := range []string{f.src, f.lib} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// file writes a source file with a fixed old mtime and returns its path.
func (f *fixture) file(name, content string) string {
	f.t.Helper()
	return writeSource(f.t, filepath.Join(f.src, name), content)
}

func writeSource(t *testing.T, p, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2019, 7, 14, 10, 30, 0, 123456789, time.UTC)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	return p
}

// op describes src as a scan would have seen it.
func op(t *testing.T, mode Mode, src, dst string) Op {
	t.Helper()
	fi, err := os.Lstat(src)
	if err != nil {
		t.Fatal(err)
	}
	return Op{Mode: mode, Src: src, Dst: dst, Size: fi.Size(), ModTime: fi.ModTime()}
}

func do(t *testing.T, opt Options, o Op) Result {
	t.Helper()
	return New(opt).Do(context.Background(), o)
}

func mustSucceed(t *testing.T, res Result) {
	t.Helper()
	if res.Err != nil {
		t.Fatalf("%s %s -> %s failed: %v", res.Op.Mode, res.Op.Src, res.Op.Dst, res.Err)
	}
}

func assertContent(t *testing.T, p, want string) {
	t.Helper()
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("read %s: %v", p, err)
	}
	if string(got) != want {
		t.Errorf("%s holds %q, want %q", p, got, want)
	}
}

func assertAbsent(t *testing.T, p string) {
	t.Helper()
	if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s exists (err %v), want nothing there", p, err)
	}
}

// assertNoTemps fails if any shoebox temp file is left under root.
func assertNoTemps(t *testing.T, root string) {
	t.Helper()
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && isTempName(d.Name()) {
			t.Errorf("temp file left behind: %s", p)
		}
		return nil
	})
}

// tempsIn lists the paths in dir that have the executor's temp form.
func tempsIn(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if isTempName(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

func assertErrContains(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q lacks %q", err, p)
		}
	}
}

// snapshot describes every entry under root, to prove a dry run changed
// nothing.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	snap := map[string]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		fi, _ := d.Info()
		desc := fi.Mode().String() + " " + fi.ModTime().String()
		switch {
		case fi.Mode().IsRegular():
			b, _ := os.ReadFile(p)
			desc += " " + string(b)
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			desc += " -> " + target
		}
		snap[p] = desc
		return nil
	})
	return snap
}

func faults() *fsx.Faults { return fsx.NewFaults(fsx.OS) }

var time0 = time.Unix(0, 0)
