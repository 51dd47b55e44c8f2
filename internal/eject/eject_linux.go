package eject

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/storage"
)

// Volumes unmounts the volumes holding the sources, each once, when
// nothing keeps one: the library or the backup on the same device, a
// system or fixed disk, or a photo or video on it that is in no library.
func Volumes(req Request) ([]Result, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, fmt.Errorf("read the mount table: %w", err)
	}
	mounts, err := storage.ParseMountinfo(f)
	f.Close()
	if err != nil {
		return nil, err
	}
	// Each volume once, where its first source comes, with every source
	// on it: the look at the card knows all the folders sorted there.
	type vol struct {
		res  Result
		m    storage.Mount
		srcs []source
	}
	var order []*vol
	byPoint := map[string]*vol{}
	for _, src := range req.Sources {
		real, err := resolve(src)
		if err != nil {
			order = append(order, &vol{res: Result{Source: src, Why: fmt.Sprintf("cannot resolve %q: %v", src, err)}})
			continue
		}
		m, ok := storage.MountOf(mounts, real)
		if !ok {
			order = append(order, &vol{res: Result{Source: src, Why: "no mount point found for it"}})
			continue
		}
		if v := byPoint[m.Point]; v != nil {
			v.srcs = append(v.srcs, source{src, real})
			continue
		}
		v := &vol{res: Result{Source: src, Point: m.Point, Device: m.Source}, m: m, srcs: []source{{src, real}}}
		byPoint[m.Point] = v
		order = append(order, v)
	}
	out := make([]Result, 0, len(order))
	for _, v := range order {
		res := v.res
		if res.Point != "" {
			if res.Why = keeps(mounts, v.m, req); res.Why == "" {
				res.Stays = staysOn(volume{point: v.m.Point, inner: innerMounts(mounts, v.m.Point)}, v.srcs, req)
				if !res.Stays.Keeps() {
					res.Done, res.Why = unmount(v.m)
				}
			}
		}
		out = append(out, res)
	}
	return out, nil
}

// keeps says why a volume may not be unmounted whatever is on it ("" when
// it may): the system's root, the device the library or the backup is on
// (judged by the device, so a bind mount of the card, or of a folder of
// it, is caught), or a device that is not removable.
func keeps(mounts []storage.Mount, m storage.Mount, req Request) string {
	if m.Point == "/" {
		return "it is on the system's root filesystem"
	}
	for _, keep := range []struct{ what, path string }{{"library", req.Dest}, {"backup", req.Backup}} {
		if keep.path == "" {
			continue
		}
		p, err := resolve(keep.path)
		if err != nil {
			return fmt.Sprintf("cannot tell which device the %s is on: %v", keep.what, err)
		}
		km, ok := storage.MountOf(mounts, p)
		if !ok || km.Major != m.Major || km.Minor != m.Minor {
			continue
		}
		if km.Point == m.Point {
			return fmt.Sprintf("the %s is on the same device (%s at %s)", keep.what, orNone(m.Source), m.Point)
		}
		return fmt.Sprintf("the %s is on the same device (%s, mounted at %s and, for the %s, at %s)", keep.what, orNone(m.Source), m.Point, keep.what, km.Point)
	}
	if !removable(m.Source) {
		return fmt.Sprintf("%s (%s) is not a removable or loop device", m.Point, orNone(m.Source))
	}
	return ""
}

// innerMounts are the mount points below point: the look at a volume
// never enters them (another filesystem, or this one again through a
// bind mount, which would be counted twice).
func innerMounts(mounts []storage.Mount, point string) map[string]bool {
	inner := map[string]bool{}
	for _, m := range mounts {
		if _, ok := below(m.Point, point); ok && m.Point != point {
			inner[m.Point] = true
		}
	}
	return inner
}

// removable reports whether a block device is a loop device, or a disk
// the kernel marks removable or sees through USB (card readers, sticks).
func removable(dev string) bool {
	name, ok := strings.CutPrefix(dev, "/dev/")
	if !ok || name == "" || strings.Contains(name, "/") {
		return false
	}
	if strings.HasPrefix(name, "loop") {
		return true
	}
	sys, err := filepath.EvalSymlinks(filepath.Join("/sys/class/block", name))
	if err != nil {
		return false
	}
	if strings.Contains(sys, "/usb") || strings.Contains(sys, "/mmc") {
		return true
	}
	for _, dir := range []string{sys, filepath.Dir(sys)} { // the disk, or the disk above a partition
		if b, err := os.ReadFile(filepath.Join(dir, "removable")); err == nil && strings.TrimSpace(string(b)) == "1" {
			return true
		}
	}
	return false
}

// unmount asks udisks first (what a desktop's eject does, and it lets a
// user unmount what they mounted), then umount(8).
func unmount(m storage.Mount) (bool, string) {
	var tried []string
	if path, err := exec.LookPath("udisksctl"); err == nil {
		out, err := exec.Command(path, "unmount", "--no-user-interaction", "-b", m.Source).CombinedOutput()
		if err == nil {
			return true, "udisksctl unmount -b " + m.Source
		}
		tried = append(tried, "udisksctl: "+oneLine(out, err))
	}
	path, err := exec.LookPath("umount")
	if err != nil {
		return false, strings.Join(append(tried, "no umount command found"), "; ")
	}
	out, err := exec.Command(path, m.Point).CombinedOutput()
	if err == nil {
		return true, "umount " + m.Point
	}
	return false, strings.Join(append(tried, "umount: "+oneLine(out, err)), "; ")
}

func oneLine(out []byte, err error) string {
	s := strings.TrimSpace(string(out))
	if s == "" {
		return err.Error()
	}
	return strings.Join(strings.Fields(s), " ")
}

func orNone(s string) string {
	if s == "" {
		return "no device"
	}
	return s
}
