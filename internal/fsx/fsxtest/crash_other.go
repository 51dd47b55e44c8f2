//go:build !windows

package fsxtest

import "os"

// crash ends the process at once with code (exit_group: no deferred
// function or buffered write of the run's runs after it).
func crash(code int) { os.Exit(code) }
