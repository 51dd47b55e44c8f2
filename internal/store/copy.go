package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/shoebox-photos/shoebox/internal/quote"
)

// CopyOf opens a private, writable copy of the store in src, made in dst,
// without writing to src: a dry run reads the library's index as the real
// run does, and the writes the run makes to it (files it learns, entries
// it drops) land in the copy only. Nothing of src is linked, which would
// change its files' link count and change time.
//
// The copy is first made file by file (pebble's tables are immutable, so
// a copy of the folder is the store as it stood; a 100,000-file library's
// index is a few MB, copied in milliseconds). A run writing src meanwhile
// (a dry run does not take the library's lock) can make that copy
// unopenable or its reading fail; then it is made key by key from a
// read-only open, one consistent snapshot, at about 3 µs a key. The copy
// never syncs (it is scratch): the caller closes it and removes dst.
func CopyOf(src, dst string) (*Store, error) {
	if s, err := copyFiles(src, dst); err == nil {
		return s, nil
	}
	return copyByKey(src, dst)
}

// copyFiles copies the store's files (its lock file left out) into a new
// folder dst and opens the copy.
func copyFiles(src, dst string) (*Store, error) {
	if err := discardCopy(dst); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.Name() == "LOCK" || !e.Type().IsRegular() {
			continue
		}
		if err := copyFile(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil {
			return nil, err
		}
	}
	s, err := open(dst, Options{base: noSyncFS{vfs.Default}})
	if err != nil {
		return nil, err
	}
	// Read it through once: a table torn by a concurrent compaction of
	// src shows here, not halfway through the run.
	if err := s.Scan(nil, func(_, _ []byte) error { return nil }); err != nil {
		return nil, errors.Join(err, s.Close())
	}
	return s, nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	return errors.Join(err, out.Close())
}

// discardCopy removes what an earlier attempt left in dst.
func discardCopy(dst string) error {
	if err := os.RemoveAll(dst); err != nil {
		return fmt.Errorf("copy store: remove %s: %w", quote.Path(dst), err)
	}
	return nil
}

// copyByKey makes the copy key by key from a read-only open of src.
func copyByKey(src, dst string) (*Store, error) {
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
