//go:build unix

package cli

import (
	"os/exec"
	"syscall"
)

// runAsUser makes cmd run as uid (and the group of the same number).
func runAsUser(cmd *exec.Cmd, uid uint32) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
}
