package store

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A copy holds what the store held; writing to it changes nothing in the
// original, not even a file's change time or link count.
// Both ways: the file copy, and the key-by-key copy it falls back to.
func TestCopyOfLeavesTheOriginalUntouched(t *testing.T) {
	for name, copyOf := range map[string]func(src, dst string) (*Store, error){"files": CopyOf, "keys": copyByKey} {
		t.Run(name, func(t *testing.T) { testCopyOf(t, copyOf) })
	}
}

func testCopyOf(t *testing.T, copyOf func(src, dst string) (*Store, error)) {
	src := filepath.Join(t.TempDir(), "index")
	s, err := Open(src, Options{Disposable: true})
	if err != nil {
		t.Fatal(err)
	}
	w := s.Writer(100)
	for i := range 1000 {
		if err := w.Put([]byte(fmt.Sprintf("k/%04d", i)), []byte("v")); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	before := snapshotFolder(t, src)
	time.Sleep(20 * time.Millisecond) // a change time moved would show

	c, err := copyOf(src, filepath.Join(t.TempDir(), "copy"))
	if err != nil {
		t.Fatal(err)
	}
	v, ok, err := c.Get([]byte("k/0999"))
	if err != nil || !ok || string(v) != "v" {
		t.Fatalf("the copy lost a key: %q %v %v", v, ok, err)
	}
	if err := c.DeletePrefix([]byte("k/")); err != nil {
		t.Fatal(err)
	}
	w = c.Writer(1)
	if err := w.Put([]byte("new"), []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := firstError(w.Flush(), c.Close()); err != nil {
		t.Fatal(err)
	}
	if after := snapshotFolder(t, src); after != before {
		t.Fatalf("the original changed:\nbefore %s\nafter  %s", before, after)
	}
	r, err := Open(src, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, ok, _ := r.Get([]byte("k/0000")); !ok {
		t.Fatal("a key deleted in the copy is gone from the original")
	}
	if _, ok, _ := r.Get([]byte("new")); ok {
		t.Fatal("a key put in the copy is in the original")
	}
}

func TestCopyOfAMissingStoreFails(t *testing.T) {
	if _, err := CopyOf(filepath.Join(t.TempDir(), "none"), filepath.Join(t.TempDir(), "copy")); err == nil {
		t.Fatal("a copy of no store opened")
	}
}

func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// snapshotFolder lists each file's name, size, mtime and (where the
// platform has them) change time and link count.
func snapshotFolder(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var s string
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		s += fmt.Sprintf("%s %d %d %s;", e.Name(), fi.Size(), fi.ModTime().UnixNano(), statExtra(fi))
	}
	return s
}
