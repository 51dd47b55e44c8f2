package storage

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{Unknown: "unknown", Local: "local", Rotational: "rotational", Network: "network", 9: "kind(9)"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", k, got, want)
		}
	}
}

func TestWorkers(t *testing.T) {
	ssd := Info{Kind: Local, FSType: "ext4", Device: "nvme0n1", Mount: "/"}
	hddA := Info{Kind: Rotational, FSType: "xfs", Device: "sdb", Mount: "/mnt/archive"}
	hddA2 := Info{Kind: Rotational, FSType: "xfs", Device: "sdb", Mount: "/srv/old"}
	hddB := Info{Kind: Rotational, FSType: "ext4", Device: "sdc", Mount: "/mnt/pool"}
	nas := Info{Kind: Network, FSType: "nfs4", Device: "nas:/photos", Mount: "/mnt/nas"}
	unknown := Info{Kind: Unknown, FSType: "zfs", Mount: "/tank"}
	hdds := []Info{hddA, hddB, {Kind: Rotational, Device: "sdd"}, {Kind: Rotational, Device: "sde"}, {Kind: Rotational, Device: "sdf"}}
	tests := []struct {
		name      string
		src, dst  []Info
		requested int
		want      int
		why       string
	}{
		{"requested wins over everything", []Info{nas}, []Info{hddA}, 7, 7, "as requested"},
		{"ssd to ssd", []Info{ssd}, []Info{ssd}, 0, DefaultWorkers, "solid-state"},
		{"network source", []Info{nas}, []Info{ssd}, 0, NetworkWorkers, "nas:/photos is on a network filesystem (nfs4)"},
		{"spinning disks beat a network destination", []Info{hddA, hddB}, []Info{nas}, 0, 2, "2 workers: one per spinning disk (sdb, sdc)"},
		{"a network source and an SSD library", []Info{nas, ssd}, []Info{ssd}, 0, NetworkWorkers, "network"},
		{"one spinning disk", []Info{ssd}, []Info{hddA}, 0, 1, "1 worker: one per spinning disk (sdb)"},
		{"same disk twice counts once", []Info{hddA, hddA2}, []Info{hddA}, 0, 1, "(sdb)"},
		{"two spinning disks", []Info{hddA}, []Info{hddB}, 0, 2, "2 workers: one per spinning disk (sdb, sdc)"},
		{"spinning disks capped", hdds, []Info{ssd}, 0, MaxRotationalWorkers, "sdb, sdc, sdd, sde, sdf"},
		{"unknown counts as local", []Info{unknown}, []Info{ssd}, 0, DefaultWorkers, "unknown"},
		{"nothing probed", nil, nil, 0, DefaultWorkers, "solid-state"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := append([]Info(nil), tc.src...)
			n, why := Workers(tc.src, tc.dst, tc.requested)
			if n != tc.want || !strings.Contains(why, tc.why) {
				t.Errorf("Workers = %d, %q; want %d and a reason containing %q", n, why, tc.want, tc.why)
			}
			for i := range src {
				if src[i] != tc.src[i] {
					t.Errorf("Workers changed its src argument")
				}
			}
		})
	}
}

func readSample(t *testing.T, name string) []Mount {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	mounts, err := ParseMountinfo(f)
	if err != nil {
		t.Fatalf("ParseMountinfo(%s): %v", name, err)
	}
	return mounts
}

func TestParseMountinfoSample(t *testing.T) {
	mounts := readSample(t, "mountinfo-desktop.txt")
	if len(mounts) != 20 {
		t.Fatalf("got %d mounts, want 20", len(mounts))
	}
	passport := mounts[10]
	if passport.Point != "/media/ann/My Passport" || passport.FSType != "fuseblk" || passport.Source != "/dev/sdd1" {
		t.Errorf("escaped mount point: got %+v", passport)
	}
	pool := mounts[7]
	if pool.Major != 0 || pool.Minor != 45 || pool.Root != "/@photos" || pool.Source != "/dev/sdc" {
		t.Errorf("btrfs subvolume: got %+v", pool)
	}
	if root := mounts[0]; root.Major != 259 || root.Minor != 2 || root.Point != "/" || root.FSType != "ext4" {
		t.Errorf("root: got %+v", root)
	}
}

