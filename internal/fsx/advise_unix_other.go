//go:build unix && !linux && !freebsd && !darwin

package fsx

// adviseRandom: no readahead advice on these systems.
func adviseRandom(fd int) {}
