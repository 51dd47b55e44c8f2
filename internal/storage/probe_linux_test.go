//go:build linux

package storage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestThroughLoopProbesBackingFile takes an image file in a temp dir as a
// loop device's backing file: the loop device's kind is that of the disk
// holding the file.
func TestThroughLoopProbesBackingFile(t *testing.T) {
	img := filepath.Join(t.TempDir(), "card.img")
	if err := os.WriteFile(img, make([]byte, 4096), 0o644); err != nil {
		t.Fatal(err)
	}
	direct, err := Probe(img)
	if err != nil {
		t.Fatal(err)
	}
	got := throughLoop(Info{FSType: "vfat", Mount: "/media/card"}, disk{name: "loop3", backing: img, via: "loop3"}, 0)
	if got.Kind != direct.Kind || got.Device != direct.Device || got.FSType != "vfat" ||
		!strings.Contains(got.Reason, "loop device loop3 backed by "+img) {
		t.Errorf("throughLoop = %+v; want kind %v and device %q of %s", got, direct.Kind, direct.Device, img)
	}
	deep := throughLoop(Info{}, disk{name: "loop3", backing: img, via: "loop3"}, maxLoopDepth)
	if deep.Kind != Unknown || !strings.Contains(deep.Reason, "deeper") {
		t.Errorf("throughLoop past the depth limit = %+v", deep)
	}
}

func TestMountDevice(t *testing.T) {
	if maj, mnr, err := mountDevice(Mount{Major: 8, Minor: 17}); err != nil || maj != 8 || mnr != 17 {
		t.Errorf("mountDevice(8:17) = %d:%d, %v", maj, mnr, err)
	}
	_, _, err := mountDevice(Mount{FSType: "zfs", Point: "/tank", Source: "tank"})
	if err == nil || !strings.Contains(err.Error(), "/tank") {
		t.Errorf("mountDevice(zfs) err = %v, want one naming the mount", err)
	}
	_, _, err = mountDevice(Mount{FSType: "btrfs", Point: "/x", Source: "/dev/no-such-disk"})
	if err == nil || !strings.Contains(err.Error(), "/dev/no-such-disk") {
		t.Errorf("mountDevice(missing source) err = %v", err)
	}
}

// TestMountDeviceFromSource resolves the root mount's source device the
// way a btrfs mount (anonymous device number) is resolved, and expects the
// number the kernel gives the root mount.
func TestMountDeviceFromSource(t *testing.T) {
	root, ok := findMount("/")
	if !ok || !strings.HasPrefix(root.Source, "/dev/") || root.Major == 0 {
		t.Skipf("root mount %+v has no device node to resolve", root)
	}
	if _, err := os.Stat(root.Source); err != nil {
		t.Skipf("root device %s: %v", root.Source, err)
	}
	maj, mnr, err := mountDevice(Mount{FSType: root.FSType, Point: "/", Source: root.Source})
	if err != nil || maj != root.Major || mnr != root.Minor {
		t.Errorf("mountDevice via %s = %d:%d, %v; want %d:%d", root.Source, maj, mnr, err, root.Major, root.Minor)
	}
}
