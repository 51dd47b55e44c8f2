package eject

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/storage"
)

// Volumes unmounts the volumes holding sources, each once. dest is the
// library: a volume that holds it too is left mounted.
func Volumes(sources []string, dest, backup string) ([]Result, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, fmt.Errorf("read the mount table: %w", err)
	}
	mounts, err := storage.ParseMountinfo(f)
	f.Close()
	if err != nil {
		return nil, err
	}
	var out []Result
	done := map[string]bool{}
	for _, src := range sources {
		res := Result{Source: src}
		m, why := volumeOf(mounts, src, dest, backup)
		res.Point, res.Device = m.Point, m.Source
		switch {
		case why != "":
			res.Why = why
		case done[m.Point]:
			continue // a second source on a volume already handled
		default:
			done[m.Point] = true
			res.Done, res.Why = unmount(m)
		}
		out = append(out, res)
	}
	return out, nil
}

// volumeOf finds the mount holding src and says why it may not be
// unmounted ("" when it may).
func volumeOf(mounts []storage.Mount, src, dest, backup string) (storage.Mount, string) {
	real, err := filepath.EvalSymlinks(src)
	if err != nil {
		return storage.Mount{}, fmt.Sprintf("cannot resolve %q: %v", src, err)
	}
	real, _ = filepath.Abs(real)
	m, ok := storage.MountOf(mounts, real)
	if !ok {
		return m, "no mount point found for it"
	}
	if m.Point == "/" {
		return m, "it is on the system's root filesystem"
	}
	for _, keep := range []struct{ what, path string }{{"library", dest}, {"backup", backup}} {
		if keep.path == "" {
			continue
		}
		if p, err := filepath.EvalSymlinks(keep.path); err == nil {
			if km, ok := storage.MountOf(mounts, p); ok && km.Point == m.Point {
				return m, fmt.Sprintf("the %s is on the same volume (%s)", keep.what, m.Point)
			}
		}
	}
	if !removable(m.Source) {
		return m, fmt.Sprintf("%s (%s) is not a removable or loop device", m.Point, orNone(m.Source))
	}
	return m, ""
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
