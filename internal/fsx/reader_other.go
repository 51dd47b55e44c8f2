//go:build !unix

package fsx

import (
	"io"
	"os"
)

// Reader where there is no bare-descriptor path (Windows): an *os.File from
// openRegularRandom.
type Reader struct {
	f    *os.File
	size int64
}

func openRandom(name string, followLinks bool) (*Reader, error) {
	f, err := openRegularRandom(name, followLinks)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &Reader{f: f, size: fi.Size()}, nil
}

// openRegularRandom is openRegular telling the OS the file is read at
// random: FILE_FLAG_RANDOM_ACCESS in CreateFile on Windows (randomAccess in
// sys_windows.go), so the cache manager reads only the pages asked for
// instead of reading ahead as for a sequential reader. The sharing flags
// are openRegular's: read, write and delete stay open to other programs.
func openRegularRandom(name string, followLinks bool) (*os.File, error) {
	return openRegularFlags(name, followLinks, randomAccess)
}

func (r *Reader) ReadAt(p []byte, off int64) (int, error) { return r.f.ReadAt(p, off) }
func (r *Reader) Read(p []byte) (int, error)              { return r.f.Read(p) }
func (r *Reader) Size() int64                             { return r.size }
func (r *Reader) Name() string                            { return r.f.Name() }
func (r *Reader) Close() error                            { return r.f.Close() }

var _ io.ReaderAt = (*Reader)(nil)
