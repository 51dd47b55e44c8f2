// Package storage tells what kind of storage a path lives on, so the sorter
// can pick how many files to copy at once.
//
// # Probing
//
// Probe first asks statfs(2) for the filesystem's magic number, then looks
// the path's mount up in /proc/self/mountinfo (the longest mount point that
// is a prefix of the path; the later line wins for stacked mounts). The
// mount's filesystem type decides network filesystems (NFS, SMB/CIFS, 9p,
// Ceph, AFS, Lustre, GlusterFS, virtiofs and FUSE mounts such as sshfs or
// rclone), memory filesystems (tmpfs, ramfs) and pseudo filesystems (proc,
// sysfs). For a filesystem on a block device, the device number of the
// mount (or of its source device, for btrfs, whose mounts carry anonymous
// numbers) leads to /sys/dev/block/MAJOR:MINOR; from there the walk goes up
// from a partition to its disk, down from device-mapper and md devices to
// the disks under them, and from a loop device to the filesystem of its
// backing file, and reads queue/rotational.
//
// # Workers
//
// Workers turns the probed sources and destination into a number of copy
// workers. In order, the first rule that applies wins:
//
//  1. A number asked for (--workers or the config file) is used as is.
//  2. Any network filesystem: 2. Each file costs round trips; two in flight
//     hide most of that latency, while more make small NAS boxes and FUSE
//     daemons thrash and interleave their writes.
//  3. Any spinning disk: one worker per distinct spinning disk, at most 4.
//     (A paravirtual disk, virtio "vd*" or Xen "xvd*", reports itself
//     rotational by the hypervisor's default whatever it sits on, so its
//     flag is not taken as evidence of one.)
//     A disk head serves one stream well; two streams on one disk make it
//     seek between them and run slower than one. With sources on two disks
//     and the library on an SSD, two workers keep both disks busy.
//  4. Otherwise (SSD, NVMe, memory, or unknown storage): 4, enough to keep
//     an SSD's queue busy on the 2 to 8 cores the sorter is made for.
package storage
