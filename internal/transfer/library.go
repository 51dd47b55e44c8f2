package transfer

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// checkLibraryDst refuses, when the executor knows its library, a
// destination outside it or one with a path segment that names something
// shoebox keeps for itself (DEST/.shoebox, a temp file): defence in depth
// behind the planner, which never plans such a name (layout.SafeName).
func (e *Executor) checkLibraryDst(dst string) error {
	if e.library == "" {
		return nil
	}
	rel, ok := e.inLibrary(dst)
	if !ok || rel == "." {
		return fmt.Errorf("destination %s is not inside the library %s", quote.Path(dst), quote.Path(e.library))
	}
	for _, seg := range strings.Split(rel, string(filepath.Separator)) {
		if layout.Reserved(seg) {
			return fmt.Errorf("%w: %s in %s", ErrReservedName, quote.Path(seg), quote.Path(dst))
		}
	}
	return nil
}

// checkBackupDst is checkLibraryDst for the second copy under --backup.
func (e *Executor) checkBackupDst(dst string) error {
	if e.backup == "" {
		return fmt.Errorf("backup copy %s: the executor has no backup folder", quote.Path(dst))
	}
	rel, ok := under(e.backup, dst)
	if !ok || rel == "." {
		return fmt.Errorf("backup copy %s is not inside the backup folder %s", quote.Path(dst), quote.Path(e.backup))
	}
	for _, seg := range strings.Split(rel, string(filepath.Separator)) {
		if layout.Reserved(seg) {
			return fmt.Errorf("%w: %s in %s", ErrReservedName, quote.Path(seg), quote.Path(dst))
		}
	}
	return nil
}

// inLibrary returns p relative to the library, and whether p is the
// library or inside it.
func (e *Executor) inLibrary(p string) (string, bool) { return under(e.library, p) }

// under returns p relative to root, and whether p is root or inside it.
func under(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

// strictlyInLibrary: p is a folder inside the library, not the library
// itself (which may well be a link the user chose).
func (e *Executor) strictlyInLibrary(p string) bool {
	if e.backup != "" {
		// The backup folder is held to the library's rules: never
		// written through a link inside it.
		if rel, ok := under(e.backup, p); ok && rel != "." {
			return true
		}
	}
	if e.library == "" {
		return false
	}
	rel, ok := e.inLibrary(p)
	return ok && rel != "."
}
