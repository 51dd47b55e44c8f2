// Package eject unmounts the volume a card import came from (`sort
// --eject`), once every photo and video on it is safely in the library.
// Only a removable or loop-backed volume is unmounted, never the system's
// own disks, never the device the library or the backup is on (whatever
// mount point reaches it), and never a volume that holds a photo or video
// the run did not put in the library: one a filter left out, one in a
// hidden folder or outside the folders sorted.
package eject

import "errors"

// Request is what --eject knows of a finished run.
type Request struct {
	Sources      []string // the SRCs as given
	Dest, Backup string   // the library, and the --backup folder ("" without one)
	Hidden       bool     // the run sorted hidden files and system clutter too (--hidden)
	// Left are the photos and videos the run met on the sources and left
	// there, their bytes in no library (pipeline.Event.LeftOnSource).
	Left []Left
}

// Left is one photo or video a run left on its source, and why.
type Left struct {
	Path string // as the run named it: under a SRC as given
	Why  string // "left out by --since"
}

// Result is what became of one source volume.
type Result struct {
	Source string // the SRC as given
	Point  string // its mount point, "" when not found
	Device string // the device mounted there, "" when not found
	Done   bool   // unmounted
	Why    string // why not, when not Done; how, when Done
	// Stays, when not Done and Why is "", is what keeps the volume
	// mounted: photos and videos on it that are not in the library.
	Stays Stays
}

// Stays is what keeps a volume mounted although the run went well: the
// photos and videos on it that are in no library, or why that could not
// be checked.
type Stays struct {
	Count     int      // how many photos and videos (at least, when Unchecked)
	Paths     []string // the first of them by name, at most Listed
	Whys      []string // why they stay, each reason once, sorted
	Unchecked string   // why part of the volume could not be looked at ("" when all of it was)
}

// Keeps reports whether something keeps the volume mounted.
func (s Stays) Keeps() bool { return s.Count > 0 || s.Unchecked != "" }

// Listed is how many paths a Stays names; it counts them all.
const Listed = 5

// ErrUnsupported is returned where this platform has no eject yet.
var ErrUnsupported = errors.New("--eject is not supported on this system yet")
