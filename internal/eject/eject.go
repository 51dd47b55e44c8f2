// Package eject unmounts the volume a card import came from (`sort
// --eject`), once every file is safely in the library. Only a removable
// or loop-backed volume is unmounted, never the system's own disks, and
// never the volume the library itself is on.
package eject

import "errors"

// Result is what became of one source volume.
type Result struct {
	Source string // the SRC as given
	Point  string // its mount point, "" when not found
	Device string // the device mounted there, "" when not found
	Done   bool   // unmounted
	Why    string // why not, when not Done; how, when Done
}

// ErrUnsupported is returned where this platform has no eject yet.
var ErrUnsupported = errors.New("--eject is not supported on this system yet")
