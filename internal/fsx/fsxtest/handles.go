package fsxtest

import (
	"os"
	"runtime"
)

// OpenFiles counts the process's open file descriptors where the system
// lists them (/proc/self/fd on Linux), else -1: a test compares the count
// before and after a call to catch a handle it leaked. Where it is -1 the
// comparison holds trivially; on Windows a leaked handle shows instead as
// a TempDir cleanup that cannot remove the file. Under Wine a Windows
// program does read Linux's /proc/self/fd (Z: is /), but that lists Wine's
// own descriptors, which it caches beyond a handle's close.
func OpenFiles() int {
	if runtime.GOOS != "linux" {
		return -1
	}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(fds)
}
