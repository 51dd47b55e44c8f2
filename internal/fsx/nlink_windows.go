package fsx

import (
	"os"

	"golang.org/x/sys/windows"
)

// Nlink is the link count of the file at path (GetFileInformationByHandle:
// os.FileInfo carries none on Windows), read only if path still names the
// file fi describes (same volume and file index). Anything unknown is 1:
// two names of one file are then taken for one entry, which refuses a
// duplicate removal rather than risks the only copy.
func Nlink(path string, fi os.FileInfo) uint64 {
	p, err := windows.UTF16PtrFromString(LongPath(path))
	if err != nil {
		return 1
	}
	// No access asked (attributes only), every sharing flag, the name
	// itself rather than a link's target.
	h, err := windows.CreateFile(p, 0, windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return 1
	}
	defer windows.CloseHandle(h)
	var info windows.ByHandleFileInformation
	if windows.GetFileInformationByHandle(h, &info) != nil {
		return 1
	}
	dev, ino := DevIno(fi)
	if dev == 0 || dev != uint64(info.VolumeSerialNumber) || ino != uint64(info.FileIndexHigh)<<32|uint64(info.FileIndexLow) {
		return 1
	}
	return uint64(info.NumberOfLinks)
}
