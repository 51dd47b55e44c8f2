package fsx

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

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

// TestOpenRegularOnWindows: a device (NUL), a folder and, without
// following links, a symbolic link are refused at once with their kind
// named; a regular file opens directly or through a followed link, and
// stays renamable and deletable while open (every sharing flag).
func TestOpenRegularOnWindows(t *testing.T) {
	dir := t.TempDir()
	photo := filepath.Join(dir, "photo.jpg")
	writeFile(t, photo, "bytes")
	type refusal struct {
		path   string
		follow bool
		kind   string
	}
	refused := []refusal{{"NUL", true, "character device"}, {dir, true, "directory"}}
	type opening struct {
		path   string
		follow bool
	}
	opened := []opening{{photo, false}, {photo, true}}
	link := filepath.Join(dir, "link.jpg")
	if symlinkOrLog(t, photo, link) {
		refused = append(refused, refusal{link, false, "symbolic link"})
		opened = append(opened, opening{link, true})
	}
	for _, c := range refused {
		f, err := OpenRegular(c.path, c.follow)
		if err == nil {
			f.Close()
			t.Errorf("OpenRegular(%q, %v) opened it; want it refused", c.path, c.follow)
			continue
		}
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), c.kind) {
			t.Errorf("OpenRegular(%q, %v): %v; want ErrNotRegular naming %q", c.path, c.follow, err, c.kind)
		}
	}
	for _, c := range opened {
		f, err := OpenRegular(c.path, c.follow)
		if err != nil {
			t.Errorf("OpenRegular(%q, %v): %v", c.path, c.follow, err)
			continue
		}
		got, err := io.ReadAll(f)
		f.Close()
		if err != nil || string(got) != "bytes" {
			t.Errorf("read %q: %q, %v", c.path, got, err)
		}
	}
	f, err := OpenRegular(photo, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	moved := filepath.Join(dir, "moved.jpg")
	if err := os.Rename(photo, moved); err != nil {
		t.Errorf("rename of a file OpenRegular holds: %v", err)
	}
}

// TestOpenNotLinkRefusesLinks: the lock's open (read-write, creating)
// refuses a link at its name without touching the file it names.
func TestOpenNotLinkRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	photo := filepath.Join(dir, "photo.jpg")
	writeFile(t, photo, "bytes")
	link := filepath.Join(dir, "lock")
	if !symlinkOrLog(t, photo, link) {
		t.Skip("no symbolic links here (see the log)")
	}
	if f, err := OpenNotLink(link, os.O_RDWR|os.O_CREATE, 0o644); !errors.Is(err, ErrIsLink) {
		if err == nil {
			f.Close()
		}
		t.Fatalf("OpenNotLink on a link: %v; want ErrIsLink", err)
	}
	f, err := OpenNotLink(filepath.Join(dir, "new"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatalf("OpenNotLink creating a file: %v", err)
	}
	f.Close()
	if got, _ := os.ReadFile(photo); string(got) != "bytes" {
		t.Errorf("the file behind the link changed: %q", got)
	}
}

// symlinkOrLog makes a symbolic link, or says why it cannot: Windows
// without Developer Mode refuses, and Wine 8 reports success but creates
// nothing (CreateSymbolicLinkW is a stub there).
func symlinkOrLog(t *testing.T, oldname, newname string) bool {
	t.Helper()
	if err := os.Symlink(oldname, newname); err != nil {
		t.Logf("no symbolic links (Developer Mode needed on Windows): %v", err)
		return false
	}
	if _, err := os.Lstat(newname); err != nil {
		t.Logf("the symbolic link was reported made but is not there (Wine 8): %v", err)
		return false
	}
	return true
}

