package storage

import (
	"strings"
	"testing"
)

// TestMetaWorkersWantMoreReadsInFlightOverANetwork: header reads from a
// network filesystem (sshfs is FUSE, assumed remote) get
// NetworkMetaWorkers, local ones twice the cores, never fewer than the
// copy workers; only the network choice is announced.
func TestMetaWorkersWantMoreReadsInFlightOverANetwork(t *testing.T) {
	sshfs := Info{Kind: Network, FSType: "fuse.sshfs", Device: "nas:/photos", Mount: "/mnt/nas"}
	ssd := Info{Kind: Local, FSType: "ext4", Device: "nvme0n1"}
	hdd := Info{Kind: Rotational, FSType: "ext4", Device: "sda"}
	cases := []struct {
		name         string
		src          []Info
		cores, copyW int
		want         int
		says         string
	}{
		{"local SSD, 2 cores", []Info{ssd}, 2, 4, 4, ""},
		{"local SSD, 8 cores", []Info{ssd}, 8, 4, 16, ""},
		{"copy workers asked above the default", []Info{ssd}, 2, 12, 12, ""},
		{"spinning disk", []Info{hdd}, 2, 1, 4, ""},
		{"no source probed", nil, 2, 4, 4, ""},
		{"sshfs source", []Info{sshfs}, 2, 2, NetworkMetaWorkers, "on a network filesystem (fuse.sshfs)"},
		{"one of two sources on sshfs", []Info{ssd, sshfs}, 2, 2, NetworkMetaWorkers, "nas:/photos"},
		{"more cores than the network count needs", []Info{sshfs}, 16, 2, 32, ""},
	}
	for _, c := range cases {
		n, why := MetaWorkers(c.src, c.cores, c.copyW)
		if n != c.want {
			t.Errorf("%s: %d header readers, want %d", c.name, n, c.want)
		}
		if c.says == "" && why != "" || c.says != "" && !strings.Contains(why, c.says) {
			t.Errorf("%s: says %q, want %q", c.name, why, c.says)
		}
	}
	if NetworkMetaWorkers <= LocalMetaWorkers(2) {
		t.Errorf("a network source must get more reads in flight (%d) than a local one on 2 cores (%d)", NetworkMetaWorkers, LocalMetaWorkers(2))
	}
}
