package scan

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"

	"github.com/shoebox-photos/shoebox/internal/fsx"
)

const (
	// batchSize is how many files travel together from a reader to the
	// emitter: large enough to amortize channel costs, small enough that
	// memory stays flat (at most (outDepth+workers)*batchSize Files).
	batchSize = 256
	// readChunk is how many directory entries are read per ReadDir call, so
	// a flat directory of a million files never sits in memory at once.
	readChunk = 512
)

// message carries files and problems from readers to the single consumer.
type message struct {
	files     []File
	problems  []Problem
	libraries []string // folders left out as shoebox libraries (Options.Library)
}

// fileID identifies a file or directory on this machine.
type fileID struct{ dev, ino uint64 }

// ancestor is an immutable chain of the directories above the one being
// read; it makes loop detection O(depth) without global state.
type ancestor struct {
	id fileID
	up *ancestor
}

func (a *ancestor) contains(id fileID) bool {
	for ; a != nil; a = a.up {
		if a.id == id {
			return true
		}
	}
	return false
}

// dirTask is one directory to read.
type dirTask struct {
	path    string // path to open and to prefix entries with
	root    string // root as given, copied into File.Root
	parents *ancestor
	viaLink bool // reached through a followed symlink
	isRoot  bool
}

type counters struct {
	dirs, skipped, links atomic.Int64
}

type walker struct {
	ctx     context.Context
	opt     Options
	roots   []string // as given
	out     chan message
	handoff chan dirTask // unbuffered: a send succeeds only if a worker idles
	pending sync.WaitGroup
	places  *places
	count   counters
	stats   Stats // consumer-owned part (Files, Problems)

	mu         sync.Mutex
	seenViaLnk map[fileID]bool // targets outside every root already entered through a link
}

func newWalker(ctx context.Context, roots []string, opt Options) *walker {
	if opt.Workers <= 0 {
		opt.Workers = 4
	}
	return &walker{
		ctx:        ctx,
		opt:        opt,
		roots:      roots,
		out:        make(chan message, 2*opt.Workers),
		handoff:    make(chan dirTask),
		seenViaLnk: map[fileID]bool{},
	}
}

// run starts the readers, feeds them the roots and closes w.out when all
// directories have been read (or the walk was cancelled).
func (w *walker) run() {
	w.places = newPlaces(w.roots, w.opt)
	var workers sync.WaitGroup
	for range w.opt.Workers {
		workers.Go(func() {
			for t := range w.handoff {
				w.readDir(t)
				w.pending.Done()
			}
		})
	}
	w.feedRoots()
	w.pending.Wait()
	close(w.handoff)
	workers.Wait()
	close(w.out)
}

func (w *walker) feedRoots() {
	for i, root := range w.roots {
		t, ok := w.rootTask(i, root)
		if !ok {
			continue
		}
		w.pending.Add(1)
		select {
		case w.handoff <- t:
		case <-w.ctx.Done():
			w.pending.Done()
			return
		}
	}
}

// rootTask classifies one root: a directory becomes a task, a file is
// emitted at once, anything else is a Problem.
func (w *walker) rootTask(i int, root string) (dirTask, bool) {
	r := w.places.roots[i]
	if r.err != nil {
		w.send(message{problems: []Problem{{Path: root, Op: "root", Err: r.err}}})
		return dirTask{}, false
	}
	if r.coveredBy >= 0 {
		w.count.skipped.Add(1)
		return dirTask{}, false
	}
	switch {
	case r.info.IsDir():
		return dirTask{path: r.clean, root: root, isRoot: true}, true
	case r.info.Mode().IsRegular():
		st, err := statPath(r.clean)
		if err != nil {
			w.send(message{problems: []Problem{{Path: root, Op: "root", Err: err}}})
			return dirTask{}, false
		}
		w.send(message{files: []File{st.file(r.clean, root)}})
	default:
		w.send(message{problems: []Problem{{Path: root, Op: "root", Err: errNotFileOrDir}}})
	}
	return dirTask{}, false
}

