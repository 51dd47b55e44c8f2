package bench

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// dropCaches writes back dirty pages and empties the page, dentry and
// inode caches, so the next run reads from the storage itself. It needs
// root; the error says why it could not.
func dropCaches() error {
	unix.Sync()
	if err := os.WriteFile("/proc/sys/vm/drop_caches", []byte("3"), 0); err != nil {
		return fmt.Errorf("cannot drop the page cache (needs root on Linux): %w", err)
	}
	return nil
}

// childIO is what an external command read and wrote, from its rusage
// (blocks of 512 bytes); rchar is not kept for children.
func childIO(cmd *exec.Cmd) IO {
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return IO{}
	}
	return IO{ReadBytes: ru.Inblock * 512, WriteBytes: ru.Oublock * 512, RChar: -1, OK: true}
}
