//go:build !linux

package fsx

// fsPlace: only Linux has bind mounts; elsewhere a path is its own place.
func fsPlace(p string) (dev, inFS string, ok bool) { return "", "", false }
