package transfer

import (
	"os"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"golang.org/x/sys/windows"
)

// On Windows the change time lives in FILE_BASIC_INFO, which os.FileInfo
// does not carry: it is read through the open file's handle, or through a
// handle opened on the path for attributes only (it never blocks another
// program, nor is blocked by one). 0 where the filesystem gives none: the
// comparison then rests on identity, size and mtime.

func changeTimeOf(f fsx.File, _ os.FileInfo) int64 {
	return fsx.ChangeTimeOf(windows.Handle(f.Fd()))
}

func changeTimeAt(path string, _ os.FileInfo) int64 { return fsx.ChangeTime(path) }
