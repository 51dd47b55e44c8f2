//go:build linux

package faultfuse

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// Fault is what the drive does to the operations it is asked for.
type Fault int

const (
	Healthy  Fault = iota // every operation passes to the folder underneath
	IOError               // every operation fails with EIO
	ReadOnly              // every write (create, write, rename, remove, fsync...) fails with EROFS; reads pass
	Vanished              // unmounted lazily: the mount point is the empty folder underneath, open files fail with EIO
)

func (f Fault) String() string {
	switch f {
	case IOError:
		return "eio"
	case ReadOnly:
		return "read-only"
	case Vanished:
		return "vanished"
	}
	return "healthy"
}

// Op names a kind of operation, for Drive.FailAt.
type Op string

const (
	OpCreate Op = "create"
	OpWrite  Op = "write"
	OpFsync  Op = "fsync"
	OpRename Op = "rename"
	OpMkdir  Op = "mkdir"
	OpUnlink Op = "unlink"
	OpLookup Op = "lookup"
)

// Drive is a mounted fault-injecting filesystem over Backing.
type Drive struct {
	t       testing.TB
	Backing string // the folder that holds the drive's files
	Mount   string // where the drive is mounted

	mu     sync.Mutex
	cur    *conn   // the mount now at Mount (nil once vanished)
	old    []*conn // mounts lazily detached, still serving open files
	counts map[Op]int
	armed  *trigger
}

// trigger flips the drive to fault at the nth operation op.
type trigger struct {
	op    Op
	nth   int
	fault Fault
}

// conn is one mount of the drive: its server and its own fault.
type conn struct {
	d      *Drive
	server *fuse.Server
	mu     sync.Mutex
	fault  Fault
}

// Available says why no drive can be mounted here ("" when one can).
func Available() string {
	if os.Geteuid() != 0 {
		return "mounting a FUSE filesystem without fusermount needs root"
	}
	if _, err := os.Stat("/dev/fuse"); err != nil {
		return fmt.Sprintf("no FUSE device: %v", err)
	}
	return ""
}

// Mount mounts a healthy drive over a fresh folder at a fresh mount
// point, both under the test's temp dir; it skips the test, saying why,
// where FUSE cannot be mounted. The drive is unmounted when the test ends.
func Mount(t testing.TB) *Drive {
	t.Helper()
	if why := Available(); why != "" {
		t.Skip(why)
	}
	dir := t.TempDir()
	d := &Drive{t: t, Backing: filepath.Join(dir, "disk"), Mount: filepath.Join(dir, "media", "usb"), counts: map[Op]int{}}
	for _, p := range []string{d.Backing, d.Mount} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.mount(); err != nil {
		t.Skipf("cannot mount a FUSE filesystem here: %v", err)
	}
	t.Cleanup(d.close)
	return d
}

func (d *Drive) mount() error {
	root, err := fs.NewLoopbackRoot(d.Backing)
	if err != nil {
		return err
	}
	zero := time.Duration(0)
	// No caching in the kernel: every lookup and stat reaches the drive,
	// so a fault is seen at once, as on a disk that stops answering.
	opts := &fs.Options{EntryTimeout: &zero, AttrTimeout: &zero, NegativeTimeout: &zero}
	opts.DirectMount, opts.DirectMountStrict = true, true
	opts.FsName, opts.Name = "faultfuse", "faultfuse"
	c := &conn{d: d}
	raw := &faulty{RawFileSystem: fs.NewNodeFS(root, opts), c: c}
	server, err := fuse.NewServer(raw, d.Mount, &opts.MountOptions)
	if err != nil {
		return fmt.Errorf("mount %s at %s: %w", d.Backing, d.Mount, err)
	}
	go server.Serve()
	if err := server.WaitMount(); err != nil {
		_ = server.Unmount()
		return fmt.Errorf("mount %s at %s: %w", d.Backing, d.Mount, err)
	}
	c.server = server
	d.mu.Lock()
	d.cur = c
	d.mu.Unlock()
	return nil
}

// Set puts the drive in fault f at once. Vanished unmounts it lazily; from
// any other fault a vanished drive is first mounted again (plugged back).
func (d *Drive) Set(f Fault) {
	d.mu.Lock()
	d.armed = nil
	c := d.cur
	d.mu.Unlock()
	if f == Vanished {
		if c != nil {
			d.vanish(c)
		}
		return
	}
	if c == nil {
		if err := d.mount(); err != nil {
			d.t.Errorf("plug the drive back: %v", err)
			return
		}
		d.mu.Lock()
		c = d.cur
		d.mu.Unlock()
	}
	c.set(f)
}

// Fault is the drive's fault now.
func (d *Drive) Fault() Fault {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cur == nil {
		return Vanished
	}
	return d.cur.get()
}

