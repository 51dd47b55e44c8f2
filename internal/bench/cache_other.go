//go:build !linux

package bench

import (
	"errors"
	"os/exec"
)

// dropCaches is Linux-only here: elsewhere every row is warm only.
func dropCaches() error {
	return errors.New("dropping the page cache is not supported on this OS: warm only")
}

func childIO(*exec.Cmd) IO { return IO{} }
