package config

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

const libraryHeader = `# shoebox library settings. They win over ~/.config/shoebox/config.toml;
# flags on the command line win over both. Written by shoebox when it
# first sorted into this library so that later sorts keep its layout.
`

// SaveLibrary writes s as the library config of dest, replacing the file
// atomically: a crash leaves the old file or the new one, never a mix.
func SaveLibrary(dest string, s Settings) error {
	path := LibraryPath(dest)
	var buf bytes.Buffer
	buf.WriteString(libraryHeader)
	if err := toml.NewEncoder(&buf).Encode(s); err != nil {
		return fmt.Errorf("save config %s: encode: %w", quote.Path(path), err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("save config %s: %w", quote.Path(path), err)
	}
	return writeAtomic(path, buf.Bytes())
}

// writeAtomic writes data to a temporary file beside path, syncs it,
// renames it over path and syncs the directory so the rename is durable.
func writeAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, ".config-*.toml")
	if err != nil {
		return fmt.Errorf("save config %s: %w", quote.Path(path), err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("save config %s: write %s: %w", quote.Path(path), quote.Path(tmp.Name()), err)
	}
	if err = tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("save config %s: %w", quote.Path(path), err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("save config %s: sync: %w", quote.Path(path), err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("save config %s: close: %w", quote.Path(path), err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("save config %s: %w", quote.Path(path), err)
	}
	return syncDir(dir)
}

func syncDir(dir string) error {
	if err := fsx.SyncDir(dir); err != nil { // the seam's: Windows has no directory fsync
		return fmt.Errorf("sync directory %s: %w", quote.Path(dir), err)
	}
	return nil
}
