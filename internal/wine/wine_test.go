package wine

import (
	"os"
	"runtime"
	"testing"
)

// Under .ci/wine/test.sh the answer must be yes (WINEPREFIX is passed on
// to the Windows program); on Linux it is no.
func TestRunning(t *testing.T) {
	_, underWine := os.LookupEnv("WINEPREFIX")
	want := runtime.GOOS == "windows" && underWine
	if got := Running(); got != want {
		t.Errorf("Running() = %v, want %v (GOOS %s, WINEPREFIX set %v)", got, want, runtime.GOOS, underWine)
	}
}