var errNotFileOrDir = errors.New("neither a regular file nor a directory")

// send hands a message to the consumer unless the walk was cancelled.
func (w *walker) send(m message) bool {
	select {
	case w.out <- m:
		return true
	case <-w.ctx.Done():
		return false
	}
}

// readDir reads one directory, streams its files, then descends into its
// subdirectories. Subdirectory names are kept until the directory is
// closed, so open descriptors stay at one per worker; memory is
// O(depth × subdirectories per directory), never O(files).
func (w *walker) readDir(t dirTask) {
	if w.ctx.Err() != nil {
		return
	}
	subdirs, here, ok := w.readEntries(t)
	if !ok {
		return
	}
	for _, sub := range subdirs {
		if w.ctx.Err() != nil {
			return
		}
		child := dirTask{path: joinPath(t.path, sub.name), root: t.root, parents: here, viaLink: sub.viaLink}
		w.pending.Add(1)
		select {
		case w.handoff <- child:
		default:
			w.readDir(child)
			w.pending.Done()
		}
	}
}

type subdir struct {
	name    string
	viaLink bool
}

// dirReader holds the state of reading one open directory.
type dirReader struct {
	w       *walker
	t       dirTask
	here    *ancestor // t's directory and all above it
	dir     *os.File
	msg     message
	subdirs []subdir
}

func (w *walker) readEntries(t dirTask) ([]subdir, *ancestor, bool) {
	f, here, ok := w.openDir(t)
	if !ok {
		return nil, nil, false
	}
	defer f.Close()
	w.count.dirs.Add(1)
	r := &dirReader{w: w, t: t, here: here, dir: f}
	for {
		entries, err := f.ReadDir(readChunk)
		for _, e := range entries {
			r.entry(e)
		}
		if !r.flush(false) {
			return nil, nil, false
		}
		if err == io.EOF || (err == nil && len(entries) == 0) {
			break
		}
		if err != nil {
			r.problem(t.path, "readdir", err)
			break
		}
	}
	if !r.flush(true) {
		return nil, nil, false
	}
	return r.subdirs, here, true
}

// openDir opens a directory and decides, from its device+inode, whether
// to enter it at all: excluded, a loop, or already entered through a link.
func (w *walker) openDir(t dirTask) (*os.File, *ancestor, bool) {
	op := "open"
	if t.isRoot {
		op = "root"
	}
	f, err := openDirectory(t.path)
	if err != nil {
		w.send(message{problems: []Problem{{Path: t.path, Op: op, Err: unwrapPathError(err)}}})
		return nil, nil, false
	}
	st, err := statOpen(f)
	if err != nil {
		f.Close()
		w.send(message{problems: []Problem{{Path: t.path, Op: op, Err: err}}})
		return nil, nil, false
	}
	id := st.id
	if reason := w.refuseDir(t, id); reason != "" {
		f.Close()
		if reason == "loop" {
			w.send(message{problems: []Problem{{Path: t.path, Op: "loop", Err: ErrLoop}}})
		} else {
			w.count.skipped.Add(1)
		}
		return nil, nil, false
	}
	if w.leaveLibrary(t) {
		f.Close()
		return nil, nil, false
	}
	return f, &ancestor{id: id, up: t.parents}, true
}

// leaveLibrary reports whether t is a shoebox library met below a root,
// which is not entered (and said so), or a library's state folder, never
// sorted even with --hidden. A library named as a root is walked: that
// is how one library is merged into another.
func (w *walker) leaveLibrary(t dirTask) bool {
	switch {
	case t.isRoot:
		return false
	case fsx.IsLibraryState(t.path):
		w.count.skipped.Add(1)
		return true
	case fsx.IsLibrary(t.path):
		w.count.skipped.Add(1)
		w.send(message{libraries: []string{t.path}})
		return true
	}
	return false
}