// FailAt arms the drive to go into fault f at the nth operation op from
// now (that operation fails already). Set disarms it.
func (d *Drive) FailAt(op Op, nth int, f Fault) {
	d.mu.Lock()
	defer d.mu.Unlock()
	clear(d.counts)
	d.armed = &trigger{op: op, nth: nth, fault: f}
}

// Fired reports whether the drive is no longer healthy.
func (d *Drive) Fired() bool { return d.Fault() != Healthy }

// saw counts one operation op on c, and fires an armed trigger.
func (d *Drive) saw(c *conn, op Op) {
	d.mu.Lock()
	tr := d.armed
	if tr == nil || tr.op != op || c != d.cur {
		d.mu.Unlock()
		return
	}
	d.counts[op]++
	if d.counts[op] < tr.nth {
		d.mu.Unlock()
		return
	}
	d.armed = nil
	d.mu.Unlock()
	if tr.fault == Vanished {
		// From inside a request: detach without waiting for it.
		go d.vanish(c)
		c.set(IOError)
		return
	}
	c.set(tr.fault)
}

// vanish detaches the mount lazily: its mount point is at once the empty
// folder underneath, and the files still open on it fail with EIO.
func (d *Drive) vanish(c *conn) {
	c.set(IOError)
	d.mu.Lock()
	if d.cur != c {
		d.mu.Unlock()
		return
	}
	d.cur = nil
	d.old = append(d.old, c)
	d.mu.Unlock()
	if err := syscall.Unmount(d.Mount, syscall.MNT_DETACH); err != nil {
		d.t.Errorf("unmount %s lazily: %v", d.Mount, err)
	}
}

// WaitGone waits until a drive that was set to vanish (by Set or FailAt,
// which detaches it from inside the request that fired) is detached: its
// mount point is then the folder underneath. It reports false if it is
// still mounted after timeout. Call it before Set plugs the drive back,
// which a detach still under way would otherwise undo.
func (d *Drive) WaitGone(timeout time.Duration) bool {
	for end := time.Now().Add(timeout); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		d.mu.Lock()
		cur := d.cur
		d.mu.Unlock()
		if cur == nil && !mounted(d.Mount) {
			return true
		}
	}
	return false
}

// mounted reports whether p is a mount point: another device than the
// folder it is in.
func mounted(p string) bool {
	var st, parent syscall.Stat_t
	if syscall.Stat(p, &st) != nil || syscall.Stat(filepath.Dir(p), &parent) != nil {
		return true // not known to be detached: keep waiting
	}
	return st.Dev != parent.Dev
}

