package fsx

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/shoebox-photos/shoebox/internal/quote"
)

// ErrGone is wrapped by the error of an operation under a Root whose
// folder is no longer where it was when the run opened it: its drive was
// unmounted or pulled, or the folder was moved away.
var ErrGone = errors.New("the drive went away")

// GoneError says which root went away, or stopped answering. It wraps
// ErrGone, and Cause when there is one.
type GoneError struct {
	Root  string // the folder as the run named it
	Mount string // the mount point of its drive, as seen when it was opened
	// Cause is nil when the root's name no longer leads to its folder;
	// else the error its drive answered with (EIO from a failing disk,
	// EROFS from one the system made read-only): the drive is still
	// there, but cannot be used.
	Cause error
}

func (e *GoneError) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("the drive at %s fails (%s: %v)", quote.Path(e.Mount), quote.Path(e.Root), errnoOf(e.Cause))
	}
	return fmt.Sprintf("the drive at %s went away (%s is no longer the folder the run started with)", quote.Path(e.Mount), quote.Path(e.Root))
}

func (e *GoneError) Unwrap() []error {
	if e.Cause != nil {
		return []error{ErrGone, e.Cause}
	}
	return []error{ErrGone}
}

// errnoOf is err's bare errno where it has one ("input/output error"),
// without the operation and path that the message says already.
func errnoOf(err error) error {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno
	}
	return err
}

// Root is a folder a run writes under (the library, the backup folder),
// opened once when the run starts and held open until it ends.
//
// A path names a folder only as long as nothing is mounted or unmounted
// on the way: once a USB disk is unmounted (umount -l, a pulled cable
// that the desktop unmounts), its mount point is an empty folder on the
// disk underneath, and a run that goes on by name writes its "copies"
// there. Through a Root it cannot: where the system can (Linux, whose
// /proc/self/fd/N is the open folder itself, whatever became of its
// name), every operation under the root goes through the open folder, so
// it reaches the drive the run started with or fails; elsewhere each
// mutation first checks that the name still leads to that folder (see
// Pin). Either way Present tells the run, between files, that the drive
// went away, so that it stops with one message instead of one error per
// file.
type Root struct {
	name  string   // absolute, clean
	dir   *os.File // held open for the whole run
	info  os.FileInfo
	mount string // the mount point of its drive when opened
	via   string // the prefix operations use instead of name ("": name itself)
}

// OpenRoot opens the existing folder name as a Root.
func OpenRoot(name string) (*Root, error) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, err
	}
	dir, err := os.Open(abs)
	if err != nil {
		return nil, err
	}
	info, err := dir.Stat()
	if err == nil && !info.IsDir() {
		err = &os.PathError{Op: "open", Path: abs, Err: errors.New("not a folder")}
	}
	if err != nil {
		dir.Close()
		return nil, err
	}
	r := &Root{name: abs, dir: dir, info: info, mount: mountPointOf(abs, info)}
	r.via = handlePath(dir, info)
	return r, nil
}

// Name is the root's absolute path.
func (r *Root) Name() string { return r.name }

// Mount is the mount point of the root's drive as it was when opened.
func (r *Root) Mount() string { return r.mount }

// Present returns nil while the root's name still leads to the folder
// that was opened, else a *GoneError: its Cause is the error of a drive
// that answers the look with an I/O error (a disk failing) rather than
// with what is at the name.
func (r *Root) Present() error {
	st, err := os.Stat(r.name)
	if err == nil && os.SameFile(st, r.info) {
		return nil
	}
	g := &GoneError{Root: r.name, Mount: r.mount}
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
		g.Cause = err
	}
	return g
}

// Failed is a *GoneError for a drive that is still there but failing:
// the root's drive answered an operation with cause (EIO, EROFS).
func (r *Root) Failed(cause error) *GoneError {
	return &GoneError{Root: r.name, Mount: r.mount, Cause: cause}
}

// Close releases the folder (and with it a drive unmounted lazily meanwhile).
func (r *Root) Close() error { return r.dir.Close() }

// mountPointOf is the outermost folder above p on p's own device: where
// its drive is mounted (a bind mount's own point is not told apart).
func mountPointOf(p string, info os.FileInfo) string {
	dev, _ := DevIno(info)
	at := p
	for d := filepath.Dir(p); d != at; at, d = d, filepath.Dir(d) {
		st, err := os.Stat(d)
		if err != nil {
			break
		}
		if ddev, _ := DevIno(st); ddev != dev {
			break
		}
	}
	return at
}
