package pipeline

import (
	"os"
	"os/exec"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx"
)

// The kill tests run a child test that sorts and dies (exit 137, as
// SIGKILLed) at a crash point; the parent then checks what is left.

// dieAt is a fault injector that ends the process with exit 137 the first
// time the run reaches a crash point die picks.
func dieAt(die func(point string) bool) *fsx.Faults {
	f := fsx.NewFaults(fsx.OS)
	f.OnCrashPoint(func(p string) {
		if die(p) {
			os.Exit(137)
		}
	})
	return f
}

// runDyingChild runs the test named test in a child process, with env
// added to this one's, and fails unless it died at its crash point.
func runDyingChild(t *testing.T, test string, env ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 137 {
		t.Fatalf("%s did not die at its crash point: %v\n%s", test, err, out)
	}
}
