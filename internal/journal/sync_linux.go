package journal

import (
	"os"
	"syscall"
)

// fdatasync skips the inode-metadata flush that fsync adds; the size change
// of an appended file is still made durable.
func fdatasync(f *os.File) error {
	for {
		err := syscall.Fdatasync(int(f.Fd()))
		if err != syscall.EINTR {
			return err
		}
	}
}
