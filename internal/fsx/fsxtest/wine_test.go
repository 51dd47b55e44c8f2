package fsxtest

import (
	"os"
	"runtime"
	"testing"
)

// TestUnderWine: false on every system but Windows; on Windows it agrees
// with the environment .ci/wine/exec.sh gives the test binaries it runs
// under Wine (WINEPREFIX is Wine's, Windows never sets it).
func TestUnderWine(t *testing.T) {
	_, wineEnv := os.LookupEnv("WINEPREFIX")
	want := runtime.GOOS == "windows" && wineEnv
	if got := UnderWine(); got != want {
		t.Errorf("UnderWine() = %v on %s (WINEPREFIX set: %v), want %v", got, runtime.GOOS, wineEnv, want)
	}
}
