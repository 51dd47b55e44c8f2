//go:build linux

package storage

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/shoebox-photos/shoebox/internal/quote"
)

const (
	mountinfoPath = "/proc/self/mountinfo"
	sysRoot       = "/sys"
	maxLoopDepth  = 2 // a loop device's backing file may itself be on a loop device
)

// Probe tells what kind of storage path is on. A path that does not exist
// yet (a new library) is probed through its nearest existing parent. The
// error is for a path that cannot be looked at; storage that cannot be
// identified is Unknown, with the reason in Info.Reason.
func Probe(path string) (Info, error) { return probe(path, 0) }

func probe(path string, depth int) (Info, error) {
	p, err := existingAncestor(path)
	if err != nil {
		return Info{}, err
	}
	var st unix.Statfs_t
	if err := unix.Statfs(p, &st); err != nil {
		return Info{}, fmt.Errorf("probe storage of %s: statfs: %w", quote.Path(p), err)
	}
	magic := int64(uint32(st.Type)) // 32-bit platforms hold it in a signed int32
	m, found := findMount(p)
	if !found {
		return probeUnmounted(p, magic, depth), nil
	}
	c := classifyFSType(m.FSType)
	if mc := classifyMagic(magic); mc.kind == Network && magic != magicFUSE && c.kind != Network {
		c = mc // the kernel's answer for this very path beats the mount table's
	}
	in := Info{Kind: c.kind, FSType: m.FSType, Mount: m.Point, Reason: c.reason}
	if c.kind == Network {
		in.Device = m.Source
	}
	if !c.block {
		in.Reason = fmt.Sprintf("%s (mounted at %s)", c.reason, m.Point)
		return in, nil
	}
	major, minor, err := mountDevice(m)
	if err != nil {
		in.Reason = err.Error()
		return in, nil
	}
	return withDisk(in, major, minor, depth), nil
}

// probeUnmounted handles a path whose mount is missing from mountinfo (no
// /proc, or an automount not listed yet): statfs and stat must do.
func probeUnmounted(p string, magic int64, depth int) Info {
	c := classifyMagic(magic)
	in := Info{Kind: c.kind, FSType: magicName(magic), Reason: c.reason}
	if !c.block {
		return in
	}
	var st unix.Stat_t
	if err := unix.Stat(p, &st); err != nil {
		in.Reason = fmt.Sprintf("stat %s: %v", quote.Path(p), err)
		return in
	}
	return withDisk(in, unix.Major(uint64(st.Dev)), unix.Minor(uint64(st.Dev)), depth)
}

// mountDevice returns the block device of a mount. Filesystems that give
// their mounts anonymous device numbers (btrfs) name the real device as
// the mount source.
func mountDevice(m Mount) (major, minor uint32, err error) {
	if m.Major != 0 {
		return m.Major, m.Minor, nil
	}
	if !strings.HasPrefix(m.Source, "/dev/") {
		return 0, 0, fmt.Errorf("%s at %s has no block device to probe (source %s)", m.FSType, m.Point, quote.Path(m.Source))
	}
	var st unix.Stat_t
	if err := unix.Stat(m.Source, &st); err != nil {
		return 0, 0, fmt.Errorf("stat %s, the device of %s: %v", quote.Path(m.Source), m.Point, err)
	}
	return unix.Major(uint64(st.Rdev)), unix.Minor(uint64(st.Rdev)), nil
}

// withDisk fills in the disk under device major:minor.
func withDisk(in Info, major, minor uint32, depth int) Info {
	d, err := diskOf(sysRoot, major, minor)
	if err != nil {
		in.Kind, in.Reason = Unknown, err.Error()
		return in
	}
	if d.backing != "" {
		return throughLoop(in, d, depth)
	}
	in.Device = d.name
	in.Kind, in.Reason = Local, fmt.Sprintf("%s on %s, a solid-state or virtual disk", orDefault(in.FSType, "filesystem"), d.name)
	switch {
	case d.rotational && virtualDisk(d.name):
		in.Reason = fmt.Sprintf("%s on %s, a virtual disk (its rotational flag is the hypervisor's default, not the hardware's)", orDefault(in.FSType, "filesystem"), d.name)
	case d.rotational:
		in.Kind, in.Reason = Rotational, fmt.Sprintf("%s on %s, a spinning disk", orDefault(in.FSType, "filesystem"), d.name)
	}
	if d.via != "" {
		in.Reason += " (through " + d.via + ")"
	}
	return in
}

// throughLoop probes the file behind a loop device: an image file on a
// spinning disk seeks like that disk.
func throughLoop(in Info, d disk, depth int) Info {
	if depth >= maxLoopDepth {
		in.Kind, in.Reason = Unknown, fmt.Sprintf("loop device %s nests deeper than %d", d.via, maxLoopDepth)
		return in
	}
	inner, err := probe(strings.TrimSuffix(d.backing, " (deleted)"), depth+1)
	if err != nil {
		in.Kind, in.Reason = Unknown, fmt.Sprintf("loop device %s: %v", d.via, err)
		return in
	}
	in.Kind, in.Device = inner.Kind, inner.Device
	in.Reason = fmt.Sprintf("loop device %s backed by %s: %s", d.via, d.backing, inner.Reason)
	return in
}

func findMount(p string) (Mount, bool) {
	f, err := os.Open(mountinfoPath)
	if err != nil {
		return Mount{}, false
	}
	defer f.Close()
	mounts, err := ParseMountinfo(f)
	if err != nil {
		return Mount{}, false
	}
	return MountOf(mounts, p)
}

// existingAncestor returns the absolute, symlink-free form of path or of
// its nearest existing parent.
func existingAncestor(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("probe storage of %s: %w", quote.Path(path), err)
	}
	for p := abs; ; p = filepath.Dir(p) {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			return real, nil
		}
		if !errors.Is(err, os.ErrNotExist) || filepath.Dir(p) == p {
			return "", fmt.Errorf("probe storage of %s: %w", quote.Path(path), err)
		}
	}
}
