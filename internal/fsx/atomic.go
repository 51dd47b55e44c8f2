package fsx

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile is the one durable write of a whole file (renameio's shape),
// for every writer that is not a transfer: the library config, the report,
// calibration files. The file appears whole or not at all: fill writes a
// temp file created exclusively beside path under a random name (so it
// can never be a user's file, and two writers never share one), which is
// synced, renamed into place and its folder synced. What may stand at path
// is the caller's to say: replace nil renames without replacing (anything
// there is refused, fs.ErrExist); otherwise replace is asked just before
// the rename and its error stops it. A failed write removes its temp.
// Every step goes through fsys, so the fault injector reaches it.
func WriteFile(fsys FS, path string, perm os.FileMode, fill func(io.Writer) error, replace func(path string) error) error {
	tmp, f, err := createTemp(fsys, path, perm)
	if err != nil {
		return err
	}
	published := false
	defer func() {
		if !published {
			f.Close()
			fsys.Remove(tmp) // ours: made just now with O_EXCL, never renamed
		}
	}()
	if err := fillAndSync(f, fill); err != nil {
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", tmp, err)
	}
	if err := publishTemp(fsys, tmp, path, replace); err != nil {
		return err
	}
	published = true
	CrashPoint(fsys, AfterRename)
	return fsys.SyncDir(filepath.Dir(path))
}

// tempTries bounds the random names tried; a collision of 64 random bits
// means someone is guessing, not chance.
const tempTries = 8

// createTemp makes ".<name>.shoebox-tmp-<16 hex>" beside path, exclusively.
func createTemp(fsys FS, path string, perm os.FileMode) (string, File, error) {
	var last error
	for range tempTries {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", nil, err
		}
		tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".shoebox-tmp-"+hex.EncodeToString(b[:]))
		f, err := fsys.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if err == nil {
			return tmp, f, nil
		}
		if last = err; !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	return "", nil, fmt.Errorf("create a temp file beside %s: %w", path, last)
}

func fillAndSync(f File, fill func(io.Writer) error) error {
	w := bufio.NewWriterSize(f, 64<<10)
	if err := fill(w); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Sync()
}

// publishTemp renames the finished temp to path: without replacing when
// replace is nil or nothing is there, else only when replace allows it.
func publishTemp(fsys FS, tmp, path string, replace func(string) error) error {
	if replace == nil {
		return fsys.RenameNoReplace(tmp, path)
	}
	if err := replace(path); err != nil {
		return err
	}
	if _, err := fsys.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return fsys.RenameNoReplace(tmp, path)
	}
	return fsys.Rename(tmp, path)
}
