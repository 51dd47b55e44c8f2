//go:build unix

package cli

import (
	"os"
	"testing"
)

// deniedText is what a refused open says.
const deniedText = "permission denied"

// lockFile makes a source photo unreadable to the run: mode 000.
func lockFile(t *testing.T, p string) { lock(t, p, 0o000) }

// lockFolder makes a source folder unlistable: mode 000.
func lockFolder(t *testing.T, p string) { lock(t, p, 0o000) }

// lockDestFolder makes a library folder unwritable (mode 555) and says it
// could.
func lockDestFolder(t *testing.T, p string) bool {
	lock(t, p, 0o555)
	return true
}

// lock sets a mode and restores a removable one at the end, so the temp
// dir can be cleaned up.
func lock(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(p, 0o755) })
}

// reportMode is the mode a report is written with.
const reportMode os.FileMode = 0o644
