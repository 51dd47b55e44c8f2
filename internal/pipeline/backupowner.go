package pipeline

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// A backup folder belongs to one library. Two libraries given one backup
// folder meet at the same names: a move into the second found the first's
// identical backup file there, kept it as its own second copy and emptied
// the card, and an undo of the first's run then deleted that file, leaving
// the second's photo with one copy. So a library has an identity (a random
// id in its state folder), a backup folder records whose backup it is
// (BACKUP/.shoebox/backup-of, a name the executor never lets a photo
// take), and a run refuses a backup folder that records another library,
// before anything is copied; a dry run says the same.

const (
	libraryIDFile = "library-id" // in DEST/.shoebox
	backupOfFile  = "backup-of"  // in BACKUP/.shoebox
)

// ErrBackupOwned: the backup folder holds another library's backup.
var ErrBackupOwned = errors.New("the backup folder holds another library's backup")

// backupOwner is what a backup folder records of its library.
type backupOwner struct {
	id, path string
}

// claimBackup checks that the backup folder is this library's, and in a
// real run records that it is (the first run with it, or a library whose
// state folder was made anew at the same path). Called under the
// library's lock.
func (r *Run) claimBackup() error {
	if r.backup == "" {
		return nil
	}
	if !r.cfg.DryRun {
		// Held open from before its first write, as the library is
		// (prepareStateDir).
		bak, err := fsx.OpenRoot(r.backup)
		if err != nil {
			return fmt.Errorf("open the backup folder %s: %w", quote.Path(r.backup), fsx.Bare(err))
		}
		r.bakRoot = bak
	}
	id, err := r.libraryID()
	if err != nil {
		return err
	}
	if err := r.notInsideAnotherBackup(id); err != nil {
		return err
	}
	if err := backupNotALibrary(r.backup); err != nil {
		return err
	}
	marker := filepath.Join(r.backup, ".shoebox", backupOfFile)
	// Two libraries given one fresh backup folder at once both find no
	// record: the first record stays (it is never replaced unread), and
	// the other run reads it and is refused.
	for range 3 {
		write, first, err := r.checkBackupOwner(id, marker)
		if err != nil || r.cfg.DryRun || !write {
			return err
		}
		err = writeBackupOwner(r.pinnedFS(), marker, backupOwner{id: id, path: r.dest}, first)
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
		// The record is read by name, written through the open folder:
		// a drive pulled between the two shows none by name, while the
		// one written is on the drive. That is the drive gone, not
		// another library racing this one.
		if err := r.rootsPresent(); err != nil {
			return err
		}
	}
	return fmt.Errorf("%w: backup folder %s: its record of whose backup it is, %s, keeps changing: is another library using it?", ErrConfig, quote.Path(r.backup), quote.Path(marker))
}

// checkBackupOwner reads the backup folder's record and refuses another
// library's; it says whether this library's record is to be written (none
// yet, or one naming it elsewhere: moved, or its state folder made anew),
// and whether that is the first record.
func (r *Run) checkBackupOwner(id, marker string) (write, first bool, err error) {
	owner, err := readBackupOwner(marker)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return true, true, nil
	case err != nil && r.asDriveStop(err) != err:
		return false, false, r.asDriveStop(err) // the drive fails, not the record
	case err != nil:
		return false, false, fmt.Errorf("%w: backup folder %s: its record of whose backup it is, %s, cannot be read (%v); if the folder is this library's backup, remove that file and run again",
			ErrConfig, quote.Path(r.backup), quote.Path(marker), err)
	case owner.id == id && id != "" && samePlace(owner.path, r.dest):
		return false, false, nil
	case owner.id == id && id != "":
		// This library's identity, another path: the library was moved
		// (its record follows it, below) or copied, the original still in
		// use under the same identity, which would share the folder.
		if stillThere(owner.path, id) {
			return false, false, fmt.Errorf("%w: %w: %s is the backup of the library %s, and %s is a copy of it (the same identity, %s); give the copy a backup folder of its own, and an identity of its own by removing %s",
				ErrConfig, ErrBackupOwned, quote.Path(r.backup), quote.Path(owner.path), quote.Path(r.dest),
				libraryIDFile, quote.Path(filepath.Join(StateDir(r.dest), libraryIDFile)))
		}
	case !samePlace(owner.path, r.dest):
		return false, false, fmt.Errorf("%w: %w: %s is the backup of the library %s; each library needs a backup folder of its own (a folder beside it on the same drive will do). If that library is this one, moved after its state folder was lost, remove %s and run again",
			ErrConfig, ErrBackupOwned, quote.Path(r.backup), quote.Path(owner.path), quote.Path(marker))
	}
	return true, false, nil
}

// samePlace reports whether two paths name one folder, by any name.
func samePlace(a, b string) bool { return fsx.Within(a, b) && fsx.Within(b, a) }

// stillThere reports whether the library at path still has identity id.
func stillThere(path, id string) bool {
	b, err := readSmall(filepath.Join(StateDir(path), libraryIDFile))
	return err == nil && strings.TrimSpace(string(b)) == id
}

// destNotABackup refuses a library in a folder that is, or lies inside,
// a backup folder: its files would be that library's strays, and the
// folder would then look like a library to its own library.
func (r *Run) destNotABackup() error {
	for dir := r.dest; ; dir = filepath.Dir(dir) {
		if owner, err := readBackupOwner(filepath.Join(dir, ".shoebox", backupOfFile)); err == nil {
			where := "is"
			if dir != r.dest {
				where = "is inside " + quote.Path(dir) + ","
			}
			return fmt.Errorf("%w: %w: the library %s %s the backup folder of the library %s; a backup folder is not a library: give the library a folder of its own",
				ErrConfig, ErrBackupOwned, quote.Path(r.dest), where, quote.Path(owner.path))
		}
		if filepath.Dir(dir) == dir {
			return nil
		}
	}
}

