package fsx

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Windows. Files are opened with every sharing flag, so that shoebox never
// blocks another program (or its own rename of a file it holds open) from
// reading, writing, renaming or deleting them; a no-replace rename is
// MoveFileEx without MOVEFILE_REPLACE_EXISTING; File.Sync is
// FlushFileBuffers; a reflink is FSCTL_DUPLICATE_EXTENTS_TO_FILE (block
// cloning on ReFS and Dev Drive). Windows offers no way to flush a
// directory's entries: NTFS journals them itself, and SyncDir is a no-op.

const shareAll = windows.FILE_SHARE_READ | windows.FILE_SHARE_WRITE | windows.FILE_SHARE_DELETE

// openFile is os.OpenFile with FILE_SHARE_DELETE added (Go's own open
// omits it, and then no process, shoebox included, may rename or delete
// the file while it is open), and with portable errors from its writes.
func openFile(name string, flag int, perm os.FileMode) (File, error) {
	f, err := createFile(name, flag, perm)
	if err != nil {
		return nil, portable(err)
	}
	return platformFile(f), nil
}

func platformFile(f *os.File) File { return portableFile{f} }

// portableFile gives the errors of reads, writes and flushes their POSIX
// class (a full disk is ENOSPC), as osFS does for every other call.
type portableFile struct{ *os.File }

func (f portableFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	return n, portable(err)
}

func (f portableFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.File.ReadAt(p, off)
	return n, portable(err)
}

func (f portableFile) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	return n, portable(err)
}

// Sync is FlushFileBuffers, which Windows refuses on a handle without
// write access: a file opened to read (to make durable what an earlier
// handle wrote) is then reopened for writing, and that handle flushed.
func (f portableFile) Sync() error {
	err := f.File.Sync()
	if !errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		return portable(err)
	}
	p, reopenErr := windows.UTF16PtrFromString(LongPath(f.Name()))
	if reopenErr != nil {
		return &os.PathError{Op: "sync", Path: f.Name(), Err: reopenErr}
	}
	w, reopenErr := windows.CreateFile(p, windows.GENERIC_WRITE, shareAll, nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if reopenErr != nil {
		return portable(&os.PathError{Op: "sync", Path: f.Name(), Err: reopenErr})
	}
	defer windows.CloseHandle(w)
	if err := windows.FlushFileBuffers(w); err != nil {
		return portable(&os.PathError{Op: "sync", Path: f.Name(), Err: err})
	}
	return nil
}

func (f portableFile) Close() error { return portable(f.File.Close()) }

// randomAccess is the CreateFile hint for a file read in a few pieces at
// scattered offsets (OpenRandom): no read-ahead by the cache manager.
const randomAccess = windows.FILE_FLAG_RANDOM_ACCESS

func createFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	return createFileFlags(name, flag, perm, 0)
}

// createFileFlags is createFile with extra CreateFile flags.
func createFileFlags(name string, flag int, perm os.FileMode, extraFlags uint32) (*os.File, error) {
	h, err := createHandle(name, flag, perm, extraFlags)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(h), name), nil
}

// createHandle is CreateFile with every sharing flag, plus extraFlags.
func createHandle(name string, flag int, perm os.FileMode, extraFlags uint32) (windows.Handle, error) {
	p, err := windows.UTF16PtrFromString(LongPath(name))
	if err != nil {
		return 0, &os.PathError{Op: "open", Path: name, Err: err}
	}
	attrs := uint32(windows.FILE_ATTRIBUTE_NORMAL|windows.FILE_FLAG_BACKUP_SEMANTICS) | extraFlags // BACKUP_SEMANTICS: directories open too
	if flag&os.O_CREATE != 0 && perm&0o200 == 0 {
		attrs |= windows.FILE_ATTRIBUTE_READONLY
	}
	h, err := createFileW(p, accessFor(flag), shareAll, nil, dispositionFor(flag), attrs, 0)
	if err != nil {
		return 0, &os.PathError{Op: "open", Path: name, Err: err}
	}
	return h, nil
}

