//go:build linux || freebsd

package fsx

import "golang.org/x/sys/unix"

// adviseRandom switches readahead off for fd (POSIX_FADV_RANDOM): the file
// is read in a few small pieces, and readahead would fetch several times
// their size from the disk. Only advice: a failure changes nothing else.
func adviseRandom(fd int) { _ = unix.Fadvise(fd, 0, 0, unix.FADV_RANDOM) }
