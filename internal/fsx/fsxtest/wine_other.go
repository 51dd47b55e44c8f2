//go:build !windows

package fsxtest

// UnderWine is false off Windows: Wine runs only Windows programs.
func UnderWine() bool { return false }
