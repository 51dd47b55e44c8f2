package store

import (
	"errors"
	"runtime"
	"time"

	"golang.org/x/sys/windows"
)

// retrySharing runs op, and again after a garbage collection where
// Windows refuses with a sharing violation: pebble's Open, refusing a
// store written in a format it does not know (one made by a newer
// shoebox, or damaged), leaves the folder handle of its format marker open
// (pebble v2.1.7, lookupFormatMajorVersion), and Windows deletes no file
// or folder held open. The handle is unreachable; the collector's cleanup
// closes it.
func retrySharing(op func() error) error {
	err := op()
	for i := 0; i < 5 && errors.Is(err, windows.ERROR_SHARING_VIOLATION); i++ {
		runtime.GC()
		time.Sleep(time.Duration(i+1) * 20 * time.Millisecond) // cleanups run on their own goroutine
		err = op()
	}
	return err
}
