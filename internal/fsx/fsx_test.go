package fsx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// noReplaceRenames are every implementation of the no-replace rename,
// including (unix_test.go) the fallbacks used where the system's call or
// hard links are missing.
var noReplaceRenames = map[string]func(oldpath, newpath string) error{
	"native": OS.RenameNoReplace,
}

func TestRenameNoReplaceMovesFile(t *testing.T) {
	for name, rename := range noReplaceRenames {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
			writeFile(t, a, "alpha")
			if err := rename(a, b); err != nil {
				t.Fatalf("rename: %v", err)
			}
			if _, err := os.Lstat(a); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("old path still there: %v", err)
			}
			if got := readFile(t, b); got != "alpha" {
				t.Errorf("new path holds %q", got)
			}
		})
	}
}

func TestRenameNoReplaceNeverOverwrites(t *testing.T) {
	for name, rename := range noReplaceRenames {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
			writeFile(t, a, "alpha")
			writeFile(t, b, "bravo")
			err := rename(a, b)
			if !errors.Is(err, fs.ErrExist) {
				t.Fatalf("rename onto existing file: err = %v, want fs.ErrExist", err)
			}
			if readFile(t, a) != "alpha" || readFile(t, b) != "bravo" {
				t.Error("a file changed although the rename was refused")
			}
		})
	}
}

func TestSyncDir(t *testing.T) {
	dir := t.TempDir()
	if err := OS.SyncDir(dir); err != nil {
		t.Fatalf("SyncDir(%q): %v", dir, err)
	}
	if err := OS.SyncDir(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("SyncDir of a missing dir: err = %v, want ErrNotExist", err)
	}
}

