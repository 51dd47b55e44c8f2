package storage

import "testing"

func TestRenumbersInodes(t *testing.T) {
	for fstype, want := range map[string]bool{
		"fuse.sshfs": true, "fuse.rclone": true, "fuse": true, "vfat": true, "exfat": true, "cifs": true,
		"fuseblk": false, "ext4": false, "btrfs": false, "xfs": false, "nfs4": false, "tmpfs": false,
	} {
		if got := RenumbersInodes(fstype); got != want {
			t.Errorf("RenumbersInodes(%q) = %v, want %v", fstype, got, want)
		}
	}
}