// createFileW is the CreateFile every open of the seam goes through; a test
// wraps it to see the flags an open asked for (Windows reports no handle's
// FILE_FLAG_RANDOM_ACCESS back).
var createFileW = windows.CreateFile

// OpenNotLink opens name like os.OpenFile (sharing read, write and delete)
// but refuses a symbolic link or a junction at name itself, with an error
// wrapping ErrIsLink: Windows' equivalent of O_NOFOLLOW. The name is opened
// as it is (FILE_FLAG_OPEN_REPARSE_POINT) and the handle's own attributes
// are checked, so no link can be swapped in between check and use. A
// reparse point that is not a link (OneDrive placeholders, deduplicated
// files) is reopened through its filter and kept only if the second handle
// is the very same file.
func OpenNotLink(name string, flag int, perm os.FileMode) (*os.File, error) {
	return openNotLink(name, flag, perm, 0)
}

// openNotLink is OpenNotLink with extra CreateFile flags.
func openNotLink(name string, flag int, perm os.FileMode, extraFlags uint32) (*os.File, error) {
	h, err := createHandle(name, flag, perm, windows.FILE_FLAG_OPEN_REPARSE_POINT|extraFlags)
	if err != nil {
		return nil, err
	}
	attrs, tag, err := attributeTag(h)
	switch {
	case err != nil:
		windows.CloseHandle(h)
		return nil, &os.PathError{Op: "stat", Path: name, Err: err}
	case attrs&windows.FILE_ATTRIBUTE_REPARSE_POINT == 0:
		return os.NewFile(uintptr(h), name), nil
	case tag&reparseTagNameSurrogate != 0: // symbolic link, junction
		windows.CloseHandle(h)
		return nil, &os.PathError{Op: "open", Path: name, Err: ErrIsLink}
	}
	defer windows.CloseHandle(h)
	through, err := createHandle(name, flag&^(os.O_CREATE|os.O_EXCL|os.O_TRUNC), perm, extraFlags)
	if err != nil {
		return nil, err
	}
	if !sameFile(h, through) {
		windows.CloseHandle(through)
		return nil, &os.PathError{Op: "open", Path: name, Err: ErrIsLink}
	}
	return os.NewFile(uintptr(through), name), nil
}

// reparseTagNameSurrogate marks the reparse tags that name another file
// (IsReparseTagNameSurrogate): symbolic links, junctions.
const reparseTagNameSurrogate = 0x20000000

// attributeTag is GetFileInformationByHandleEx(FileAttributeTagInfo).
func attributeTag(h windows.Handle) (attrs, tag uint32, err error) {
	var info struct{ FileAttributes, ReparseTag uint32 }
	err = windows.GetFileInformationByHandleEx(h, windows.FileAttributeTagInfo, (*byte)(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)))
	return info.FileAttributes, info.ReparseTag, err
}

// sameFile compares two handles' volume serial numbers and file indexes.
func sameFile(a, b windows.Handle) bool {
	var ia, ib windows.ByHandleFileInformation
	if windows.GetFileInformationByHandle(a, &ia) != nil || windows.GetFileInformationByHandle(b, &ib) != nil {
		return false
	}
	return ia.VolumeSerialNumber == ib.VolumeSerialNumber && ia.FileIndexHigh == ib.FileIndexHigh && ia.FileIndexLow == ib.FileIndexLow
}

func accessFor(flag int) uint32 {
	var access uint32
	switch flag & (os.O_RDONLY | os.O_WRONLY | os.O_RDWR) {
	case os.O_RDONLY:
		access = windows.GENERIC_READ
	case os.O_WRONLY:
		access = windows.GENERIC_WRITE
	case os.O_RDWR:
		access = windows.GENERIC_READ | windows.GENERIC_WRITE
	}
	if flag&os.O_APPEND != 0 {
		access &^= windows.GENERIC_WRITE
		access |= windows.FILE_APPEND_DATA | windows.FILE_WRITE_ATTRIBUTES | windows.SYNCHRONIZE
	}
	return access
}

