package fsxtest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// CrashExitCode is how a child dies at a crash point: the exit status of a
// process killed by SIGKILL, so the parent treats both deaths alike.
const CrashExitCode = 137

// crashPoints is what ExitAtCrashPoint needs of fsx.Faults (named by its
// method, so that fsx's own tests can import this package).
type crashPoints interface {
	OnCrashPoint(func(point string))
}

// ExitAtCrashPoint makes the process exit with CrashExitCode, as if
// SIGKILLed, the nth time any goroutine reaches the crash point that spec
// names as "<point>:<n>" (n ≥ 1).
func ExitAtCrashPoint(fsys crashPoints, spec string) error {
	point, n, ok := strings.Cut(spec, ":")
	nth, err := strconv.ParseInt(n, 10, 64)
	if !ok || err != nil || nth < 1 {
		return fmt.Errorf("crash point %q: want <crash point>:<n>", spec)
	}
	var seen atomic.Int64
	fsys.OnCrashPoint(func(p string) {
		if p == point && seen.Add(1) == nth {
			crash(CrashExitCode)
		}
	})
	return nil
}

// Never, as RunKilled's killAfter, lets the command run to its end.
const Never time.Duration = -1

// RunKilled runs cmd and SIGKILLs it after killAfter (at once for 0) if
// it is still running, unless killAfter is Never; it returns the combined
// output and exit code (-1 when a signal ended it). It fails the test only
// when cmd could not run at all.
func RunKilled(t testing.TB, cmd *exec.Cmd, killAfter time.Duration) (out string, code int) {
	t.Helper()
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %q: %v", cmd.Args, err)
	}
	if killAfter != Never {
		timer := time.AfterFunc(killAfter, func() { cmd.Process.Kill() })
		defer timer.Stop()
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%q: %v\n%s", cmd.Args, err, buf.String())
	}
	return buf.String(), cmd.ProcessState.ExitCode()
}

// RunCrashChild re-executes this test binary to run only the test named
// test, with env added, and fails unless it died at its crash point
// (exit CrashExitCode). The child finds its orders in env.
func RunCrashChild(t testing.TB, test string, env ...string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	if out, code := RunKilled(t, cmd, 2*time.Minute); code != CrashExitCode {
		t.Fatalf("%s child: exit %d (want %d)\n%s", test, code, CrashExitCode, out)
	}
}
