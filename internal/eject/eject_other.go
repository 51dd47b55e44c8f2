//go:build !linux && !darwin

package eject

// Volumes is not implemented here yet (Windows: no eject yet).
func Volumes(Request) ([]Result, error) { return nil, ErrUnsupported }