// Underneath lists what is in the mount point folder itself while the
// drive is away (vanished): a run must have written nothing there.
func (d *Drive) Underneath() []string {
	var out []string
	_ = filepath.WalkDir(d.Mount, func(p string, _ os.DirEntry, err error) error {
		if err == nil && p != d.Mount {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// Released waits until the mounts detached so far are let go by every
// process (the kernel ends their connection once nothing holds them
// open); it reports false if one is still held after timeout.
func (d *Drive) Released(timeout time.Duration) bool {
	d.mu.Lock()
	old := d.old
	d.old = nil
	d.mu.Unlock()
	done := make(chan struct{})
	go func() {
		for _, c := range old {
			c.server.Wait()
		}
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(timeout):
		d.mu.Lock()
		d.old = append(d.old, old...)
		d.mu.Unlock()
		return false
	}
}

// close unmounts the drive at the end of the test.
func (d *Drive) close() {
	d.mu.Lock()
	c := d.cur
	d.cur = nil
	d.mu.Unlock()
	if c != nil {
		c.set(Healthy)
		if err := c.server.Unmount(); err != nil {
			_ = syscall.Unmount(d.Mount, syscall.MNT_DETACH)
		}
	}
	d.Released(time.Second)
}

func (c *conn) set(f Fault) {
	c.mu.Lock()
	c.fault = f
	c.mu.Unlock()
}

func (c *conn) get() Fault {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fault
}

// check is the status an operation gets before it reaches the folder
// (OK: it goes on): write says whether it changes the drive.
func (c *conn) check(op Op, write bool) fuse.Status {
	if op != "" {
		c.d.saw(c, op)
	}
	switch c.get() {
	case IOError, Vanished:
		return fuse.EIO
	case ReadOnly:
		if write {
			return fuse.Status(syscall.EROFS)
		}
	}
	return fuse.OK
}

// faulty is the raw filesystem with the fault checked first.
type faulty struct {
	fuse.RawFileSystem
	c *conn
}

func (f *faulty) Lookup(cancel <-chan struct{}, h *fuse.InHeader, name string, out *fuse.EntryOut) fuse.Status {
	if st := f.c.check(OpLookup, false); !st.Ok() {
		return st
	}
	return f.RawFileSystem.Lookup(cancel, h, name, out)
}

func (f *faulty) GetAttr(cancel <-chan struct{}, in *fuse.GetAttrIn, out *fuse.AttrOut) fuse.Status {
	if st := f.c.check("", false); !st.Ok() {
		return st
	}
	return f.RawFileSystem.GetAttr(cancel, in, out)
}

func (f *faulty) SetAttr(cancel <-chan struct{}, in *fuse.SetAttrIn, out *fuse.AttrOut) fuse.Status {
	if st := f.c.check("", true); !st.Ok() {
		return st
	}
	return f.RawFileSystem.SetAttr(cancel, in, out)
}

func (f *faulty) Mknod(cancel <-chan struct{}, in *fuse.MknodIn, name string, out *fuse.EntryOut) fuse.Status {
	if st := f.c.check(OpCreate, true); !st.Ok() {
		return st
	}
	return f.RawFileSystem.Mknod(cancel, in, name, out)
}

func (f *faulty) Mkdir(cancel <-chan struct{}, in *fuse.MkdirIn, name string, out *fuse.EntryOut) fuse.Status {
	if st := f.c.check(OpMkdir, true); !st.Ok() {
		return st
	}
	return f.RawFileSystem.Mkdir(cancel, in, name, out)
}

func (f *faulty) Unlink(cancel <-chan struct{}, h *fuse.InHeader, name string) fuse.Status {
	if st := f.c.check(OpUnlink, true); !st.Ok() {
		return st
	}
	return f.RawFileSystem.Unlink(cancel, h, name)
}

func (f *faulty) Rmdir(cancel <-chan struct{}, h *fuse.InHeader, name string) fuse.Status {
	if st := f.c.check(OpUnlink, true); !st.Ok() {
		return st
	}
	return f.RawFileSystem.Rmdir(cancel, h, name)
}

func (f *faulty) Rename(cancel <-chan struct{}, in *fuse.RenameIn, oldName, newName string) fuse.Status {
	if st := f.c.check(OpRename, true); !st.Ok() {
		return st
	}
	return f.RawFileSystem.Rename(cancel, in, oldName, newName)
}

func (f *faulty) Link(cancel <-chan struct{}, in *fuse.LinkIn, name string, out *fuse.EntryOut) fuse.Status {
	if st := f.c.check(OpCreate, true); !st.Ok() {
		return st
	}
	return f.RawFileSystem.Link(cancel, in, name, out)
}

func (f *faulty) Symlink(cancel <-chan struct{}, h *fuse.InHeader, target, name string, out *fuse.EntryOut) fuse.Status {
	if st := f.c.check(OpCreate, true); !st.Ok() {
		return st
	}
	return f.RawFileSystem.Symlink(cancel, h, target, name, out)
}

func (f *faulty) Readlink(cancel <-chan struct{}, h *fuse.InHeader) ([]byte, fuse.Status) {
	if st := f.c.check("", false); !st.Ok() {
		return nil, st
	}
	return f.RawFileSystem.Readlink(cancel, h)
}

func (f *faulty) Access(cancel <-chan struct{}, in *fuse.AccessIn) fuse.Status {
	if st := f.c.check("", false); !st.Ok() {
		return st
	}
	return f.RawFileSystem.Access(cancel, in)
}

func (f *faulty) GetXAttr(cancel <-chan struct{}, h *fuse.InHeader, attr string, dest []byte) (uint32, fuse.Status) {
	if st := f.c.check("", false); !st.Ok() {
		return 0, st
	}
	return f.RawFileSystem.GetXAttr(cancel, h, attr, dest)
}

func (f *faulty) ListXAttr(cancel <-chan struct{}, h *fuse.InHeader, dest []byte) (uint32, fuse.Status) {
	if st := f.c.check("", false); !st.Ok() {
		return 0, st
	}
	return f.RawFileSystem.ListXAttr(cancel, h, dest)
}

func (f *faulty) SetXAttr(cancel <-chan struct{}, in *fuse.SetXAttrIn, attr string, data []byte) fuse.Status {
	if st := f.c.check("", true); !st.Ok() {
		return st
	}
	return f.RawFileSystem.SetXAttr(cancel, in, attr, data)
}

func (f *faulty) RemoveXAttr(cancel <-chan struct{}, h *fuse.InHeader, attr string) fuse.Status {
	if st := f.c.check("", true); !st.Ok() {
		return st
	}
	return f.RawFileSystem.RemoveXAttr(cancel, h, attr)
}

func (f *faulty) Create(cancel <-chan struct{}, in *fuse.CreateIn, name string, out *fuse.CreateOut) fuse.Status {
	if st := f.c.check(OpCreate, true); !st.Ok() {
		return st
	}
	return f.RawFileSystem.Create(cancel, in, name, out)
}

func (f *faulty) Tmpfile(cancel <-chan struct{}, in *fuse.CreateIn, out *fuse.CreateOut) fuse.Status {
	if st := f.c.check(OpCreate, true); !st.Ok() {
		return st
	}
	return f.RawFileSystem.Tmpfile(cancel, in, out)
}

func (f *faulty) Open(cancel <-chan struct{}, in *fuse.OpenIn, out *fuse.OpenOut) fuse.Status {
	write := in.Flags&(syscall.O_WRONLY|syscall.O_RDWR|syscall.O_TRUNC|syscall.O_APPEND) != 0
	if st := f.c.check("", write); !st.Ok() {
		return st
	}
	return f.RawFileSystem.Open(cancel, in, out)
}

func (f *faulty) Read(cancel <-chan struct{}, in *fuse.ReadIn, buf []byte) (fuse.ReadResult, fuse.Status) {
	if st := f.c.check("", false); !st.Ok() {
		return nil, st
	}
	return f.RawFileSystem.Read(cancel, in, buf)
}

func (f *faulty) Lseek(cancel <-chan struct{}, in *fuse.LseekIn, out *fuse.LseekOut) fuse.Status {
	if st := f.c.check("", false); !st.Ok() {
		return st
	}
	return f.RawFileSystem.Lseek(cancel, in, out)
}

func (f *faulty) Write(cancel <-chan struct{}, in *fuse.WriteIn, data []byte) (uint32, fuse.Status) {
	if st := f.c.check(OpWrite, true); !st.Ok() {
		return 0, st
	}
	return f.RawFileSystem.Write(cancel, in, data)
}

func (f *faulty) Writev(cancel <-chan struct{}, in *fuse.WriteIn, data [][]byte) (uint32, fuse.Status) {
	if st := f.c.check(OpWrite, true); !st.Ok() {
		return 0, st
	}
	return f.RawFileSystem.Writev(cancel, in, data)
}

func (f *faulty) CopyFileRange(cancel <-chan struct{}, in *fuse.CopyFileRangeIn) (uint32, fuse.Status) {
	if st := f.c.check(OpWrite, true); !st.Ok() {
		return 0, st
	}
	return f.RawFileSystem.CopyFileRange(cancel, in)
}

func (f *faulty) Flush(cancel <-chan struct{}, in *fuse.FlushIn) fuse.Status {
	if st := f.c.check("", false); !st.Ok() {
		return st
	}
	return f.RawFileSystem.Flush(cancel, in)
}

func (f *faulty) Fsync(cancel <-chan struct{}, in *fuse.FsyncIn) fuse.Status {
	if st := f.c.check(OpFsync, true); !st.Ok() {
		return st
	}
	return f.RawFileSystem.Fsync(cancel, in)
}

func (f *faulty) Fallocate(cancel <-chan struct{}, in *fuse.FallocateIn) fuse.Status {
	if st := f.c.check(OpWrite, true); !st.Ok() {
		return st
	}
	return f.RawFileSystem.Fallocate(cancel, in)
}

func (f *faulty) OpenDir(cancel <-chan struct{}, in *fuse.OpenIn, out *fuse.OpenOut) fuse.Status {
	if st := f.c.check("", false); !st.Ok() {
		return st
	}
	return f.RawFileSystem.OpenDir(cancel, in, out)
}

func (f *faulty) ReadDir(cancel <-chan struct{}, in *fuse.ReadIn, out *fuse.DirEntryList) fuse.Status {
	if st := f.c.check("", false); !st.Ok() {
		return st
	}
	return f.RawFileSystem.ReadDir(cancel, in, out)
}

func (f *faulty) ReadDirPlus(cancel <-chan struct{}, in *fuse.ReadIn, out *fuse.DirEntryList) fuse.Status {
	if st := f.c.check("", false); !st.Ok() {
		return st
	}
	return f.RawFileSystem.ReadDirPlus(cancel, in, out)
}

func (f *faulty) FsyncDir(cancel <-chan struct{}, in *fuse.FsyncIn) fuse.Status {
	if st := f.c.check(OpFsync, true); !st.Ok() {
		return st
	}
	return f.RawFileSystem.FsyncDir(cancel, in)
}

func (f *faulty) StatFs(cancel <-chan struct{}, h *fuse.InHeader, out *fuse.StatfsOut) fuse.Status {
	if st := f.c.check("", false); !st.Ok() {
		return st
	}
	return f.RawFileSystem.StatFs(cancel, h, out)
}

func (f *faulty) Statx(cancel <-chan struct{}, in *fuse.StatxIn, out *fuse.StatxOut) fuse.Status {
	if st := f.c.check("", false); !st.Ok() {
		return st
	}
	return f.RawFileSystem.Statx(cancel, in, out)
}
