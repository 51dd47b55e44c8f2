package fsx

import (
	"io/fs"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// CanRemoveFrom reports why files in folder dir cannot be removed (a move
// would fail on every one of them), or nil. On Windows it sees a read-only
// volume (a card with its lock switch on); permissions are ACLs, which a
// removal attempt judges: those are found per file.
func CanRemoveFrom(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	p, err := windows.UTF16PtrFromString(abs)
	if err != nil {
		return nil
	}
	vol := make([]uint16, windows.MAX_PATH+1)
	if windows.GetVolumePathName(p, &vol[0], uint32(len(vol))) != nil {
		return nil
	}
	var flags uint32
	if windows.GetVolumeInformation(&vol[0], nil, 0, nil, nil, &flags, nil, 0) != nil {
		return nil
	}
	if flags&windows.FILE_READ_ONLY_VOLUME != 0 {
		return &fs.PathError{Op: "remove files from", Path: dir, Err: windows.ERROR_WRITE_PROTECT}
	}
	return nil
}
