package cli

import (
	"errors"
	"os"
	"runtime"
	"syscall"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/wine"
)

// symlink makes link point to target, or skips the test where symbolic
// links cannot be made: Wine 8 reports one made but makes none (a Wine
// limitation, listed in docs/platforms.md), and Windows refuses them
// without Developer Mode or an administrator.
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if wine.Running() {
		t.Skip("needs a symbolic link: Wine 8 reports one made but makes none")
	}
	if err := os.Symlink(target, link); err != nil {
		if runtime.GOOS == "windows" && errors.Is(err, syscall.Errno(1314)) { // ERROR_PRIVILEGE_NOT_HELD
			t.Skipf("needs a symbolic link: Windows allows them with Developer Mode or as administrator: %v", err)
		}
		t.Fatal(err)
	}
}

// slowUnderWine skips a test that reads the shared sample corpus when it
// runs under Wine, unless SHOEBOX_WINE_FULL=1: every file costs a Wine
// system call round trip there, so one pass over the corpus takes minutes
// (TestExplainAgreesWithSort's took 350 s), and what these tests check —
// the metadata readers and the planner over odd files — is platform
// independent and runs on Linux every time.
func slowUnderWine(t *testing.T) {
	t.Helper()
	if wine.Running() && os.Getenv("SHOEBOX_WINE_FULL") != "1" {
		t.Skip("the shared corpus takes minutes under Wine: run with SHOEBOX_WINE_FULL=1")
	}
}
