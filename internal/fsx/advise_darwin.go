package fsx

import "golang.org/x/sys/unix"

// adviseRandom switches readahead off for fd (fcntl F_RDAHEAD 0): the file
// is read in a few small pieces. Only advice: a failure changes nothing else.
func adviseRandom(fd int) { _, _ = unix.FcntlInt(uintptr(fd), unix.F_RDAHEAD, 0) }
