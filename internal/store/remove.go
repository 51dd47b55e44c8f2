package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/quote"
)

// Remove deletes the store folder dir (scratch, or disposable and being
// rebuilt) and the files pebble keeps in it, and nothing else: a folder at
// a store's name that holds any other file (a user's folder that happens
// to be called .shoebox, or .Shoebox on a case-insensitive disk) is left
// whole and refused with ErrNotOurs, naming the file. Each file is removed
// by the name checked, then the folder, which fails if anything appeared
// meanwhile: no file shoebox did not make is ever removed. A folder that
// is not there is no error.
func Remove(dir string) error {
	entries, err := storeEntries(dir)
	if err != nil || entries == nil {
		return err
	}
	return retrySharing(func() error {
		for _, e := range entries {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		}
		return os.Remove(dir)
	})
}

// storeEntries lists the store folder dir, refusing with ErrNotOurs when
// it holds anything pebble does not make; nil, nil when dir is not there.
func storeEntries(dir string) ([]os.DirEntry, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store folder %s: %w", quote.Path(dir), err)
	}
	manifest, data := false, ""
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !storeFileName(name) {
			return nil, fmt.Errorf("store folder %s holds %s, which shoebox did not make: %w; nothing was removed (move that file out of the folder)",
				quote.Path(dir), quote.Path(name), ErrNotOurs)
		}
		switch {
		case name == "CURRENT" || strings.HasPrefix(name, "marker.manifest."):
			manifest = true
		case strings.HasSuffix(name, ".log") || strings.HasSuffix(name, ".sst") || strings.HasSuffix(name, ".blob"):
			data = name
		}
	}
	// Pebble writes its first log only after its manifest marker, and
	// Remove takes logs before markers (name order): a log with no
	// marker beside it was never pebble's, but someone's file so named.
	if data != "" && !manifest {
		return nil, fmt.Errorf("store folder %s holds %s but no store's manifest, so shoebox did not make it: %w; nothing was removed (move that file out of the folder)",
			quote.Path(dir), quote.Path(data), ErrNotOurs)
	}
	if entries == nil {
		entries = []os.DirEntry{}
	}
	return entries, nil
}

// storeFileName reports whether name is one pebble gives its files, in
// pebble's exact forms (v2: base.MakeFilename, wal.makeLogFilename,
// atomicfs.markerFilename): LOCK, CURRENT, MANIFEST-n, OPTIONS-n, n.log,
// n.sst, n.blob, CURRENT.n.dbtmp, temporary.n.dbtmp, where n has at least
// six digits, and marker.<name>.<iter>.<value> for its markers. A user's
// marker.jpg or 2024.log only starts alike and is never taken for one.
func storeFileName(name string) bool {
	switch {
	case name == "LOCK" || name == "CURRENT":
		return true
	case strings.HasPrefix(name, "marker."):
		return markerName(name[len("marker."):])
	case strings.HasPrefix(name, "MANIFEST-"):
		return isFileNum(name[len("MANIFEST-"):])
	case strings.HasPrefix(name, "OPTIONS-"):
		return isFileNum(name[len("OPTIONS-"):])
	case strings.HasSuffix(name, ".dbtmp"):
		mid := strings.TrimSuffix(name, ".dbtmp")
		for _, p := range []string{"CURRENT.", "temporary."} {
			if strings.HasPrefix(mid, p) {
				return isFileNum(mid[len(p):])
			}
		}
		return false
	}
	num, ext, ok := strings.Cut(name, ".")
	return ok && isFileNum(num) && (ext == "log" || ext == "sst" || ext == "blob")
}

// markerName: rest is <name>.<iter>.<value> of pebble's marker files
// (marker.manifest.000001.MANIFEST-000001, marker.format-version.000001.013).
func markerName(rest string) bool {
	switch name, rest, _ := strings.Cut(rest, "."); name {
	case "manifest":
		iter, value, ok := strings.Cut(rest, ".")
		return ok && isFileNum(iter) && (value == "" || strings.HasPrefix(value, "MANIFEST-") && isFileNum(value[len("MANIFEST-"):]))
	case "format-version":
		iter, value, ok := strings.Cut(rest, ".")
		return ok && isFileNum(iter) && isNumber(value)
	}
	return false
}

// isFileNum: s is a pebble file number as it writes them, at least six
// digits (base.DiskFileNum's "%06d").
func isFileNum(s string) bool { return len(s) >= 6 && isNumber(s) }

func isNumber(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// Check refuses, as Open and Remove would (ErrNotOurs, naming the file),
// a folder at a store's name that is a link or holds anything pebble does
// not make, touching nothing: a dry run, which keeps its store elsewhere,
// foretells so the real run's refusal.
func Check(dir string) error {
	if err := requireStoreFolder(dir); err != nil {
		return fmt.Errorf("open store %s: %w", quote.Path(dir), err)
	}
	if _, err := storeEntries(dir); err != nil {
		return fmt.Errorf("open store %s: %w", quote.Path(dir), err)
	}
	return nil
}