// notInsideAnotherBackup refuses a backup folder inside a folder that is
// another library's backup: its copies would be that library's strays,
// and its names that library's to take.
func (r *Run) notInsideAnotherBackup(id string) error {
	for dir := filepath.Dir(r.backup); ; dir = filepath.Dir(dir) {
		owner, err := readBackupOwner(filepath.Join(dir, ".shoebox", backupOfFile))
		if err == nil && (owner.id != id || id == "") && !samePlace(owner.path, r.dest) {
			return fmt.Errorf("%w: %w: %s is inside %s, the backup of the library %s; each library needs a backup folder of its own, outside any other's",
				ErrConfig, ErrBackupOwned, quote.Path(r.backup), quote.Path(dir), quote.Path(owner.path))
		}
		if filepath.Dir(dir) == dir {
			return nil
		}
	}
}

// backupNotALibrary refuses a backup folder whose state folder holds
// anything but the record of whose backup it is (and the temp of a write
// of it cut short): that is a library's state folder, and a library is
// not a backup folder.
func backupNotALibrary(backup string) error {
	state := filepath.Join(backup, ".shoebox")
	entries, err := os.ReadDir(state)
	if err != nil {
		return nil // none: a backup folder not yet used (a file there is refused where the copies go)
	}
	for _, e := range entries {
		if n := e.Name(); n != backupOfFile && !strings.HasPrefix(n, "."+backupOfFile+".shoebox-tmp-") {
			return fmt.Errorf("%w: backup folder %s holds %s, which is not a backup folder's: it looks like a library; give a folder of its own for the backup",
				ErrConfig, quote.Path(backup), quote.Path(filepath.Join(state, n)))
		}
	}
	return nil
}

// libraryID is the library's identity, made on its first real run; a dry
// run reads it and makes none ("" when there is none yet).
func (r *Run) libraryID() (string, error) {
	p := filepath.Join(StateDir(r.dest), libraryIDFile)
	b, err := readSmall(p)
	if id := strings.TrimSpace(string(b)); err == nil && validID(id) {
		return id, nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%w: the library's identity %s cannot be read: %w", ErrConfig, quote.Path(p), err)
	}
	if r.cfg.DryRun {
		return "", nil
	}
	var raw [16]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	id := hex.EncodeToString(raw[:])
	// A damaged id file (scratch written by hand, cut short) is replaced:
	// the backup folder's record of the library's path still tells it.
	replace := func(string) error { return nil }
	err = fsx.WriteFile(r.pinnedFS(), p, 0o644, func(w io.Writer) error {
		_, err := fmt.Fprintln(w, id)
		return err
	}, replace)
	if err != nil {
		return "", fmt.Errorf("record the library's identity: %w", err)
	}
	return id, nil
}

// pinnedFS writes the records through the library and the backup folder
// opened at the start: a drive pulled meanwhile gets them or they fail,
// and none lands in its empty mount point.
func (r *Run) pinnedFS() fsx.FS { return fsx.Pin(r.cfg.FS, r.libRoot, r.bakRoot) }

func validID(id string) bool {
	_, err := hex.DecodeString(id)
	return err == nil && len(id) == 32
}

// readBackupOwner reads BACKUP/.shoebox/backup-of: "library ID" and
// "path PATH" lines. A record too big or without an id is unusable.
func readBackupOwner(p string) (backupOwner, error) {
	b, err := readSmall(p)
	if err != nil {
		return backupOwner{}, err
	}
	var o backupOwner
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		key, value, _ := strings.Cut(sc.Text(), " ")
		switch key {
		case "library":
			o.id = value
		case "path":
			if o.path, err = strconv.Unquote(value); err != nil {
				return backupOwner{}, fmt.Errorf("not a record shoebox wrote (path %s)", value)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return backupOwner{}, err
	}
	if !validID(o.id) || o.path == "" {
		return backupOwner{}, fmt.Errorf("not a record shoebox wrote (no library id or path)")
	}
	return o, nil
}

// readSmall reads a record shoebox wrote: a regular file only (a named
// pipe there would block the open forever), at most maxRecord bytes.
func readSmall(p string) ([]byte, error) {
	f, err := fsx.OpenRegular(p, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxRecord+1))
	if err == nil && len(b) > maxRecord {
		err = fmt.Errorf("%s: over %d bytes: not a record shoebox wrote", quote.Path(p), maxRecord)
	}
	return b, err
}

// maxRecord bounds the records read: a path and an id.
const maxRecord = 64 << 10

// writeBackupOwner writes the record; the first one only where none is
// (fs.ErrExist when another run's came first), else in place of the one
// read.
func writeBackupOwner(fsys fsx.FS, p string, o backupOwner, first bool) error {
	if err := fsys.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("backup folder: %w", err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "library %s\npath %s\n", o.id, strconv.Quote(o.path)) // quoted: a name may hold a line break
	replace := func(string) error { return nil }
	if first {
		replace = nil // published without replacing: fs.ErrExist if another came first
	}
	err := fsx.WriteFile(fsys, p, 0o644, func(w io.Writer) error {
		_, err := w.Write(b.Bytes())
		return err
	}, replace)
	if err != nil {
		return fmt.Errorf("record whose backup %s is: %w", quote.Path(filepath.Dir(filepath.Dir(p))), err)
	}
	return nil
}
