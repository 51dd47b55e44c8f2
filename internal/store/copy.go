package store

import (
	"errors"
	"fmt"

	"github.com/shoebox-photos/shoebox/internal/quote"
)

// CopyOf opens a private, writable copy of the store in src, made in dst,
// without writing to src: a dry run reads the library's index as the real
// run does, and the writes the run makes to it (files it learns, entries
// it drops) land in the copy only. The copy is made key by key from a
// read-only open (one consistent snapshot): no file of src is linked,
// which would change its link count and change time, and pebble's own
// checkpoint needs the OPTIONS file a read-only open does not write.
// The copy is Scratch: whatever dst held is removed first, and the
// caller removes dst after closing it.
func CopyOf(src, dst string) (*Store, error) {
	from, err := open(src, Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer from.Close()
	to, err := Open(dst, Options{Scratch: true})
	if err != nil {
		return nil, err
	}
	if err := copyKeys(from, to); err != nil {
		return nil, errors.Join(fmt.Errorf("copy store %s to %s: %w", quote.Path(src), quote.Path(dst), err), to.Close())
	}
	return to, nil
}

// copyBatch is how many keys go in one commit of a copy.
const copyBatch = 4096

func copyKeys(from, to *Store) error {
	w := to.Writer(copyBatch)
	if err := from.Scan(nil, w.Put); err != nil {
		return err
	}
	return w.Flush()
}
