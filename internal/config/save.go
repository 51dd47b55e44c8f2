package config

import (
	"bytes"
	"fmt"
	"io"
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

// writeAtomic replaces path with data, whole or not at all (fsx.WriteFile).
func writeAtomic(path string, data []byte) error {
	err := fsx.WriteFile(fsx.OS, path, 0o644, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, func(string) error { return nil })
	if err != nil {
		return fmt.Errorf("save config %s: %w", quote.Path(path), err)
	}
	return nil
}
