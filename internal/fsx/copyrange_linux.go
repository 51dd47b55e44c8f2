package fsx

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// Filesystems whose copy_file_range writes new blocks: ext2/3/4 and tmpfs.
// Elsewhere it may share extents (a reflink), which a copy must not.
const (
	ext4Magic  = 0xEF53
	tmpfsMagic = 0x01021994
)

func copyRange(dst, src File, n int64) (int64, error) {
	d, ok1 := dst.(*os.File)
	s, ok2 := src.(*os.File)
	if !ok1 || !ok2 {
		return 0, fmt.Errorf("copy_file_range: not a plain OS file: %w", errors.ErrUnsupported)
	}
	dfd, sfd := int(d.Fd()), int(s.Fd())
	var st unix.Statfs_t
	if err := unix.Fstatfs(dfd, &st); err != nil || (st.Type != ext4Magic && st.Type != tmpfsMagic) {
		return 0, fmt.Errorf("copy_file_range to %q: it could share extents there: %w", d.Name(), errors.ErrUnsupported)
	}
	for {
		c, err := unix.CopyFileRange(sfd, nil, dfd, nil, int(min(n, 1<<30)), 0)
		switch {
		case err == unix.EINTR:
			continue
		case err == nil:
			return int64(c), nil
		case copyRangeUnsupported(err):
			return 0, fmt.Errorf("copy_file_range %q to %q: %w (%w)", s.Name(), d.Name(), errors.ErrUnsupported, err)
		}
		return 0, &os.LinkError{Op: "copy_file_range", Old: s.Name(), New: d.Name(), Err: err}
	}
}

// copyRangeUnsupported covers every way the kernel says "not between these
// two files": different filesystems (EXDEV), an old kernel (ENOSYS), a
// file type or filesystem without it (EINVAL, EOPNOTSUPP), a sandbox that
// forbids the call (EPERM; a real permission problem shows again on write).
func copyRangeUnsupported(err error) bool {
	return errors.Is(err, unix.EXDEV) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) ||
		isNotSupported(err) || errors.Is(err, unix.EPERM) || errors.Is(err, unix.EBADF)
}
