package fsx

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/windows"
)

// TestWindowsErrorsHavePOSIXClass: a Windows error keeps its message but
// answers errors.Is for the POSIX class shoebox decides on.
func TestWindowsErrorsHavePOSIXClass(t *testing.T) {
	full := portable(&fs.PathError{Op: "write", Path: `C:\lib\a.jpg`, Err: windows.ERROR_DISK_FULL})
	if !errors.Is(full, syscall.ENOSPC) || !errors.Is(full, windows.ERROR_DISK_FULL) || !IsPermanent(full) {
		t.Errorf("disk full: %v is not ENOSPC and permanent", full)
	}
	if Hint(full) != "the destination is full" {
		t.Errorf("disk full hint: %q", Hint(full))
	}
	// Unwrapped by portable: IsPermanent and Hint still see the class.
	if raw := error(&fs.PathError{Op: "write", Path: "x", Err: windows.ERROR_ACCESS_DENIED}); !IsPermanent(raw) {
		t.Errorf("access denied is not permanent")
	}
	xdev := portable(&os.LinkError{Op: "rename", Old: "a", New: "b", Err: windows.ERROR_NOT_SAME_DEVICE})
	if !errors.Is(xdev, syscall.EXDEV) {
		t.Errorf("another volume: %v is not EXDEV", xdev)
	}
	priv := portable(&os.LinkError{Op: "symlink", Old: "a", New: "b", Err: windows.ERROR_PRIVILEGE_NOT_HELD})
	if h := Hint(priv); h == "" || !errors.Is(priv, syscall.EPERM) {
		t.Errorf("symlink privilege: hint %q", h)
	}
}

// TestRenameNoReplaceOnWindowsReportsExist: MoveFileEx's refusal is both
// fs.ErrExist and EEXIST, and leaves both files as they were.
func TestRenameNoReplaceOnWindowsReportsExist(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	writeFile(t, a, "new")
	writeFile(t, b, "old")
	err := OS.RenameNoReplace(a, b)
	if !errors.Is(err, fs.ErrExist) || !errors.Is(err, syscall.EEXIST) {
		t.Fatalf("rename onto an existing file: %v", err)
	}
	if readFile(t, a) != "new" || readFile(t, b) != "old" {
		t.Error("a refused rename changed a file")
	}
}

// TestLongPath: a path past the classic 260-character limit opens.
func TestLongPath(t *testing.T) {
	dir := t.TempDir()
	deep := dir
	for len(deep) < 300 {
		deep = filepath.Join(deep, "a-rather-long-folder-name")
	}
	if err := OS.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(deep, "photo.jpg")
	f, err := OS.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		t.Fatalf("create %d-character path: %v", len(p), err)
	}
	f.Close()
	if err := OS.RenameNoReplace(p, p+".2"); err != nil {
		t.Fatalf("rename %d-character path: %v", len(p), err)
	}
}
