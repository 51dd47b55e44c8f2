package fsxtest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Symlink makes the symbolic link newname -> oldname for a test, or skips
// the test saying why it cannot: Windows refuses without Developer Mode or
// an administrator, and Wine 8 reports the link made but creates nothing
// (its CreateSymbolicLinkW is a stub). Any other failure fails the test.
func Symlink(t testing.TB, oldname, newname string) {
	t.Helper()
	err := os.Symlink(oldname, newname)
	if err != nil && runtime.GOOS == "windows" {
		t.Skipf("symbolic links: Windows refused one (Developer Mode or an administrator needed): %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(newname); err != nil && UnderWine() {
		t.Skipf("symbolic links: Wine 8 reports a link made that is not there: %v", err)
	} else if err != nil {
		t.Fatalf("symlink %s reported made but missing: %v", newname, err)
	}
}

// NeedSymlinks skips the test where symbolic links cannot be made (as
// Symlink says why), probing with a link to a file in a temporary folder:
// for tests whose links are made by the code under test (--mode symlink).
func NeedSymlinks(t testing.TB) {
	t.Helper()
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	Symlink(t, target, filepath.Join(dir, "link"))
}
