package storage

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"

	"github.com/shoebox-photos/shoebox/internal/quote"
)

// Probe tells what kind of storage path is on. Windows says what kind of
// drive holds a path (GetDriveType): a UNC path (\\server\share) and a
// mapped network drive are Network; a fixed or removable disk is Unknown
// (treated like Local), because whether it spins needs a handle to the
// volume itself. The filesystem name (NTFS, ReFS, exFAT) comes from
// GetVolumeInformation. A path that does not exist yet is probed through
// its volume.
func Probe(path string) (Info, error) {
	if _, err := os.Stat(path); err != nil && !os.IsNotExist(err) {
		return Info{}, fmt.Errorf("probe storage of %s: %w", quote.Path(path), err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return Info{}, fmt.Errorf("probe storage of %s: %w", quote.Path(path), err)
	}
	root := volumeRoot(abs)
	var driveType uint32 = windows.DRIVE_UNKNOWN
	var fsType string
	if p, err := windows.UTF16PtrFromString(root); err == nil {
		driveType = windows.GetDriveType(p)
		name := make([]uint16, windows.MAX_PATH+1)
		if windows.GetVolumeInformation(p, nil, 0, nil, nil, nil, &name[0], uint32(len(name))) == nil {
			fsType = windows.UTF16ToString(name)
		}
	}
	return classifyVolume(root, driveType, fsType), nil
}

// volumeRoot is the root of the volume holding the absolute path abs,
// with its trailing backslash: `C:\`, `\\server\share\`. The long-path
// forms `\\?\C:\...` and `\\?\UNC\server\share\...` are read as the
// plain ones.
func volumeRoot(abs string) string {
	switch {
	case strings.HasPrefix(abs, `\\?\UNC\`):
		abs = `\\` + abs[len(`\\?\UNC\`):]
	case strings.HasPrefix(abs, `\\?\`):
		abs = abs[len(`\\?\`):]
	}
	return filepath.VolumeName(abs) + `\`
}

// classifyVolume turns what Windows said about a volume into an Info.
func classifyVolume(root string, driveType uint32, fsType string) Info {
	in := Info{FSType: fsType, Mount: root}
	unc := strings.HasPrefix(root, `\\`)
	switch {
	case unc || driveType == windows.DRIVE_REMOTE:
		in.Kind, in.Device = Network, strings.TrimSuffix(root, `\`)
		in.Reason = "a network drive (" + in.Device + ")"
		if unc {
			in.Reason = "a network share (UNC path " + in.Device + ")"
		}
		if in.FSType == "" {
			in.FSType = "network share"
		}
	case driveType == windows.DRIVE_RAMDISK:
		in.Kind, in.Reason = Local, "a RAM disk"
	case driveType == windows.DRIVE_FIXED || driveType == windows.DRIVE_REMOVABLE:
		in.Reason = "a local disk (" + root + "); Windows does not say here whether it spins"
	case driveType == windows.DRIVE_CDROM:
		in.Reason = "an optical drive (" + root + ")"
	default:
		in.Reason = "Windows does not know the drive " + root
	}
	return in
}
