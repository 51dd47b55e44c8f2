package storage

import (
	"fmt"
	"strings"
)

// fsClass is what a filesystem type alone tells.
type fsClass struct {
	kind   Kind
	block  bool // on a block device: its queue/rotational decides
	reason string
}

var networkTypes = map[string]bool{
	"nfs": true, "nfs4": true, "cifs": true, "smb3": true, "smbfs": true, "smb2": true,
	"9p": true, "ceph": true, "glusterfs": true, "lustre": true, "afs": true, "coda": true,
	"ncpfs": true, "davfs": true, "sshfs": true, "virtiofs": true, "gfs2": true, "ocfs2": true,
	"beegfs": true, "gpfs": true, "orangefs": true, "pvfs2": true,
}

// localFUSE are FUSE filesystems stacked on other local filesystems, where
// the disks below are not known.
var localFUSE = map[string]bool{
	"mergerfs": true, "gocryptfs": true, "encfs": true, "bindfs": true, "unionfs": true,
	"unionfs-fuse": true, "fuse-overlayfs": true, "squashfuse": true, "lxcfs": true,
	"ntfs-3g": true, "cryfs": true, "securefs": true, "portal": true, "fuse-zip": true,
}

var memoryTypes = map[string]bool{"tmpfs": true, "ramfs": true}

var pseudoTypes = map[string]bool{
	"proc": true, "sysfs": true, "devtmpfs": true, "devpts": true, "cgroup": true, "cgroup2": true,
	"securityfs": true, "debugfs": true, "tracefs": true, "configfs": true, "pstore": true,
	"bpf": true, "mqueue": true, "hugetlbfs": true, "autofs": true, "binfmt_misc": true,
	"efivarfs": true, "fusectl": true, "nsfs": true, "rpc_pipefs": true, "selinuxfs": true,
}

var stackedTypes = map[string]bool{"overlay": true, "aufs": true, "unionfs": true, "ecryptfs": true, "zfs": true}

// classifyFSType classifies a mountinfo filesystem type.
func classifyFSType(fstype string) fsClass {
	base, sub, isFUSE := fuseType(fstype)
	switch {
	case fstype == "fuseblk":
		return fsClass{block: true}
	case isFUSE && localFUSE[sub]:
		return fsClass{Unknown, false, fmt.Sprintf("FUSE filesystem %s is stacked on other filesystems, whose disks are not probed", sub)}
	case isFUSE:
		return fsClass{Network, false, fmt.Sprintf("FUSE filesystem %s, assumed remote", orDefault(sub, base))}
	case networkTypes[fstype]:
		return fsClass{Network, false, fmt.Sprintf("network filesystem %s", fstype)}
	case memoryTypes[fstype]:
		return fsClass{Local, false, fmt.Sprintf("%s keeps its files in memory", fstype)}
	case pseudoTypes[fstype]:
		return fsClass{Unknown, false, fmt.Sprintf("%s is a pseudo filesystem without a disk", fstype)}
	case stackedTypes[fstype]:
		return fsClass{Unknown, false, fmt.Sprintf("%s is stacked on other storage, which is not probed", fstype)}
	}
	return fsClass{block: true}
}

// fuseType splits "fuse.sshfs" into ("fuse", "sshfs", true); plain "fuse"
// has no subtype.
func fuseType(fstype string) (base, sub string, ok bool) {
	base, sub, _ = strings.Cut(fstype, ".")
	return base, sub, base == "fuse"
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Filesystem magic numbers from statfs(2) (linux/magic.h).
const (
	magicNFS    = 0x6969
	magicSMB    = 0x517B
	magicCIFS   = 0xFF534D42
	magicSMB2   = 0xFE534D42
	magicFUSE   = 0x65735546
	magicV9FS   = 0x01021997
	magicCeph   = 0x00C36400
	magicAFS    = 0x5346414F
	magicKAFS   = 0x6B414653
	magicCoda   = 0x73757245
	magicNCP    = 0x564C
	magicLustre = 0x0BD00BD0
	magicGFS2   = 0x01161970
	magicOCFS2  = 0x7461636F
	magicTmpfs  = 0x01021994
	magicRamfs  = 0x858458F6
	magicProc   = 0x9FA0
	magicSysfs  = 0x62656572
)

var magicNames = map[int64]string{
	magicNFS: "nfs", magicSMB: "smbfs", magicCIFS: "cifs", magicSMB2: "smb2", magicFUSE: "fuse",
	magicV9FS: "9p", magicCeph: "ceph", magicAFS: "afs", magicKAFS: "afs", magicCoda: "coda",
	magicNCP: "ncpfs", magicLustre: "lustre", magicGFS2: "gfs2", magicOCFS2: "ocfs2",
	magicTmpfs: "tmpfs", magicRamfs: "ramfs", magicProc: "proc", magicSysfs: "sysfs",
}

// magicName names a statfs magic number, "" when it is not one that
// decides the kind without a block device.
func magicName(magic int64) string { return magicNames[magic] }

// classifyMagic classifies a statfs magic number; block=true means the
// number alone does not tell.
func classifyMagic(magic int64) fsClass {
	name := magicName(magic)
	if name == "" {
		return fsClass{block: true}
	}
	return classifyFSType(name)
}

// RenumbersInodes reports whether a filesystem type hands out inode
// numbers that do not last: a FUSE daemon numbers files as the kernel
// looks them up (sshfs: forgotten files come back under new numbers, and
// a remount changes the device too), FAT and exFAT derive them at each
// mount, and SMB without server inode numbers makes them up. A file's
// device and inode then prove nothing across runs (internal/importlog
// recognises such files by their place instead).
func RenumbersInodes(fstype string) bool {
	if _, _, isFUSE := fuseType(fstype); isFUSE {
		return true // fuseblk (ntfs-3g and the like) keeps the disk's numbers
	}
	switch fstype {
	case "vfat", "msdos", "exfat", "cifs", "smb3", "smbfs", "smb2":
		return true
	}
	return false
}
