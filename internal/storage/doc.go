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
//  2. Any spinning disk: one worker per distinct spinning disk, at most 4.
//     (A paravirtual disk, virtio "vd*" or Xen "xvd*", reports itself
//     rotational by the hypervisor's default whatever it sits on, so its
//     flag is not taken as evidence of one.)
//     A disk head serves one stream well; two streams on one disk make it
//     seek between them and run slower than one. With sources on two disks
//     and the library on an SSD, two workers keep both disks busy. This
//     comes before the network rule: a local disk that seeks loses more
//     than a link that waits. (Not measured here: the bench machine has no
//     spinning disk.)
//  3. Any network filesystem: 4. Each file costs round trips (create,
//     write, fsync, set times, rename), and files in flight hide them:
//     copying 30 photos of 3–5 MB over sshfs with 10 ms added to each
//     round trip took 22.4 s with 1 worker, 15.1 s with 2, 11.1 s with 4
//     and 11.2 s with 8 (bench/storage.sh copy-sweep-10ms, cold cache).
//  4. Otherwise (SSD, NVMe, memory, or unknown storage): 4, enough to keep
//     an SSD's queue busy on the 2 to 8 cores the sorter is made for.
//     Copying 300 photos of 3–5 MB on the bench VM's virtio disk took
//     1.14–3.39 s with 4 workers (five runs, median 1.94 s) and 1.29–3.29 s
//     with 8 (median 2.09 s), alternating runs: each worker already makes
//     a batch of temps durable with its fsyncs in flight together, so more
//     workers no longer buy concurrency at the disk (with one fsync per
//     file, 8 had beaten 4 by 1.4×).
//
// MetaWorkers picks the header readers of the metadata stage, which read a
// few KB per file and wait on every open and read: twice the cores, never
// fewer than the copy workers, and NetworkMetaWorkers (16) when a source
// is on a network filesystem (FUSE mounts such as sshfs count as network).
// Reading the headers of 1,000 small photos over sshfs with 10 ms added to
// each round trip took 16.0 s with 2 readers, 8.0 s with 4, 4.3 s with 8,
// 2.7 s with 16, 3.1 s with 32 and 2.9 s with 64 (bench/storage.sh
// meta-sweep-10ms, cold): each doubling halves the time until 16, where
// the one sshfs connection, not the latency, is the limit. On the local
// disk the count hardly matters (0.3–0.8 s for the same files from 2 to
// 64 readers, cold), so the local default stays small.
package storage
