package fsx

// CopyRange copies up to n bytes from src's current offset to dst's current
// offset inside the kernel (copy_file_range(2) on Linux), advancing both
// offsets, and returns how many bytes it copied; 0 with a nil error means
// the kernel copied nothing (end of src, or a filesystem that copies this
// way silently refuses), and the caller goes on with reads and writes.
//
// It only makes a real copy: where the kernel would share the source's
// extents instead (btrfs, XFS, NFS, SMB may clone or copy server-side) it
// is not used, because a copy the user asked for must not depend on the
// original's blocks; --mode reflink is how to ask for that. It is also not
// used for files of a wrapping FS (Faults): those reads and writes must
// go through the wrapper. Every such case returns an error wrapping
// errors.ErrUnsupported before anything is copied, and the caller copies
// with reads and writes.
func CopyRange(dst, src File, n int64) (int64, error) {
	return copyRange(dst, src, n)
}