func dispositionFor(flag int) uint32 {
	switch {
	case flag&(os.O_CREATE|os.O_EXCL) == os.O_CREATE|os.O_EXCL:
		return windows.CREATE_NEW
	case flag&(os.O_CREATE|os.O_TRUNC) == os.O_CREATE|os.O_TRUNC:
		return windows.CREATE_ALWAYS
	case flag&os.O_CREATE != 0:
		return windows.OPEN_ALWAYS
	case flag&os.O_TRUNC != 0:
		return windows.TRUNCATE_EXISTING
	}
	return windows.OPEN_EXISTING
}

// LongPath returns path in the \\?\ form when it is too long for the
// classic Win32 limit (260 characters), so that deep library folders still
// open. The os package does the same for its own calls.
func LongPath(path string) string {
	if len(path) < 248 || strings.HasPrefix(path, `\\?\`) || !filepath.IsAbs(path) {
		return path
	}
	clean := filepath.Clean(path)
	if strings.HasPrefix(clean, `\\`) { // \\server\share\...
		return `\\?\UNC\` + clean[2:]
	}
	return `\\?\` + clean
}

// renameNoReplace is MoveFileEx without MOVEFILE_REPLACE_EXISTING: Windows
// refuses (ERROR_ALREADY_EXISTS) to replace an existing name, atomically.
// MOVEFILE_COPY_ALLOWED is left out, so another volume is ERROR_NOT_SAME_DEVICE
// (EXDEV to the caller), never a silent copy.
func renameNoReplace(oldpath, newpath string) error {
	from, err := windows.UTF16PtrFromString(LongPath(oldpath))
	if err != nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
	}
	to, err := windows.UTF16PtrFromString(LongPath(newpath))
	if err != nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
	}
	if err := windows.MoveFileEx(from, to, windows.MOVEFILE_WRITE_THROUGH); err != nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
	}
	return nil
}

// syncDir: Windows cannot flush a directory's entries from user mode (a
// directory handle refuses FlushFileBuffers); NTFS and ReFS journal their
// metadata, so a rename survives a crash once the journal is written.
func syncDir(dir string) error {
	if _, err := os.Stat(dir); err != nil {
		return err
	}
	return nil
}

// syncFilesystem would need a handle to the volume (administrators only).
func syncFilesystem(File) error { return syscall.ENOTSUP }

// duplicateExtentsData is DUPLICATE_EXTENTS_DATA.
type duplicateExtentsData struct {
	FileHandle       windows.Handle
	SourceFileOffset int64
	TargetFileOffset int64
	ByteCount        int64
}

// cloneChunk bounds one FSCTL_DUPLICATE_EXTENTS_TO_FILE call (ReFS refuses
// ranges of 4 GiB and more); it is a multiple of every cluster size.
const cloneChunk = 1 << 30

// cloneFile shares src's clusters with dst (block cloning, ReFS and Dev
// Drive). The destination is first sized to the source; the last range is
// rounded up to the chunk, which Windows accepts at the source's end of
// file. Any refusal leaves dst empty for the caller's copy.
func cloneFile(dst, src File) error {
	fi, err := src.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	dh := windows.Handle(dst.Fd())
	if err := windows.Ftruncate(dh, size); err != nil {
		return err
	}
	for off := int64(0); off < size; off += cloneChunk {
		n := min(int64(cloneChunk), size-off)
		n = (n + 0xffff) &^ 0xffff // round up to 64 KiB, the largest cluster
		req := duplicateExtentsData{FileHandle: windows.Handle(src.Fd()), SourceFileOffset: off, TargetFileOffset: off, ByteCount: n}
		var ret uint32
		err := windows.DeviceIoControl(dh, windows.FSCTL_DUPLICATE_EXTENTS_TO_FILE,
			(*byte)(unsafe.Pointer(&req)), uint32(unsafe.Sizeof(req)), nil, 0, &ret, nil)
		if err != nil {
			windows.Ftruncate(dh, 0)
			return portable(err)
		}
	}
	return nil
}

// DevIno returns the volume serial number and file index of fi: the
// identity Windows gives a file (GetFileInformationByHandle), which is what
// os.SameFile compares. os keeps them in unexported fields of the FileInfo
// it made; os.SameFile loads them, and reflection reads them. Zeros when fi
// did not come from the os package.
func DevIno(fi os.FileInfo) (dev, ino uint64) {
	if !os.SameFile(fi, fi) { // loads vol and idx; false when fi is not os's
		return 0, 0
	}
	v := reflect.ValueOf(fi)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return 0, 0
	}
	s := v.Elem()
	vol, hi, lo := s.FieldByName("vol"), s.FieldByName("idxhi"), s.FieldByName("idxlo")
	if !vol.IsValid() || !hi.IsValid() || !lo.IsValid() {
		return 0, 0
	}
	return vol.Uint(), hi.Uint()<<32 | lo.Uint()
}

// posixEquivalents maps the Windows errors shoebox reacts to onto the
// POSIX errnos it classifies with errors.Is (full disk, permissions,
// another volume...): the message stays Windows', the class is portable.
var posixEquivalents = map[syscall.Errno]syscall.Errno{
	windows.ERROR_DISK_FULL:            syscall.ENOSPC,
	windows.ERROR_HANDLE_DISK_FULL:     syscall.ENOSPC,
	windows.ERROR_ACCESS_DENIED:        syscall.EACCES,
	windows.ERROR_PRIVILEGE_NOT_HELD:   syscall.EPERM,
	windows.ERROR_WRITE_PROTECT:        syscall.EROFS,
	windows.ERROR_NOT_SAME_DEVICE:      syscall.EXDEV,
	windows.ERROR_FILENAME_EXCED_RANGE: syscall.ENAMETOOLONG,
	windows.ERROR_ALREADY_EXISTS:       syscall.EEXIST,
	windows.ERROR_FILE_EXISTS:          syscall.EEXIST,
	windows.ERROR_DIR_NOT_EMPTY:        syscall.ENOTEMPTY,
	windows.ERROR_NOT_SUPPORTED:        syscall.ENOTSUP,
	windows.ERROR_INVALID_FUNCTION:     syscall.ENOTSUP,
	windows.ERROR_FILE_NOT_FOUND:       syscall.ENOENT,
	windows.ERROR_PATH_NOT_FOUND:       syscall.ENOENT,
	windows.ERROR_TOO_MANY_OPEN_FILES:  syscall.EMFILE,
	windows.ERROR_CRC:                  syscall.EIO,
	windows.ERROR_IO_DEVICE:            syscall.EIO,
	windows.ERROR_INVALID_PARAMETER:    syscall.EINVAL,
}

// platformHints come before the POSIX ones, which are vaguer.
var platformHints = []errnoHint{
	{windows.ERROR_PRIVILEGE_NOT_HELD, "creating symbolic links on Windows needs Developer Mode (Settings > System > For developers) or an administrator's prompt; or choose another --mode"},
	{windows.ERROR_SHARING_VIOLATION, "another program has the file open and does not let others use it: close it and run again"},
	{windows.ERROR_LOCK_VIOLATION, "another program has locked part of the file: close it and run again"},
}

// winErrno is a Windows error that also answers errors.Is for its POSIX
// equivalent.
type winErrno struct{ win, posix syscall.Errno }

func (e winErrno) Error() string   { return e.win.Error() }
func (e winErrno) Unwrap() []error { return []error{e.win, e.posix} }

// posixEquivalent is the POSIX errno of the Windows error inside err.
func posixEquivalent(err error) (syscall.Errno, bool) {
	var errno syscall.Errno
	if err == nil || !errors.As(err, &errno) {
		return 0, false
	}
	posix, ok := posixEquivalents[errno]
	return posix, ok
}

// portable gives the Windows errno inside err its POSIX equivalent.
func portable(err error) error {
	var errno syscall.Errno
	if err == nil || !errors.As(err, &errno) {
		return err
	}
	posix, ok := posixEquivalents[errno]
	if !ok {
		return err
	}
	mapped := winErrno{errno, posix}
	switch e := err.(type) {
	case *fs.PathError:
		return &fs.PathError{Op: e.Op, Path: e.Path, Err: mapped}
	case *os.LinkError:
		return &os.LinkError{Op: e.Op, Old: e.Old, New: e.New, Err: mapped}
	case *os.SyscallError:
		return &os.SyscallError{Syscall: e.Syscall, Err: mapped}
	case syscall.Errno:
		return mapped
	}
	return err
}

// FileBasicInfo is FILE_BASIC_INFO (x/sys/windows has the class, not the
// struct); its times are FILETIMEs.
type FileBasicInfo struct {
	CreationTime, LastAccessTime, LastWriteTime, ChangeTime windows.Filetime
	FileAttributes                                          uint32
	_                                                       uint32
}

// ChangeTimeOf is the change time NTFS keeps for the open handle h (unix
// nanoseconds; FILE_BASIC_INFO is the only place Windows gives it), zero
// where the filesystem does not answer.
func ChangeTimeOf(h windows.Handle) int64 {
	var b FileBasicInfo
	if windows.GetFileInformationByHandleEx(h, windows.FileBasicInfo, (*byte)(unsafe.Pointer(&b)), uint32(unsafe.Sizeof(b))) != nil {
		return 0
	}
	if ns := b.ChangeTime.Nanoseconds(); ns > 0 {
		return ns
	}
	return 0
}

// IdentityAt is the volume serial number and file index of the file or
// folder at path (what os.SameFile compares, as DevIno gives them) and its
// change time, from one open for attributes only: a final symbolic link
// itself when link is true, else what it points to. ok is false when the
// path cannot be opened. One open instead of DevIno's and ChangeTime's
// two: a re-run asks this of every library copy it recognises.
func IdentityAt(path string, link bool) (dev, ino uint64, ctime int64, ok bool) {
	p, err := windows.UTF16PtrFromString(LongPath(path))
	if err != nil {
		return 0, 0, 0, false
	}
	flags := uint32(windows.FILE_FLAG_BACKUP_SEMANTICS)
	if link {
		flags |= windows.FILE_FLAG_OPEN_REPARSE_POINT
	}
	h, err := windows.CreateFile(p, windows.FILE_READ_ATTRIBUTES, shareAll, nil, windows.OPEN_EXISTING, flags, 0)
	if err != nil {
		return 0, 0, 0, false
	}
	defer windows.CloseHandle(h)
	var d windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &d); err != nil {
		return 0, 0, 0, false
	}
	return uint64(d.VolumeSerialNumber), uint64(d.FileIndexHigh)<<32 | uint64(d.FileIndexLow), ChangeTimeOf(h), true
}

// ChangeTime is ChangeTimeOf the file or folder at path, opened for its
// attributes only (following a final link; a path past MAX_PATH in its
// \\?\ form, as every other open of fsx), zero when it cannot be opened.
func ChangeTime(path string) int64 {
	p, err := windows.UTF16PtrFromString(LongPath(path))
	if err != nil {
		return 0
	}
	h, err := windows.CreateFile(p, windows.FILE_READ_ATTRIBUTES, shareAll, nil,
		windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return 0
	}
	defer windows.CloseHandle(h)
	return ChangeTimeOf(h)
}
