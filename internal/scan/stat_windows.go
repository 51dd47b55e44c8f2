package scan

import (
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"golang.org/x/sys/windows"
)

// On Windows a file's identity (volume serial number and file index) and
// link count come from GetFileInformationByHandle, so each entry is opened
// (for its attributes only, sharing everything, never its data). The type
// comes from os.Lstat, which tells symbolic links and junctions from the
// other reparse points (cloud placeholders, deduplicated files) that are
// ordinary files to the user.

// openDirectory is a plain open: Windows has no named pipes among files.
func openDirectory(path string) (*os.File, error) { return os.Open(path) }

func statID(path string) (fileID, bool) {
	st, err := statPath(path)
	return st.id, err == nil
}

func statPath(path string) (entryStat, error) {
	return statAt(nil, path, "", true)
}

// statOpen stats an open directory (or file).
func statOpen(f *os.File) (entryStat, error) {
	fi, err := f.Stat()
	if err != nil {
		return entryStat{}, err
	}
	return byHandle(windows.Handle(f.Fd()), fi.Mode())
}

// statAt stats the entry at path (name inside dir, unused here).
func statAt(_ *os.File, path, _ string, follow bool) (entryStat, error) {
	stat := os.Lstat
	if follow {
		stat = os.Stat
	}
	fi, err := stat(path)
	if err != nil {
		return entryStat{}, err
	}
	mode := fi.Mode()
	if !mode.IsRegular() && !mode.IsDir() {
		return entryStat{mode: mode.Type()}, nil
	}
	p, err := windows.UTF16PtrFromString(fsx.LongPath(path))
	if err != nil {
		return entryStat{}, err
	}
	flags := uint32(windows.FILE_FLAG_BACKUP_SEMANTICS)
	if !follow {
		flags |= windows.FILE_FLAG_OPEN_REPARSE_POINT
	}
	h, err := windows.CreateFile(p, windows.FILE_READ_ATTRIBUTES,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, flags, 0)
	if err != nil {
		return entryStat{}, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer windows.CloseHandle(h)
	return byHandle(h, mode)
}

func byHandle(h windows.Handle, mode fs.FileMode) (entryStat, error) {
	var d windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &d); err != nil {
		return entryStat{}, err
	}
	// A filesystem that gives no change time leaves it zero, as on a
	// platform without one.
	var ctime time.Time
	if ns := fsx.ChangeTimeOf(h); ns > 0 {
		ctime = time.Unix(0, ns)
	}
	return entryStat{
		mode:  mode.Type(),
		ctime: ctime,
		size:  int64(d.FileSizeHigh)<<32 | int64(d.FileSizeLow),
		mtime: time.Unix(0, d.LastWriteTime.Nanoseconds()),
		id:    fileID{uint64(d.VolumeSerialNumber), uint64(d.FileIndexHigh)<<32 | uint64(d.FileIndexLow)},
		nlink: uint64(d.NumberOfLinks),
	}, nil
}

// nameDroppedByOpen reports whether Windows's path handling would change
// name when the file is opened by its path: a final dot or space is
// dropped (see ErrNameNotOpenable).
func nameDroppedByOpen(name string) bool {
	return strings.HasSuffix(name, ".") || strings.HasSuffix(name, " ")
}
