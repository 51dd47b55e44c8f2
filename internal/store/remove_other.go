//go:build !windows

package store

// retrySharing runs op once: an open file or folder does not keep its name
// from being removed here.
func retrySharing(op func() error) error { return op() }
