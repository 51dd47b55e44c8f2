package fsxtest

import (
	"os"
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
