package scan

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/shoebox-photos/shoebox/internal/quote"
)

// StatFile stats one file as the walk does (links followed), for a file
// looked at on its own (explain).
func StatFile(path string) (File, error) {
	st, err := statPath(path)
	if err != nil {
		if pe := (*fs.PathError)(nil); !errors.As(err, &pe) {
			err = &fs.PathError{Op: "stat", Path: path, Err: err}
		}
		return File{}, err
	}
	if !st.mode.IsRegular() {
		return File{}, fmt.Errorf("%s is not a regular file", quote.Path(path))
	}
	return st.file(path, ""), nil
}

// entryStat is what the walker needs from one stat, on every platform
// (stat_unix.go, stat_windows.go).
type entryStat struct {
	mode  fs.FileMode // only the type bits are set
	size  int64
	mtime time.Time
	ctime time.Time // zero where the platform has none
	id    fileID
	nlink uint64
}

func (st entryStat) file(path, root string) File {
	return File{
		Path:    path,
		Root:    root,
		Size:    st.size,
		ModTime: st.mtime,
		CTime:   st.ctime,
		Dev:     st.id.dev,
		Ino:     st.id.ino,
		Nlink:   st.nlink,
	}
}
