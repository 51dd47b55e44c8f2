//go:build unix

package transfer

import (
	"os"
	"syscall"

	"github.com/shoebox-photos/shoebox/internal/fsx"
)

// On Unix the change time comes with every stat: the file or path the
// stat was taken from is not needed.

func changeTimeOf(_ fsx.File, fi os.FileInfo) int64 { return nanos(changeTime(fi)) }

func changeTimeAt(_ string, fi os.FileInfo) int64 { return nanos(changeTime(fi)) }

func nanos(ts syscall.Timespec) int64 { return ts.Nano() }
