//go:build !linux && !windows

package storage

import (
	"fmt"
	"os"

	"github.com/shoebox-photos/shoebox/internal/quote"
)

// Probe tells what kind of storage path is on. Outside Linux and Windows there is no
// mountinfo or sysfs to read, so every existing path is Unknown.
func Probe(path string) (Info, error) {
	if _, err := os.Stat(path); err != nil && !os.IsNotExist(err) {
		return Info{}, fmt.Errorf("probe storage of %s: %w", quote.Path(path), err)
	}
	return Info{Kind: Unknown, Reason: "storage is probed on Linux only"}, nil
}
