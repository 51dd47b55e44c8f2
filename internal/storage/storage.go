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
	NetworkWorkers       = 4
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
	if disks := rotationalDisks(all); len(disks) > 0 {
		n = min(len(disks), MaxRotationalWorkers)
		return n, fmt.Sprintf("%d worker%s: one per spinning disk (%s)", n, plural(n), strings.Join(disks, ", "))
	}
	if i := slices.IndexFunc(all, func(in Info) bool { return in.Kind == Network }); i >= 0 {
		return NetworkWorkers, fmt.Sprintf("%d workers: %s is on a network filesystem (%s), where each file waits on round trips",
			NetworkWorkers, describe(all[i]), all[i].FSType)
	}
	return DefaultWorkers, fmt.Sprintf("%d workers: local solid-state or unknown storage", DefaultWorkers)
}

// NetworkMetaWorkers is how many headers are read at once from a network
// filesystem: each read waits a round trip, so more requests in flight
// hide the latency (see the package documentation for the measurements).
const NetworkMetaWorkers = 16

// LocalMetaWorkers is how many headers are read at once from local
// storage: twice the cores, since each reader mostly waits on open and
// read, and more only add scheduling on the 2 to 8 cores the sorter is
// made for.
func LocalMetaWorkers(cores int) int { return 2 * max(cores, 1) }

// MetaWorkers picks how many files' headers to read at once from the
// storage of the sources: never fewer than the copy workers, and
// NetworkMetaWorkers when a source is on a network filesystem. why is a
// sentence for the user when the choice is not the local default, "" when
// it is.
func MetaWorkers(src []Info, cores, copyWorkers int) (n int, why string) {
	n = max(LocalMetaWorkers(cores), copyWorkers)
	i := slices.IndexFunc(src, func(in Info) bool { return in.Kind == Network })
	if i < 0 || n >= NetworkMetaWorkers {
		return n, ""
	}
	return NetworkMetaWorkers, fmt.Sprintf("%d header readers: %s is on a network filesystem (%s), where each read waits a round trip",
		NetworkMetaWorkers, describe(src[i]), src[i].FSType)
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