func TestMountOfAndClassify(t *testing.T) {
	mounts := readSample(t, "mountinfo-desktop.txt")
	tests := []struct {
		path, point, fstype string
		kind                Kind
		block               bool
	}{
		{"/home/ann/Pictures/a.jpg", "/", "ext4", Unknown, true},
		{"/mnt/nas/2019/a.jpg", "/mnt/nas", "nfs4", Network, false},
		{"/mnt/nasty", "/", "ext4", Unknown, true}, // a prefix of the name is not a parent
		{"/home/ann/remote/x", "/home/ann/remote", "fuse.sshfs", Network, false},
		{"/media/ann/My Passport/DCIM", "/media/ann/My Passport", "fuseblk", Unknown, true},
		{"/mnt/share", "/mnt/share", "cifs", Network, false},
		{"/mnt/gdrive/a", "/mnt/gdrive", "fuse.rclone", Network, false},
		{"/mnt/merged/a", "/mnt/merged", "fuse.mergerfs", Unknown, false},
		{"/tmp/x", "/tmp", "ext4", Unknown, true}, // the later mount covers the earlier tmpfs
		{"/dev/shm/x", "/dev/shm", "tmpfs", Local, false},
		{"/proc/self", "/proc", "proc", Unknown, false},
		{"/mnt/host/a", "/mnt/host", "9p", Network, false},
		{"/var/lib/docker/overlay2/x/merged/etc", "/var/lib/docker/overlay2/x/merged", "overlay", Unknown, false},
		{"/tank/photos", "/tank", "zfs", Unknown, false},
		{"/mnt/pool/2020", "/mnt/pool", "btrfs", Unknown, true},
	}
	for _, tc := range tests {
		m, ok := MountOf(mounts, tc.path)
		if !ok || m.Point != tc.point || m.FSType != tc.fstype {
			t.Errorf("MountOf(%q) = %+v, %v; want %s (%s)", tc.path, m, ok, tc.point, tc.fstype)
			continue
		}
		c := classifyFSType(m.FSType)
		if c.kind != tc.kind || c.block != tc.block {
			t.Errorf("classifyFSType(%q) = %+v; want kind %v, block %v", m.FSType, c, tc.kind, tc.block)
		}
		if !c.block && c.reason == "" {
			t.Errorf("classifyFSType(%q) gives no reason", m.FSType)
		}
	}
	if _, ok := MountOf(nil, "/x"); ok {
		t.Error("MountOf found a mount in an empty table")
	}
}

func TestParseMountinfoRejectsGarbage(t *testing.T) {
	for _, text := range []string{
		"22 1 259:2 / / rw shared:1 ext4 /dev/nvme0n1p2 rw\n",     // no separator
		"22 1 259 / / rw - ext4 /dev/nvme0n1p2 rw\n",              // no minor
		"22 1 a:b / / rw - ext4 /dev/x rw\n",                      // not numbers
		"22 1 8:1 / / rw - ext4\n",                                // no source
		"22 1 8:1 / / rw - ext4 /dev/sda1 rw\n22 1 8:1 / - x y\n", // second line short
	} {
		_, err := ParseMountinfo(strings.NewReader(text))
		if err == nil || !strings.Contains(err.Error(), "mountinfo line") {
			t.Errorf("ParseMountinfo(%q) error = %v, want one naming the line", text, err)
		}
	}
	m, err := ParseMountinfo(strings.NewReader("\n22 1 8:1 / / rw - ext4 /dev/sda1 rw\n\n"))
	if err != nil || len(m) != 1 {
		t.Errorf("blank lines: %v, %v", m, err)
	}
}