func (w *walker) refuseDir(t dirTask, id fileID) string {
	switch {
	case w.places.excluded(id):
		return "excluded"
	case t.parents.contains(id):
		return "loop"
	case t.viaLink && !w.firstViaLink(id):
		return "duplicate"
	}
	return ""
}

// firstViaLink reports whether id is entered through a link for the first
// time. Only targets outside every root get here, so the set holds at most
// one entry per followed link.
func (w *walker) firstViaLink(id fileID) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.seenViaLnk[id] {
		return false
	}
	w.seenViaLnk[id] = true
	return true
}

func (r *dirReader) entry(e fs.DirEntry) {
	name := e.Name()
	if !r.w.opt.Hidden && IsClutter(name) {
		r.w.count.skipped.Add(1)
		return
	}
	if nameDroppedByOpen(name) {
		r.problem(joinPath(r.t.path, name), "open", ErrNameNotOpenable)
		return
	}
	switch typ := e.Type(); {
	case typ.IsRegular():
		r.regular(name)
	case typ.IsDir():
		r.subdirs = append(r.subdirs, subdir{name: name})
	case typ&fs.ModeSymlink != 0:
		r.symlink(name)
	default:
		r.w.count.skipped.Add(1) // fifo, socket, device
	}
}

func (r *dirReader) regular(name string) {
	p := joinPath(r.t.path, name)
	st, err := statAt(r.dir, p, name, false)
	if err != nil {
		r.problem(p, "lstat", err)
		return
	}
	if !st.mode.IsRegular() {
		r.w.count.skipped.Add(1) // replaced by something else since readdir
		return
	}
	r.msg.files = append(r.msg.files, st.file(p, r.t.root))
}

func (r *dirReader) symlink(name string) {
	r.w.count.links.Add(1)
	if !r.w.opt.FollowLinks {
		r.w.count.skipped.Add(1)
		return
	}
	p := joinPath(r.t.path, name)
	st, err := statAt(r.dir, p, name, true)
	if err != nil {
		r.problem(p, "stat", err)
		return
	}
	isDir := st.mode.IsDir()
	isReg := st.mode.IsRegular()
	if !isDir && !isReg {
		r.w.count.skipped.Add(1)
		return
	}
	id := st.id
	if isDir && r.here.contains(id) {
		r.problem(p, "loop", ErrLoop)
		return
	}
	// A target that the walk reaches anyway (or must never enter) is not
	// followed, so each file keeps its one real path inside a root.
	if r.w.places.reachedAnyway(p) {
		r.w.count.skipped.Add(1)
		return
	}
	switch {
	case isDir:
		r.subdirs = append(r.subdirs, subdir{name: name, viaLink: true})
	case r.w.firstViaLink(id):
		r.msg.files = append(r.msg.files, st.file(p, r.t.root))
	default:
		r.w.count.skipped.Add(1)
	}
}

func (r *dirReader) problem(path, op string, err error) {
	r.msg.problems = append(r.msg.problems, Problem{Path: path, Op: op, Err: err})
}

// flush sends the pending batch when it is full (or always, if final).
func (r *dirReader) flush(final bool) bool {
	if len(r.msg.files) < batchSize && len(r.msg.problems) == 0 && !final {
		return true
	}
	if len(r.msg.files) == 0 && len(r.msg.problems) == 0 {
		return true
	}
	ok := r.w.send(r.msg)
	r.msg = message{files: make([]File, 0, batchSize)}
	return ok
}

func (w *walker) snapshot() Stats {
	st := w.stats
	st.Dirs = w.count.dirs.Load()
	st.Skipped = w.count.skipped.Load()
	st.Links = w.count.links.Load()
	return st
}

// joinPath is filepath.Join for a clean dir and a single name, without
// the cost of re-cleaning.
func joinPath(dir, name string) string {
	if dir == "." {
		return name
	}
	if dir != "" && os.IsPathSeparator(dir[len(dir)-1]) {
		return dir + name
	}
	return dir + string(os.PathSeparator) + name
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
