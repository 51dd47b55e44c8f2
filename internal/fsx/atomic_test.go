package fsx

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// WriteFile puts a whole file in place or nothing: a fill that fails, a
// refused replacement and an existing file under no-replace all leave
// what was there and no temp behind.
func TestWriteFileIsWholeOrNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	write := func(text string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, text); return err }
	}
	allow := func(string) error { return nil }
	if err := WriteFile(OS, path, 0o644, write("one"), nil); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(OS, path, 0o644, write("two"), nil); !errors.Is(err, fs.ErrExist) {
		t.Errorf("no-replace over an existing file: %v, want fs.ErrExist", err)
	}
	boom := errors.New("boom")
	if err := WriteFile(OS, path, 0o644, func(w io.Writer) error { io.WriteString(w, "half"); return boom }, allow); !errors.Is(err, boom) {
		t.Errorf("failed fill: %v", err)
	}
	refused := errors.New("not ours")
	if err := WriteFile(OS, path, 0o644, write("three"), func(string) error { return refused }); !errors.Is(err, refused) {
		t.Errorf("refused replacement: %v", err)
	}
	assertContent(t, path, "one")
	if err := WriteFile(OS, path, 0o644, write("four"), allow); err != nil {
		t.Fatal(err)
	}
	assertContent(t, path, "four")
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temps left behind: %v", entries)
	}
}

// Under the fault injector: a failing write, short write, sync or rename
// leaves the old file whole and no temp behind.
func TestWriteFileUnderFaults(t *testing.T) {
	for _, rule := range []Rule{
		{Op: "write", Err: errors.New("EIO")},
		{Op: "write", Short: true, Err: errors.New("ENOSPC")},
		{Op: "sync", Err: errors.New("EIO")},
		{Op: "rename", Err: errors.New("EIO")},
	} {
		t.Run(rule.Op, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "report.html")
			if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			fsys := NewFaults(OS).Add(rule)
			err := WriteFile(fsys, path, 0o644, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err },
				func(string) error { return nil })
			if err == nil {
				t.Fatalf("%+v was not reported", rule)
			}
			assertContent(t, path, "old")
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.Contains(e.Name(), ".shoebox-tmp-") {
					t.Errorf("temp left behind: %s", e.Name())
				}
			}
		})
	}
}

func assertContent(t *testing.T, path, want string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || string(b) != want {
		t.Errorf("%s holds %q (%v), want %q", path, b, err, want)
	}
}
