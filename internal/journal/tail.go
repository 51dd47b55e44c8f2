package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// closedFrame is the exact last frame of a journal whose writer closed it.
var closedFrame = appendFrame(nil, []byte{typeClosed})

// Closed reports whether the journal at path ends with the closed marker,
// reading only its last bytes. A run that ended cleanly has nothing to
// recover, so a sort can skip reading its journal at start.
func Closed(path string) (bool, error) {
	f, err := fsx.OpenRegular(path, false) // a named pipe here must not hang every later run
	if err != nil {
		return false, fmt.Errorf("journal %s: %w", quote.Path(path), fsx.Bare(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return false, fmt.Errorf("journal %s: %w", quote.Path(path), fsx.Bare(err))
	}
	if st.Size() < int64(len(closedFrame)) {
		return false, nil
	}
	tail := make([]byte, len(closedFrame))
	if _, err := f.ReadAt(tail, st.Size()-int64(len(tail))); err != nil {
		return false, fmt.Errorf("journal %s: %w", quote.Path(path), fsx.Bare(err))
	}
	return bytes.Equal(tail, closedFrame), nil
}

// AllClosed reports whether every journal in dir ended cleanly (true for
// an empty or missing dir), looking only at their tails.
func AllClosed(dir string) (bool, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("list journals in %s: %w", quote.Path(dir), err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), Ext) || !e.Type().IsRegular() {
			continue
		}
		closed, err := Closed(filepath.Join(dir, e.Name()))
		if err != nil || !closed {
			return false, err
		}
	}
	return true, nil
}
