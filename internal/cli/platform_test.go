package cli

import (
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// slowUnderWine skips a test that reads the shared sample corpus when it
// runs under Wine, unless SHOEBOX_WINE_FULL=1: every file costs a Wine
// system call round trip there, so one pass over the corpus takes minutes
// (TestExplainAgreesWithSort's took 350 s), and what these tests check —
// the metadata readers and the planner over odd files — is platform
// independent and runs on Linux every time.
func slowUnderWine(t *testing.T) {
	t.Helper()
	if fsxtest.WineQuick() {
		t.Skip("the shared corpus takes minutes under Wine: run with SHOEBOX_WINE_FULL=1")
	}
}
