package transfer

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"shoebox/internal/journal"
)

// ensureDir creates dir and its missing parents, recording one "mkdir" per
// directory created. In a dry run the directories are only remembered, so
// later ops into the same directory predict no second mkdir, exactly as the
// real run behaves.
func (r *run) ensureDir(dir string) error {
	if r.e.knownDir(dir) {
		return nil
	}
	r.e.mkdirMu.Lock()
	defer r.e.mkdirMu.Unlock()
	if r.e.knownDir(dir) { // another worker made it while we waited
		return nil
	}
	missing, err := r.missingDirs(dir)
	if err != nil {
		return err
	}
	if len(missing) > 0 && !r.e.dryRun {
		if err := r.e.fs.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create directory: %w", err)
		}
	}
	for _, d := range missing {
		r.record("mkdir %s", d)
		if !r.e.dryRun {
			// A new directory's own entry lives in its parent.
			r.e.markDirty(filepath.Dir(d))
			r.journalMkdir(d)
		}
	}
	r.e.rememberDirs(append(missing, dir)...)
	return nil
}

// missingDirs lists, outermost first, the directories that must be created
// for dir to exist.
func (r *run) missingDirs(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if r.e.knownDir(d) {
			break
		}
		fi, err := r.e.fs.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				return nil, fmt.Errorf("create directory: %q is not a directory", d)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("check directory: %w", err)
		}
		missing = append(missing, d)
		if d == filepath.Dir(d) {
			break
		}
	}
	for i, j := 0, len(missing)-1; i < j; i, j = i+1, j-1 {
		missing[i], missing[j] = missing[j], missing[i]
	}
	return missing, nil
}

// journalMkdir records a created directory so an undo can remove it if it
// ends up empty. Losing this record only leaves an empty directory behind,
// so its error does not fail the op.
func (r *run) journalMkdir(dir string) {
	if r.e.journal == nil {
		return
	}
	_ = r.e.journal.Append(journal.Entry{Seq: r.op.Seq, State: journal.Done, Action: journal.Mkdir, Dst: dir})
}
