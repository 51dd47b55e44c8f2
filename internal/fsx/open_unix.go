//go:build unix

package fsx

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// openRegular opens with O_NONBLOCK, so a FIFO without a writer (or a
// device that would wait) returns at once, then checks with fstat what was
// really opened, and only then clears O_NONBLOCK: reads of a regular file
// never block anyway, and the *os.File must not be put on the poller.
func openRegular(name string, followLinks bool) (*os.File, error) {
	return openRegularAs(name, name, followLinks)
}

// openRegularAs is openRegular of the file at path, named name (in the
// *os.File and in errors): path is name reached through a pinned root.
func openRegularAs(path, name string, followLinks bool) (*os.File, error) {
	fd, _, err := openRegularFdAs(path, name, followLinks)
	if err != nil {
		return nil, err
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, &os.PathError{Op: "fcntl", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), name), nil
}

// openRegularFd opens name non-blocking and returns the descriptor only if
// fstat says it is a regular file; the descriptor is still O_NONBLOCK.
func openRegularFd(name string, followLinks bool) (int, *unix.Stat_t, error) {
	return openRegularFdAs(name, name, followLinks)
}

func openRegularFdAs(path, name string, followLinks bool) (int, *unix.Stat_t, error) {
	flags := unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC
	if !followLinks {
		flags |= unix.O_NOFOLLOW
	}
	fd, err := openRetryingEINTR(path, flags)
	if err != nil {
		return -1, nil, openErr(name, followLinks, err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, nil, &os.PathError{Op: "stat", Path: name, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return -1, nil, notRegular(name, modeOf(uint32(st.Mode))) // uint16 on FreeBSD and macOS
	}
	return fd, &st, nil
}

// openErr names what is at name when the open itself refused it: a link
// under O_NOFOLLOW (ELOOP), a socket (ENXIO), a device with no driver
// (ENXIO, ENODEV).
func openErr(name string, followLinks bool, err error) error {
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENXIO) || errors.Is(err, unix.ENODEV) {
		stat := os.Stat
		if !followLinks {
			stat = os.Lstat
		}
		if fi, serr := stat(name); serr == nil && !fi.Mode().IsRegular() {
			return notRegular(name, fi.Mode())
		}
	}
	return &os.PathError{Op: "open", Path: name, Err: err}
}

func openRetryingEINTR(name string, flags int) (int, error) {
	for {
		fd, err := unix.Open(name, flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// modeOf turns the type bits of a stat mode into an os.FileMode type.
func modeOf(m uint32) os.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFDIR:
		return os.ModeDir
	case unix.S_IFLNK:
		return os.ModeSymlink
	case unix.S_IFIFO:
		return os.ModeNamedPipe
	case unix.S_IFSOCK:
		return os.ModeSocket
	case unix.S_IFCHR:
		return os.ModeDevice | os.ModeCharDevice
	case unix.S_IFBLK:
		return os.ModeDevice
	}
	return os.ModeIrregular
}
