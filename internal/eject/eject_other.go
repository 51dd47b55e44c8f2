//go:build !linux && !darwin

package eject

// Volumes is not implemented here yet (Windows: no eject yet).
func Volumes(sources []string, dest, backup string) ([]Result, error) { return nil, ErrUnsupported }