// TestOpenRandomOnWindows: the header reader's opens ask CreateFile for
// FILE_FLAG_RANDOM_ACCESS with every sharing flag (Windows reports neither
// back from a handle, so the call is watched), read the file, refuse what
// is not a regular file, and do not block another program from renaming
// or deleting the file meanwhile.
func TestOpenRandomOnWindows(t *testing.T) {
	dir := t.TempDir()
	photo := filepath.Join(dir, "photo.jpg")
	writeFile(t, photo, "0123456789")
	if _, err := OpenRandom(dir, true); !errors.Is(err, ErrNotRegular) {
		t.Errorf("OpenRandom of a folder: %v; want ErrNotRegular", err)
	}
	orig := createFileW
	defer func() { createFileW = orig }()
	var attrs, share []uint32
	createFileW = func(name *uint16, access, mode uint32, sa *windows.SecurityAttributes, disp, flags uint32, tmpl windows.Handle) (windows.Handle, error) {
		attrs, share = append(attrs, flags), append(share, mode)
		return orig(name, access, mode, sa, disp, flags, tmpl)
	}
	for _, follow := range []bool{false, true} {
		attrs, share = nil, nil
		r, err := OpenRandom(photo, follow)
		if err != nil {
			t.Fatalf("OpenRandom(follow %v): %v", follow, err)
		}
		if len(attrs) == 0 {
			t.Errorf("follow %v: no CreateFile seen", follow)
		}
		for i := range attrs {
			if attrs[i]&windows.FILE_FLAG_RANDOM_ACCESS == 0 || share[i] != shareAll {
				t.Errorf("follow %v: CreateFile flags %#x, sharing %#x; want FILE_FLAG_RANDOM_ACCESS and %#x", follow, attrs[i], share[i], shareAll)
			}
		}
		b := make([]byte, 4)
		if n, err := r.ReadAt(b, 3); n != 4 || err != nil || string(b) != "3456" {
			t.Errorf("ReadAt(4 at 3) = %d %q %v", n, b[:n], err)
		}
		moved := filepath.Join(dir, "moved.jpg")
		if err := os.Rename(photo, moved); err != nil {
			t.Errorf("rename of a file OpenRandom holds: %v", err)
		} else if err := os.Rename(moved, photo); err != nil {
			t.Fatal(err)
		}
		r.Close()
	}
	attrs = nil
	f, err := OpenRegular(photo, false)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if len(attrs) == 0 || attrs[0]&windows.FILE_FLAG_RANDOM_ACCESS != 0 {
		t.Errorf("OpenRegular's CreateFile flags %#x: want no random-access hint (a copy reads sequentially)", attrs)
	}
	r, err := OpenRandom(photo, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := os.Remove(photo); err != nil {
		t.Errorf("delete of a file OpenRandom holds: %v", err)
	}
}

// IdentityAt gives what DevIno and ChangeTime give, from one open: the
// same file index for two hard links, and a change time that a rewrite
// moves even when the writer puts the mtime back.
func TestIdentityAtAgreesWithDevInoAndChangeTime(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	writeFile(t, a, "x")
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	info, err := os.Lstat(a)
	if err != nil {
		t.Fatal(err)
	}
	dev, ino := DevIno(info)
	gotDev, gotIno, ctime, ok := IdentityAt(a, false)
	if !ok || gotDev != dev || gotIno != ino || ino == 0 {
		t.Fatalf("IdentityAt(a) = %d, %d, ok %v; DevIno = %d, %d", gotDev, gotIno, ok, dev, ino)
	}
	if ctime == 0 || ctime != ChangeTime(a) {
		t.Errorf("IdentityAt's change time %d, ChangeTime's %d", ctime, ChangeTime(a))
	}
	if d, i, _, _ := IdentityAt(b, false); d != dev || i != ino {
		t.Errorf("the hard link b is %d, %d; a is %d, %d", d, i, dev, ino)
	}
	time.Sleep(20 * time.Millisecond)
	writeFile(t, a, "y")
	if err := os.Chtimes(a, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if _, _, after, _ := IdentityAt(a, false); after == ctime {
		t.Errorf("a rewrite with the mtime put back left the change time at %d", after)
	}
	if _, _, _, ok := IdentityAt(filepath.Join(dir, "missing"), false); ok {
		t.Error("IdentityAt of a missing file is ok")
	}
}
