package storage

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/quote"
)

// disk is what sysfs tells about the device under a mount.
type disk struct {
	name       string // "sda", or "sda+sdb" for a device-mapper/md device over two disks
	rotational bool
	backing    string // for a loop device: the file it maps; its own storage decides
	via        string // "dm-0", "md0", "loop3": the virtual device in between, if any
}

const maxSysfsDepth = 4 // partition → disk, dm → md → disk: real stacks are shallow

// diskOf finds the disk under block device major:minor in the sysfs tree
// mounted at sysRoot ("/sys").
func diskOf(sysRoot string, major, minor uint32) (disk, error) {
	link := filepath.Join(sysRoot, "dev", "block", fmt.Sprintf("%d:%d", major, minor))
	dir, err := filepath.EvalSymlinks(link)
	if err != nil {
		return disk{}, fmt.Errorf("find block device %d:%d: %w", major, minor, err)
	}
	return diskAt(dir, 0)
}

// diskAt reads the device directory dir: a partition defers to its disk,
// a device-mapper or md device to the devices under it (rotational if any
// of them is), a loop device to its backing file.
func diskAt(dir string, depth int) (disk, error) {
	if depth > maxSysfsDepth {
		return disk{}, fmt.Errorf("block devices under %s nest deeper than %d", quote.Path(dir), maxSysfsDepth)
	}
	name := filepath.Base(dir)
	if exists(filepath.Join(dir, "partition")) {
		return diskAt(filepath.Dir(dir), depth+1)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "loop", "backing_file")); err == nil {
		return disk{name: name, backing: strings.TrimSpace(string(b)), via: name}, nil
	}
	if lower, err := lowerDevices(dir, depth); err != nil || len(lower) > 0 {
		return combine(name, lower), err
	}
	rot, err := readRotational(dir)
	return disk{name: name, rotational: rot}, err
}

// lowerDevices returns the disks under a stacked device (its slaves).
func lowerDevices(dir string, depth int) ([]disk, error) {
	entries, err := os.ReadDir(filepath.Join(dir, "slaves"))
	if err != nil {
		return nil, nil // not a stacked device
	}
	var out []disk
	for _, e := range entries {
		sub, err := filepath.EvalSymlinks(filepath.Join(dir, "slaves", e.Name()))
		if err != nil {
			return nil, fmt.Errorf("follow %s: %w", quote.Path(filepath.Join(dir, "slaves", e.Name())), err)
		}
		d, err := diskAt(sub, depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

func combine(via string, lower []disk) disk {
	d := disk{via: via}
	var names []string
	for _, l := range lower {
		names = append(names, l.name)
		d.rotational = d.rotational || l.rotational
		if l.backing != "" && d.backing == "" {
			d.backing = l.backing
		}
	}
	d.name = strings.Join(names, "+")
	return d
}

func readRotational(dir string) (bool, error) {
	p := filepath.Join(dir, "queue", "rotational")
	b, err := os.ReadFile(p)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", quote.Path(p), err)
	}
	switch strings.TrimSpace(string(b)) {
	case "0":
		return false, nil
	case "1":
		return true, nil
	}
	return false, fmt.Errorf("read %s: want 0 or 1, got %q", quote.Path(p), b)
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return !errors.Is(err, os.ErrNotExist) && err == nil
}

// virtualDisk reports whether a disk is a paravirtual one (virtio "vd*",
// Xen "xvd*"). QEMU and Xen report those as rotational unless told
// otherwise, whatever they sit on, so the flag is no evidence of a
// spinning disk: treating it as one would copy with a single worker on
// every cloud VM.
func virtualDisk(name string) bool {
	return strings.HasPrefix(name, "vd") || strings.HasPrefix(name, "xvd")
}
