package journal

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// Ext is the file name extension of journals.
const Ext = ".journal"

// List summarizes every journal in dir, oldest first (run ids sort by start
// time). A journal that cannot be read is still listed, with Summary.Err
// saying why, so `shoebox log` can show it. A missing dir has no journals.
func List(dir string) ([]Summary, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list journals in %s: %w", quote.Path(dir), fsx.Bare(err))
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), Ext) && e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	sums := make([]Summary, 0, len(names))
	for _, name := range names {
		sum, err := Read(filepath.Join(dir, name), nil)
		sum.Err = err
		sums = append(sums, sum)
	}
	return sums, nil
}
