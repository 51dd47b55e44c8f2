package transfer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// ensureDir creates dir and its missing parents. Each directory it is about
// to create is journaled as an Intent first, then Done (or Failed): a run
// killed between the mkdir and its record still names the folder, so
// recovery and undo can remove it once it is empty; a folder that existed
// before is never named. In a dry run the directories are only remembered,
// so later ops into the same directory predict no second mkdir, exactly as
// the real run behaves.
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
		if err := r.makeDirs(dir, missing); err != nil {
			return err
		}
	}
	for _, d := range missing {
		r.record("mkdir %s", d)
	}
	r.e.rememberDirs(append(missing, dir)...)
	return nil
}

// makeDirs creates dir, whose missing ancestors (outermost first, dir
// last) are missing, journaling each around its creation.
func (r *run) makeDirs(dir string, missing []string) error {
	entries := make([]journal.Entry, len(missing))
	for i, d := range missing {
		entries[i] = journal.Entry{Seq: r.e.journalSeq(), State: journal.Intent, Action: journal.Mkdir, Dst: d}
		if err := r.appendJournal(entries[i]); err != nil {
			return fmt.Errorf("create directory %s: %w", quote.Path(d), err)
		}
	}
	mkErr := r.e.fs.MkdirAll(dir, 0o755)
	fsx.CrashPoint(r.e.fs, fsx.AfterMkdir)
	for i, d := range missing {
		// A new directory's own entry lives in its parent.
		r.e.markDirty(filepath.Dir(d))
		entries[i].State = journal.Done
		if fi, err := r.e.fs.Lstat(d); err == nil && fi.IsDir() {
			// Its identity: undo removes this folder, not whatever a
			// link put in its place later leads to.
			entries[i].Dev, entries[i].Ino = fsx.DevIno(fi)
		} else if mkErr != nil {
			entries[i].State, entries[i].Err = journal.Failed, mkErr.Error()
		}
		// Losing this record costs nothing recovery cannot redo: the
		// Intent already names the folder.
		_ = r.appendJournal(entries[i])
	}
	if mkErr != nil {
		return fmt.Errorf("create directory: %w", mkErr)
	}
	return nil
}

// missingDirs lists, outermost first, the directories that must be created
// for dir to exist. Inside the library every folder on the way is checked
// with Lstat, up to the library root and not only up to the first that
// exists, so a symbolic link is refused wherever it sits on the path: a
// folder that exists behind a link is still behind it.
func (r *run) missingDirs(dir string) ([]string, error) {
	var missing []string
	for d := dir; !r.e.knownDir(d); d = filepath.Dir(d) {
		inside := r.e.strictlyInLibrary(d)
		exists, err := r.checkDir(d, inside)
		if err != nil {
			return nil, err
		}
		if !exists {
			missing = append(missing, d)
		} else if !inside {
			break
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	for i, j := 0, len(missing)-1; i < j; i, j = i+1, j-1 {
		missing[i], missing[j] = missing[j], missing[i]
	}
	return missing, nil
}

// checkDir says whether d exists as a folder. Inside the library a link is
// not followed but refused, naming it.
func (r *run) checkDir(d string, inside bool) (bool, error) {
	stat := r.e.fs.Stat
	if inside {
		stat = r.e.fs.Lstat
	}
	fi, err := stat(d)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("check directory: %w", err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return false, fmt.Errorf("folder %s %w", quote.Path(d), ErrLinkInLibrary)
	case !fi.IsDir():
		return false, fmt.Errorf("create directory: %s is not a directory", quote.Path(d))
	case inside && r.e.isStateFolder(fi):
		return false, fmt.Errorf("%w: folder %s is the library's state folder %s or a folder in it, under another name (a short name, an alias or a mount); nothing is written there",
			ErrReservedName, quote.Path(d), quote.Path(filepath.Join(r.e.library, layout.StateDirName)))
	}
	return true, nil
}

// isStateFolder reports whether fi, a folder inside the library, is the
// library's state folder or one of the folders in it, by identity: a name
// can reach them in ways no rule on names foresees (Wine's and Samba's
// 8.3 aliases such as "_SHO~E2X", a bind mount), and a file put there
// would be inside a store shoebox removes whole (the run store).
func (e *Executor) isStateFolder(fi fs.FileInfo) bool {
	dev, ino := fsx.DevIno(fi)
	if dev == 0 && ino == 0 {
		return false
	}
	return slices.Contains(e.stateIDs(), fileID{dev, ino})
}

type fileID struct{ dev, ino uint64 }

// stateIDs are the identities of DEST/.shoebox and of each folder in it,
// read once, when the first existing library folder is checked.
func (e *Executor) stateIDs() []fileID {
	e.stateOnce.Do(func() {
		if e.library == "" {
			return
		}
		state := filepath.Join(e.library, layout.StateDirName)
		dirs := []string{state}
		if entries, err := os.ReadDir(state); err == nil {
			for _, en := range entries {
				if en.IsDir() {
					dirs = append(dirs, filepath.Join(state, en.Name()))
				}
			}
		}
		for _, d := range dirs {
			if fi, err := e.fs.Lstat(d); err == nil && fi.IsDir() {
				if dev, ino := fsx.DevIno(fi); dev != 0 || ino != 0 {
					e.stateIDList = append(e.stateIDList, fileID{dev, ino})
				}
			}
		}
	})
	return e.stateIDList
}
