package fsx

// Reader is a regular file opened for reading by offset, with nothing but
// the system calls that needs: on Unix it is a bare descriptor (open, fstat,
// pread, close), never an *os.File. An *os.File costs three or four more
// calls per file (fcntl to decide whether it is pollable, epoll
// registration, a finalizer), which is a third of the metadata stage's CPU
// when each file is opened for one 64 KiB read.
//
// Open one with OpenRandom. One goroutine at a time may use a Reader, and
// its owner must Close it (there is no finalizer to close a forgotten one).
//
// Its methods: ReadAt (io.ReaderAt), Read (sequential, from offset 0),
// Size (as fstat saw it when opened), Name and Close.

// OpenRandom opens the file at name for a few reads at scattered offsets (a
// header, an index at the end of a video) and tells the OS so: readahead is
// switched off (POSIX_FADV_RANDOM on Linux and FreeBSD, F_RDAHEAD 0 on
// macOS, FILE_FLAG_RANDOM_ACCESS on Windows), so reading a 64 KiB header of a
// cold 4 MB photo costs 64 KiB of disk reads, not the few hundred KiB the
// kernel's readahead would fetch for a sequential reader.
//
// It keeps every guarantee of OpenRegular: a named pipe, socket, device or
// folder is refused with an error wrapping ErrNotRegular and never blocks
// the open, and with followLinks false a symbolic link is refused too.
func OpenRandom(name string, followLinks bool) (*Reader, error) {
	return openRandom(name, followLinks)
}