func TestCloneCopiesOrReportsUnsupported(t *testing.T) {
	dir := t.TempDir()
	srcPath, dstPath := filepath.Join(dir, "src"), filepath.Join(dir, "dst")
	writeFile(t, srcPath, "reflink me")
	src, err := OS.Open(srcPath)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := OS.OpenFile(dstPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	err = OS.Clone(dst, src)
	if err != nil {
		if !errors.Is(err, errors.ErrUnsupported) {
			t.Fatalf("Clone: %v, want nil or ErrUnsupported", err)
		}
		t.Logf("this filesystem has no reflinks: %v", err)
		return
	}
	if got := readFile(t, dstPath); got != "reflink me" {
		t.Errorf("clone holds %q", got)
	}
}

func TestIsPermanent(t *testing.T) {
	cases := map[syscall.Errno]bool{
		syscall.ENOSPC: true, syscall.EDQUOT: true, syscall.EACCES: true,
		syscall.EPERM: true, syscall.EROFS: true, syscall.ENAMETOOLONG: true,
		syscall.EINTR: false, syscall.EAGAIN: false, syscall.EIO: false,
	}
	for errno, want := range cases {
		wrapped := &os.PathError{Op: "write", Path: "/x", Err: errno}
		if got := IsPermanent(wrapped); got != want {
			t.Errorf("IsPermanent(%v) = %v, want %v", errno, got, want)
		}
	}
	if IsPermanent(nil) {
		t.Error("IsPermanent(nil) = true")
	}
}

func TestHint(t *testing.T) {
	for errno, want := range map[syscall.Errno]string{
		syscall.ENOSPC: "the destination is full",
		syscall.EROFS:  "is the disk or share mounted read-only?",
	} {
		if got := Hint(&os.PathError{Op: "open", Path: "/x", Err: errno}); got != want {
			t.Errorf("Hint(%v) = %q, want %q", errno, got, want)
		}
	}
	if Hint(syscall.EXDEV) == "" {
		t.Error("no hint for EXDEV")
	}
	if Hint(errors.New("odd")) != "" {
		t.Error("hint for an unknown error")
	}
}

// A permission hint names what the path is: a file, a folder, or (for a
// path being created) the folder it goes in.
func TestPermissionHintSaysFileOrFolder(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.jpg")
	writeFile(t, file, "x")
	for path, want := range map[string]string{
		file:                          "check the file's permissions",
		dir:                           "check the folder's permissions",
		filepath.Join(dir, "new.jpg"): "check the folder's permissions",
	} {
		if got := Hint(&os.PathError{Op: "open", Path: path, Err: syscall.EACCES}); got != want {
			t.Errorf("Hint(EACCES on %s) = %q, want %q", path, got, want)
		}
	}
	if got := Hint(syscall.EACCES); got != "check the permissions" {
		t.Errorf("Hint(EACCES without a path) = %q", got)
	}
	if got := Hint(&os.PathError{Op: "stat", Path: "/nowhere", Err: syscall.ENOENT}); got != "" {
		t.Errorf("a missing path is not said to have vanished: Hint = %q", got)
	}
}

// Bare shortens a path error's text for a message that names the path
// already, and keeps the error in the chain.
func TestBareKeepsTheChain(t *testing.T) {
	_, err := os.Open("/nowhere/at/all")
	wrapped := fmt.Errorf("read config %q: %w", "/nowhere/at/all", Bare(err))
	// The system's own words for a missing path ("no such file or
	// directory", Windows' "Path not found."), with no "open /nowhere...".
	if got := wrapped.Error(); got != `read config "/nowhere/at/all": `+err.(*os.PathError).Err.Error() || strings.Count(got, "nowhere") != 1 {
		t.Errorf("message = %q", got)
	}
	var pe *os.PathError
	if !errors.Is(wrapped, fs.ErrNotExist) || !errors.As(wrapped, &pe) || pe.Path != "/nowhere/at/all" {
		t.Errorf("chain lost: %v", wrapped)
	}
	plain := errors.New("odd")
	if Bare(plain) != plain {
		t.Error("Bare changed an error that is not a path error")
	}
}

func TestDevIno(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	writeFile(t, a, "x")
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	fa, _ := os.Lstat(a)
	fb, _ := os.Lstat(b)
	devA, inoA := DevIno(fa)
	devB, inoB := DevIno(fb)
	if inoA == 0 || devA != devB || inoA != inoB {
		t.Errorf("hard links report (%d,%d) and (%d,%d)", devA, inoA, devB, inoB)
	}
}

func TestFaultsFireAfterNCallsForTimes(t *testing.T) {
	dir := t.TempDir()
	f := NewFaults(OS).Add(Rule{Op: "remove", Path: "victim", After: 1, Times: 1, Err: syscall.EACCES})
	for i, want := range []error{nil, syscall.EACCES, nil} {
		p := filepath.Join(dir, "victim")
		writeFile(t, p, "x")
		err := f.Remove(p)
		if want == nil && err != nil || want != nil && !errors.Is(err, want) {
			t.Errorf("call %d: err = %v, want %v", i, err, want)
		}
	}
	other := filepath.Join(dir, "other")
	writeFile(t, other, "x")
	if err := f.Remove(other); err != nil {
		t.Errorf("path that does not match: %v", err)
	}
}

func TestFaultsCreateVersusOpen(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing")
	writeFile(t, existing, "x")
	f := NewFaults(OS).Add(Rule{Op: "create", Err: syscall.EROFS})
	if file, err := f.Open(existing); err != nil {
		t.Errorf("open for reading hit the create rule: %v", err)
	} else {
		file.Close()
	}
	_, err := f.OpenFile(filepath.Join(dir, "new"), os.O_WRONLY|os.O_CREATE, 0o644)
	if !errors.Is(err, syscall.EROFS) {
		t.Errorf("create: err = %v, want EROFS", err)
	}
}

func TestFaultsRenameMatchesEitherPath(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a")
	writeFile(t, a, "x")
	f := NewFaults(OS).Add(Rule{Op: "rename", Path: "target", Err: syscall.EXDEV})
	if err := f.RenameNoReplace(a, filepath.Join(dir, "target")); !errors.Is(err, syscall.EXDEV) {
		t.Errorf("rename to matching path: err = %v, want EXDEV", err)
	}
	if err := f.RenameNoReplace(a, filepath.Join(dir, "b")); err != nil {
		t.Errorf("rename to other path: %v", err)
	}
}

func openForWrite(t *testing.T, f *Faults, path string) File {
	t.Helper()
	file, err := f.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { file.Close() })
	return file
}

func TestFaultsShortWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	f := NewFaults(OS).Add(Rule{Op: "write", Short: true})
	n, err := openForWrite(t, f, p).Write([]byte("12345678"))
	if n != 4 || err != nil {
		t.Errorf("short write = (%d, %v), want (4, nil)", n, err)
	}
	if got := readFile(t, p); got != "1234" {
		t.Errorf("file holds %q", got)
	}

	q := filepath.Join(dir, "g")
	f = NewFaults(OS).Add(Rule{Op: "write", Short: true, Err: io.ErrShortWrite})
	if _, err := openForWrite(t, f, q).Write([]byte("1234")); !errors.Is(err, io.ErrShortWrite) {
		t.Errorf("short write with error: err = %v", err)
	}
}

func TestFaultsCorruptWriteIsSilent(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	f := NewFaults(OS).Add(Rule{Op: "write", Corrupt: true})
	data := []byte("precious photo bytes")
	n, err := openForWrite(t, f, p).Write(data)
	if n != len(data) || err != nil {
		t.Fatalf("corrupt write = (%d, %v), want full success", n, err)
	}
	got := []byte(readFile(t, p))
	if bytes.Equal(got, data) || len(got) != len(data) {
		t.Errorf("file holds %q: want same length, one byte flipped", got)
	}
	if string(data) != "precious photo bytes" {
		t.Error("corruption modified the caller's buffer")
	}
}

func TestFaultsSyncAndCrashPoint(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	f := NewFaults(OS).Add(Rule{Op: "sync", Err: syscall.EIO})
	if err := openForWrite(t, f, p).Sync(); !errors.Is(err, syscall.EIO) {
		t.Errorf("sync: err = %v, want EIO", err)
	}
	var points []string
	f.OnCrashPoint(func(p string) { points = append(points, p) })
	CrashPoint(f, AfterSync)
	CrashPoint(OS, AfterSync) // the real FS ignores crash points
	if len(points) != 1 || points[0] != AfterSync {
		t.Errorf("crash points seen: %v", points)
	}
}

func TestFaultsCalls(t *testing.T) {
	dir := t.TempDir()
	f := NewFaults(OS)
	f.SyncDir(dir)
	f.MkdirAll(filepath.Join(dir, "x"), 0o755)
	f.SyncDir(filepath.Join(dir, "x"))
	got := f.Calls("syncdir")
	if len(got) != 2 || got[0] != dir || got[1] != filepath.Join(dir, "x") {
		t.Errorf("Calls(syncdir) = %q", got)
	}
}

// TestOpenFileDoesNotBlockOthers: while shoebox holds a file open, it (or
// another program) may still rename and delete it. On Windows this takes
// FILE_SHARE_DELETE, which os.OpenFile does not give.
func TestOpenFileDoesNotBlockOthers(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "held.jpg")
	writeFile(t, p, "photo")
	for _, flag := range []int{os.O_RDONLY, os.O_RDWR} {
		f, err := OS.OpenFile(p, flag, 0)
		if err != nil {
			t.Fatal(err)
		}
		moved := filepath.Join(dir, "moved.jpg")
		if err := OS.RenameNoReplace(p, moved); err != nil {
			t.Fatalf("rename of an open file (flag %d): %v", flag, err)
		}
		if err := OS.Rename(moved, p); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	f, err := OS.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := OS.Remove(p); err != nil {
		t.Fatalf("remove of an open file: %v", err)
	}
}