func TestUnescapeOctal(t *testing.T) {
	for in, want := range map[string]string{
		`/a\040b`: "/a b", `/tab\011x`: "/tab\tx", `/back\134slash`: `/back\slash`,
		`/plain`: "/plain", `/trail\04`: `/trail\04`, `/bad\089`: `/bad\089`,
	} {
		if got := unescapeOctal(in); got != want {
			t.Errorf("unescapeOctal(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClassifyMagic(t *testing.T) {
	tests := []struct {
		magic int64
		kind  Kind
		block bool
	}{
		{magicNFS, Network, false}, {magicCIFS, Network, false}, {magicSMB2, Network, false},
		{magicSMB, Network, false}, {magicFUSE, Network, false}, {magicV9FS, Network, false},
		{magicCeph, Network, false}, {magicAFS, Network, false}, {magicTmpfs, Local, false},
		{magicProc, Unknown, false}, {0xEF53 /* ext4 */, Unknown, true}, {0x58465342 /* xfs */, Unknown, true},
	}
	for _, tc := range tests {
		c := classifyMagic(tc.magic)
		if c.kind != tc.kind || c.block != tc.block {
			t.Errorf("classifyMagic(%#x) = %+v, want kind %v block %v", tc.magic, c, tc.kind, tc.block)
		}
	}
}

// writeTree creates files (path → content) and symlinks (path → "->target")
// under root.
func writeTree(t *testing.T, root string, tree map[string]string) {
	t.Helper()
	for p, content := range tree {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if target, ok := strings.CutPrefix(content, "->"); ok {
			err = os.Symlink(target, full)
		} else {
			err = os.WriteFile(full, []byte(content), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestDiskOfSysfsLayouts builds sysfs-shaped trees: the kernel's layout
// for a partition, an LVM volume over two disks and a loop device.
func TestDiskOfSysfsLayouts(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("sysfs is Linux's: its names (8:1) hold a ':', which Windows forbids in a file name")
	}
	root := t.TempDir()
	dev := "devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block"
	writeTree(t, root, map[string]string{
		dev + "/sda/queue/rotational":                    "1\n",
		dev + "/sda/sda1/partition":                      "1\n",
		"devices/nvme/block/nvme0n1/queue/rotational":    "0\n",
		"devices/nvme/block/nvme0n1/nvme0n1p3/partition": "3\n",
		"devices/virtual/block/dm-0/queue/rotational":    "0\n", // dm may claim 0 over a spinning disk
		"devices/virtual/block/dm-0/slaves/sda1":         "->../../../../../" + dev + "/sda/sda1",
		"devices/virtual/block/dm-0/slaves/nvme0n1p3":    "->../../../../../devices/nvme/block/nvme0n1/nvme0n1p3",
		"devices/virtual/block/loop3/queue/rotational":   "0\n",
		"devices/virtual/block/loop3/loop/backing_file":  "/srv/images/card.img\n",
		"devices/virtual/block/broken/queue/rotational":  "maybe\n",
		"dev/block/8:1":   "->../../" + dev + "/sda/sda1",
		"dev/block/259:3": "->../../devices/nvme/block/nvme0n1/nvme0n1p3",
		"dev/block/253:0": "->../../devices/virtual/block/dm-0",
		"dev/block/7:3":   "->../../devices/virtual/block/loop3",
		"dev/block/9:9":   "->../../devices/virtual/block/broken",
	})
	tests := []struct {
		major, minor uint32
		want         disk
	}{
		{8, 1, disk{name: "sda", rotational: true}},
		{259, 3, disk{name: "nvme0n1"}},
		{253, 0, disk{name: "nvme0n1+sda", rotational: true, via: "dm-0"}},
		{7, 3, disk{name: "loop3", backing: "/srv/images/card.img", via: "loop3"}},
	}
	for _, tc := range tests {
		got, err := diskOf(root, tc.major, tc.minor)
		if err != nil || got != tc.want {
			t.Errorf("diskOf(%d:%d) = %+v, %v; want %+v", tc.major, tc.minor, got, err, tc.want)
		}
	}
	if _, err := diskOf(root, 9, 9); err == nil || !strings.Contains(err.Error(), "want 0 or 1") {
		t.Errorf("diskOf on a bad rotational file: err = %v", err)
	}
	if _, err := diskOf(root, 1, 1); err == nil || !strings.Contains(err.Error(), "1:1") {
		t.Errorf("diskOf on a missing device: err = %v", err)
	}
}

func TestProbeRealPaths(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("storage is probed on Linux only")
	}
	shm, err := Probe("/dev/shm")
	if err != nil || shm.Kind != Local || shm.FSType != "tmpfs" || shm.Mount != "/dev/shm" {
		t.Errorf("Probe(/dev/shm) = %+v, %v; want local tmpfs", shm, err)
	}
	proc, err := Probe("/proc/self/status")
	if err != nil || proc.Kind != Unknown || proc.FSType != "proc" || proc.Reason == "" {
		t.Errorf("Probe(/proc/self/status) = %+v, %v; want unknown proc with a reason", proc, err)
	}
	tmp := t.TempDir()
	in, err := Probe(tmp)
	if err != nil {
		t.Fatalf("Probe(%s): %v", tmp, err)
	}
	t.Logf("Probe(%s) = %+v", tmp, in)
	assertAgreesWithSysfs(t, tmp, in)
	later, err := Probe(filepath.Join(tmp, "new", "library"))
	if err != nil || later != in {
		t.Errorf("a path that does not exist yet is probed through its parent: got %+v, %v; want %+v", later, err, in)
	}
}

// assertAgreesWithSysfs checks a block-device Info against what the
// kernel says in /sys/block/DEV/queue/rotational.
func assertAgreesWithSysfs(t *testing.T, path string, in Info) {
	t.Helper()
	if in.FSType == "" || in.Mount == "" || in.Reason == "" {
		t.Errorf("Probe(%s) = %+v: want file system, mount and reason", path, in)
	}
	if in.Kind != Local && in.Kind != Rotational {
		t.Skipf("%s is on %v storage (%s); the sysfs cross-check needs a disk", path, in.Kind, in.Reason)
	}
	b, err := os.ReadFile(filepath.Join("/sys/block", in.Device, "queue", "rotational"))
	if err != nil {
		t.Fatalf("Probe(%s) names device %q, but: %v", path, in.Device, err)
	}
	// A paravirtual disk's flag is the hypervisor's default: it never
	// makes the disk count as spinning.
	want := strings.TrimSpace(string(b)) == "1" && !virtualDisk(in.Device)
	if (in.Kind == Rotational) != want {
		t.Errorf("Probe(%s) = %v, but /sys/block/%s/queue/rotational says %s", path, in.Kind, in.Device, b)
	}
}

func TestProbeErrors(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("storage is probed on Linux only")
	}
	dir := t.TempDir()
	loop := filepath.Join(dir, "loop")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	if _, err := Probe(filepath.Join(loop, "x")); err == nil || !strings.Contains(err.Error(), loop) {
		t.Errorf("Probe through a symlink loop: err = %v, want one naming the path", err)
	}
}

func TestVirtualDisksAreNotSpinningDisks(t *testing.T) {
	for name, want := range map[string]bool{"vda": true, "vdb": true, "xvda": true, "sda": false, "nvme0n1": false, "mmcblk0": false} {
		if got := virtualDisk(name); got != want {
			t.Errorf("virtualDisk(%q) = %v, want %v", name, got, want)
		}
	}
}
