// Package faultfuse is a drive for tests that fails on command: a
// pass-through FUSE filesystem over a folder, mounted at a mount point,
// whose every operation can be made to return EIO (a dying disk), whose
// writes can be made to return EROFS (a disk the kernel remounted
// read-only after an error), and which can vanish (lazily unmounted, its
// open files failing with EIO, as a pulled USB disk does). Tests flip the
// switch at a moment they choose, or arm it to flip at the nth operation
// of a kind.
//
// It mounts without fusermount (the mount syscall itself), so it needs
// root and /dev/fuse; Mount skips the test, saying why, where either is
// missing. It is built on Linux only.
package faultfuse
