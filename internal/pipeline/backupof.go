package pipeline

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// ErrBackupAway: the backup folder is not there (its drive not connected).
var ErrBackupAway = errors.New("the backup folder is not there")

// backupAway is backupThere's error for a folder that is not there: its
// message says so in full, and errors.Is finds ErrBackupAway in it.
type backupAway struct{ error }

func (e backupAway) Is(target error) bool { return target == ErrBackupAway }
func (e backupAway) Unwrap() error        { return e.error }

// CheckBackupOf checks, for a command that rearranges a backup folder
// after its library's files (relayout), that backup is the library's own:
// there, apart from the library (neither inside the other), and
// recording the library as its owner, as a sort with --backup made it. A
// folder another library owns, or that records no owner, is refused: its
// files are not this library's to move. Errors wrap ErrConfig, and
// ErrBackupAway or ErrBackupOwned where those are the reason.
func CheckBackupOf(lib, backup string) error {
	if err := backupThere(backup, backup); err != nil {
		return err
	}
	if fsx.Within(backup, lib) || fsx.Within(lib, backup) {
		return fmt.Errorf("%w: the backup folder %s and the library %s overlap: the backup must be a folder of its own, outside the library", ErrConfig, quote.Path(backup), quote.Path(lib))
	}
	marker := filepath.Join(backup, ".shoebox", backupOfFile)
	owner, err := readBackupOwner(marker)
	if err != nil {
		return fmt.Errorf("%w: %w: the backup folder %s has no readable record of whose backup it is (%s: %v): only a backup a sort with --backup made for this library is moved with it",
			ErrConfig, ErrBackupOwned, quote.Path(backup), quote.Path(marker), fsx.Bare(err))
	}
	// As sort judges it (checkBackupOwner): the library at the place the
	// record names, or the library the record names by identity, moved
	// from there (no library with that identity is left at the old place).
	raw, _ := readSmall(filepath.Join(StateDir(lib), libraryIDFile))
	id := strings.TrimSpace(string(raw))
	if samePlace(owner.path, lib) || owner.id == id && id != "" && !stillThere(owner.path, id) {
		return nil
	}
	return fmt.Errorf("%w: %w: %s is the backup of the library %s, not of %s", ErrConfig, ErrBackupOwned,
		quote.Path(backup), quote.Path(owner.path), quote.Path(lib))
}
