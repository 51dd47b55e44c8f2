package storage

import (
	"fmt"
	"slices"
	"strings"
)

// Kind is the kind of storage under a path.
type Kind uint8

// Kinds of storage.
const (
	Unknown    Kind = iota // could not tell; treated like Local
	Local                  // solid-state disk, NVMe or memory
	Rotational             // spinning disk: seeks are expensive
	Network                // remote filesystem: latency per operation
)

var kindNames = [...]string{"unknown", "local", "rotational", "network"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Info is what Probe learned about the storage of one path.
type Info struct {
	Kind   Kind
	FSType string // filesystem type as in mountinfo ("ext4", "nfs4", "fuse.sshfs")
	Device string // disk name ("sda", "nvme0n1") or, for a network mount, its source ("nas:/photos")
	Mount  string // mount point holding the path
	Reason string // why Kind was chosen, for --explain style output
}

// Worker counts chosen by Workers.
const (
	DefaultWorkers       = 4
	NetworkWorkers       = 2
	MaxRotationalWorkers = 4
)

// Workers picks how many files to copy at once from the storage of the
// sources and of the destination; see the package documentation for the
// rule. why is a sentence for the user.
func Workers(src, dst []Info, requested int) (n int, why string) {
	if requested > 0 {
		return requested, fmt.Sprintf("%d workers, as requested", requested)
	}
	all := append(slices.Clip(src), dst...)
	if i := slices.IndexFunc(all, func(in Info) bool { return in.Kind == Network }); i >= 0 {
		return NetworkWorkers, fmt.Sprintf("%d workers: %s is on a network filesystem (%s)",
			NetworkWorkers, describe(all[i]), all[i].FSType)
	}
	if disks := rotationalDisks(all); len(disks) > 0 {
		n = min(len(disks), MaxRotationalWorkers)
		return n, fmt.Sprintf("%d worker%s: one per spinning disk (%s)", n, plural(n), strings.Join(disks, ", "))
	}
	return DefaultWorkers, fmt.Sprintf("%d workers: local solid-state or unknown storage", DefaultWorkers)
}

// rotationalDisks lists the distinct spinning disks in infos, in order.
func rotationalDisks(infos []Info) []string {
	var disks []string
	for _, in := range infos {
		if in.Kind != Rotational {
			continue
		}
		name := describe(in)
		if !slices.Contains(disks, name) {
			disks = append(disks, name)
		}
	}
	return disks
}

func describe(in Info) string {
	switch {
	case in.Device != "":
		return in.Device
	case in.Mount != "":
		return in.Mount
	}
	return "a path"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
