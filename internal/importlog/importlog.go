// Package importlog is a library's import history: one record for every
// file shoebox brought into the library, kept in DEST/.shoebox/imports.
// It answers two questions without reading a byte of any photo:
//
//   - Is this source the file already imported to that library path,
//     and does the library copy still look as shoebox left it? (a re-run's
//     quick check, like rsync's size+mtime check, but by identity)
//   - Was this source imported before and then deleted or edited in the
//     library? (culled photos stay culled)
//
// Every landing is kept under its library path too, with the entry it
// had: a source landed anew elsewhere (its first copy damaged) leaves its
// first copy known to shoebox check until undo forgets it.
//
// Records are keyed by the source's identity (device and inode), so a run
// looks its sources up in identity order with one forward-seeking cursor:
// the history is streamed, never loaded, whatever its size.
//
// Durability: a record is added only after its file and the journal that
// names it are durable (the transfer stage's Flush), in synced batches. A
// kill can only lose the records of the last batch, whose files are then
// found identical by content on the next run and recorded again; it can
// never leave a record of a file that did not land. A history that cannot
// be opened is started anew with a warning: it never blocks a sort.
package importlog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/record"
	"github.com/shoebox-photos/shoebox/internal/store"
)

// Entry is one file shoebox imported.
type Entry struct {
	// The source as it was scanned: its identity and what changes with
	// its content.
	Dev, Ino uint64
	Size     int64
	ModTime  int64 // unix nanoseconds
	CTime    int64 // unix nanoseconds; 0 where the platform has none
	Src      string

	// The library copy: where it went (relative to the library, slash
	// separated) and the size and mtime it had once it landed.
	Path       string
	LibSize    int64
	LibModTime int64
	Link       bool // a symbolic link to the source (--mode symlink): checked through the link
	// The library copy's identity and change time once it landed (zero
	// where the platform has none, and in entries of version 1): a file
	// put in its place, or the library copied elsewhere, has other ones.
	LibDev, LibIno uint64
	LibCTime       int64
	// The library folder's own device and inode when the entry was
	// written (zero in entries of versions 1 and 2): a library copied
	// elsewhere with its state folder has other ones, and a copy missing
	// there proves nothing about this library.
	RootDev, RootIno uint64

	Kind       uint8  // meta.Kind of the file
	Taken      int64  // capture wall clock used, unix nanoseconds; 0 when undated
	DateSource uint8  // meta.Source of that date
	Sum        []byte // content hash (BLAKE3) when shoebox computed one, else empty

	Run string // the run (journal id) that imported it
	At  int64  // when it landed, unix nanoseconds
}

// SameSource reports whether a scanned file is, by every stat field the
// history kept, the file this entry recorded: same device and inode, size,
// mtime and change time, and the same place in its source (rel, its path
// relative to the source root it was found under, ends the recorded
// path). A write, a chmod, a rename or a restore moves the change time,
// so an edit whose mtime was put back is still seen. The place guards
// where inode numbers are handed out afresh at every mount (FAT and exFAT
// cards) and the "change time" is a creation time the camera wrote: two
// files of one card, or of two cards, would need the same name and folder
// as well as the same number, size and times to the second.
func (e Entry) SameSource(dev, ino uint64, size, mtime, ctime int64, rel string) bool {
	return e.Dev == dev && e.Ino == ino && e.Size == size && e.ModTime == mtime && e.CTime == ctime && samePlace(e.Src, rel)
}

// SameFileByPlace is SameSource without the device and inode, for a
// filesystem that numbers inodes afresh (FUSE mounts such as sshfs number
// them as the kernel looks files up, a remount changes the device; FAT and
// exFAT cards get new numbers at every mount): the file at the recorded
// place under its source root with the recorded size, mtime and change
// time is taken for the file imported from there.
func (e Entry) SameFileByPlace(size, mtime, ctime int64, rel string) bool {
	return e.Size == size && e.ModTime == mtime && e.CTime == ctime && samePlace(e.Src, rel)
}

// samePlace reports whether the recorded source path ends with rel (slash
// or OS separated), whole path components only: a card mounted at another
// mount point is still recognised, a file in another folder is not.
func samePlace(recorded, rel string) bool {
	if rel == "" || rel == "." {
		return false
	}
	recorded, rel = filepath.ToSlash(recorded), filepath.ToSlash(rel)
	return recorded == rel || strings.HasSuffix(recorded, "/"+strings.TrimPrefix(rel, "/"))
}

// State is what became of an entry's library copy.
type State uint8

const (
	// Intact: the library path holds a file with the size and mtime
	// shoebox gave it.
	Intact State = iota + 1
	// Changed: something else is there now (edited in place, replaced).
	Changed
	// Gone: nothing is there (deleted, culled, moved away).
	Gone
	// Unsure: a file with the recorded size and mtime is there, but it is
	// not the file shoebox left (another inode, device or change time: put
	// in its place, restored, or the library was copied elsewhere). Its
	// content decides: the source is compared by content, as if the
	// history did not know it.
	Unsure
)

func (s State) String() string {
	switch s {
	case Intact:
		return "intact"
	case Changed:
		return "changed"
	case Gone:
		return "gone"
	case Unsure:
		return "not provably the same file"
	}
	return "unknown"
}

// Check stats the entry's library copy in lib (one stat, no read).
func (e Entry) Check(lib string) State { return e.check(lib, false) }

// CheckByPlace is Check for a library on a filesystem that numbers inodes
// afresh (a FUSE mount such as sshfs, FAT, SMB: see SameFileByPlace). The
// copy's device and inode prove nothing there once the kernel has
// forgotten them, so the file at the recorded path with the size, mtime
// and change time it had once it landed is the copy shoebox left; any
// other change time is Unsure, as in Check.
func (e Entry) CheckByPlace(lib string) State { return e.check(lib, true) }

func (e Entry) check(lib string, byPlace bool) State {
	p := filepath.Join(lib, filepath.FromSlash(e.Path))
	stat := os.Lstat
	if e.Link {
		stat = os.Stat
	}
	info, err := stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if !e.sameLibrary(lib) {
			return Unsure
		}
		return Gone
	case err != nil || !info.Mode().IsRegular():
		return Changed
	case info.Size() != e.LibSize || info.ModTime().UnixNano() != e.LibModTime:
		return Changed
	}
	// Where the platform gives no identity both sides are zero and size
	// and mtime decide; an entry of version 1 (zero) on a platform that
	// gives one is Unsure.
	dev, ino, ctime := Identity(p, info)
	if byPlace {
		dev, ino = e.LibDev, e.LibIno
	}
	if dev != e.LibDev || ino != e.LibIno || ctime != e.LibCTime {
		return Unsure
	}
	return Intact
}

// sameLibrary reports whether lib is the library folder the entry was
// written in, so that its copy's absence means it was deleted there
// (culled). A library copied to another disk or folder with its state
// folder, but not whole (an interrupted copy, a folder left out), holds
// the records of files it never received: those are not culled. Entries
// that predate the library's identity are judged by the device their copy
// was on; where the platform gives no identity, as before, by the record.
func (e Entry) sameLibrary(lib string) bool {
	info, err := os.Stat(lib)
	if err != nil {
		return false
	}
	dev, ino, _ := Identity(lib, info)
	switch {
	case e.RootDev != 0 || e.RootIno != 0:
		return dev == e.RootDev && ino == e.RootIno
	case e.LibDev != 0:
		return dev == e.LibDev
	}
	return true
}

// LibraryPath is the entry's library copy as a full path under lib.
func (e Entry) LibraryPath(lib string) string {
	return filepath.Join(lib, filepath.FromSlash(e.Path))
}

// Key spaces of the history store.
var (
	keyIdentity = []byte("i/") // i/<dev><ino> → entry
	// p/<library path>\0<dev><ino> → the entry of that landing ("" in
	// histories written before it was kept): what went where, for undo,
	// and for check. i/ keeps one entry per source, the newest landing;
	// p/ keeps every landing, so a re-run that lands a source anew beside
	// its damaged first copy does not make check forget that copy.
	keyPath  = []byte("p/")
	keyPlace = []byte("q/") // q/<size><mtime><base name>\0<dev><ino> → "" (FindByPlace)
)

// placePrefix is the q/ prefix of every entry of one size, mtime and name.
func placePrefix(size, mtime int64, base string) []byte {
	k := store.AppendUint64(append([]byte(nil), keyPlace...), uint64(size))
	k = store.AppendUint64(k, uint64(mtime))
	return append(append(k, base...), 0)
}

func placeKey(e Entry) []byte {
	k := placePrefix(e.Size, e.ModTime, baseName(e.Src))
	k = store.AppendUint64(k, e.Dev)
	return store.AppendUint64(k, e.Ino)
}

// baseName is the last element of a recorded source path, whichever
// separator it was recorded with.
func baseName(p string) string {
	return path.Base(filepath.ToSlash(p))
}

// entryVersion 2 added the library copy's identity (LibDev, LibIno,
// LibCTime); version 1 entries read with them zero, which Check calls
// Unsure: their files are compared by content once and recorded anew.
// Version 3 added the library folder's identity (RootDev, RootIno).
const entryVersion = 3

func identityKey(dev, ino uint64) []byte {
	k := store.AppendUint64(append([]byte(nil), keyIdentity...), dev)
	return store.AppendUint64(k, ino)
}

func pathPrefix(path string) []byte {
	k := append(append([]byte(nil), keyPath...), path...)
	return append(k, 0)
}

func pathKey(path string, dev, ino uint64) []byte {
	k := pathPrefix(path)
	k = store.AppendUint64(k, dev)
	return store.AppendUint64(k, ino)
}

func encode(e Entry) []byte {
	b := []byte{entryVersion}
	b = binary.AppendUvarint(b, e.Dev)
	b = binary.AppendUvarint(b, e.Ino)
	b = binary.AppendVarint(b, e.Size)
	b = binary.AppendVarint(b, e.ModTime)
	b = binary.AppendVarint(b, e.CTime)
	b = record.AppendString(b, e.Src)
	b = record.AppendString(b, e.Path)
	b = binary.AppendVarint(b, e.LibSize)
	b = binary.AppendVarint(b, e.LibModTime)
	b = record.AppendBool(b, e.Link)
	b = binary.AppendUvarint(b, uint64(e.Kind))
	b = binary.AppendVarint(b, e.Taken)
	b = binary.AppendUvarint(b, uint64(e.DateSource))
	b = record.AppendString(b, string(e.Sum))
	b = record.AppendString(b, e.Run)
	b = binary.AppendVarint(b, e.At)
	b = binary.AppendUvarint(b, e.LibDev)
	b = binary.AppendUvarint(b, e.LibIno)
	b = binary.AppendVarint(b, e.LibCTime)
	b = binary.AppendUvarint(b, e.RootDev)
	return binary.AppendUvarint(b, e.RootIno)
}

// ErrRecord marks a record that cannot be read (damaged, or written by a
// later version): its file is not recognised, so it is compared by
// content and recorded anew.
var ErrRecord = errors.New("import history: unreadable record")

func decode(v []byte) (Entry, error) {
	e, err := decodeEntry(v)
	if err != nil {
		return Entry{}, fmt.Errorf("%w: %w", ErrRecord, err)
	}
	return e, nil
}

func decodeEntry(v []byte) (Entry, error) {
	d := record.NewDecoder(v)
	version := d.Byte()
	if version < 1 || version > entryVersion {
		return Entry{}, errors.New("record of an unknown version")
	}
	var e Entry
	e.Dev, e.Ino = d.Uvarint(), d.Uvarint()
	e.Size, e.ModTime, e.CTime = d.Varint(), d.Varint(), d.Varint()
	e.Src, e.Path = d.Str(), d.Str()
	e.LibSize, e.LibModTime = d.Varint(), d.Varint()
	e.Link = d.Bool()
	e.Kind = uint8(d.Uvarint())
	e.Taken = d.Varint()
	e.DateSource = uint8(d.Uvarint())
	if s := d.Str(); s != "" {
		e.Sum = []byte(s)
	}
	e.Run = d.Str()
	e.At = d.Varint()
	if version >= 2 {
		e.LibDev, e.LibIno, e.LibCTime = d.Uvarint(), d.Uvarint(), d.Varint()
	}
	if version >= 3 {
		e.RootDev, e.RootIno = d.Uvarint(), d.Uvarint()
	}
	if err := d.Finish(); err != nil {
		return Entry{}, err
	}
	return e, nil
}

// Log is an open import history.
type Log struct {
	st  *store.Store
	dir string
}

// Dir is where the history lives inside a library's state folder.
func Dir(stateDir string) string { return filepath.Join(stateDir, "imports") }

// Open opens (or creates) the history in stateDir. A history that cannot
// be opened is started anew and warn says so: the files it knew are then
// recognised again by their content.
func Open(stateDir string, warn func(string)) (*Log, error) {
	dir := Dir(stateDir)
	st, err := store.Open(dir, store.Options{Disposable: true})
	if err != nil {
		return nil, fmt.Errorf("open import history: %w", err)
	}
	if why := st.Discarded(); why != nil && warn != nil {
		warn(fmt.Sprintf("the library's import history %s could not be opened (%v): it was started anew, so files imported before are recognised by their content only", quote.Path(dir), why))
	}
	return &Log{st: st, dir: dir}, nil
}

// Close releases the history.
func (l *Log) Close() error { return l.st.Close() }

// Empty reports whether the history holds no entry.
func (l *Log) Empty() (bool, error) { return l.st.Empty(keyIdentity) }

// Matcher looks sources up in ascending (device, inode) order over one
// cursor. Lookups out of order still work, only slower.
type Matcher struct {
	c *store.Cursor
	l *Log
}

// Matcher opens a lookup cursor; Close it.
func (l *Log) Matcher() (*Matcher, error) {
	c, err := l.st.Cursor(keyIdentity)
	if err != nil {
		return nil, err
	}
	return &Matcher{c: c, l: l}, nil
}

// FindByPlace returns the entry recorded for a file of this size, mtime
// and change time at the place rel under its source root, whatever its
// device and inode (see SameFileByPlace). Entries recorded before the
// history kept places are not found: their files are compared by content
// once and recorded again.
func (m *Matcher) FindByPlace(size, mtime, ctime int64, rel string) (Entry, bool, error) {
	var ids [][]byte
	prefix := placePrefix(size, mtime, baseName(rel))
	err := m.l.st.Scan(prefix, func(k, _ []byte) error {
		if tail := k[len(prefix):]; len(tail) == 16 {
			ids = append(ids, append(append([]byte(nil), keyIdentity...), tail...))
		}
		return nil
	})
	for _, id := range ids {
		if err != nil {
			break
		}
		v, ok, gerr := m.l.st.Get(id)
		if gerr != nil || !ok {
			err = gerr
			continue
		}
		// An entry replaced since (its identity reused) is checked whole.
		if e, derr := decode(v); derr == nil && e.SameFileByPlace(size, mtime, ctime, rel) {
			return e, true, nil
		}
	}
	return Entry{}, false, err
}

// Find returns the entry recorded for the identity, if any.
func (m *Matcher) Find(dev, ino uint64) (Entry, bool, error) {
	k := identityKey(dev, ino)
	if !m.c.SeekGE(k) || string(m.c.Key()) != string(k) {
		return Entry{}, false, nil
	}
	v, err := m.c.Value()
	if err != nil {
		return Entry{}, false, err
	}
	e, err := decode(v)
	return e, err == nil, err
}

// Close releases the cursor.
func (m *Matcher) Close() error { return m.c.Close() }

// Recorder adds entries in synced batches.
type Recorder struct {
	w                *store.Writer
	rootDev, rootIno uint64 // the library folder's identity, given to every entry
}

// recordBatch bounds the entries held before a synced commit.
const recordBatch = 4096

// Recorder returns a writer of entries; call Commit to make them durable.
func (l *Log) Recorder() *Recorder {
	r := &Recorder{w: l.st.Writer(recordBatch)}
	lib := filepath.Dir(filepath.Dir(l.dir)) // LIB/.shoebox/imports
	if info, err := os.Stat(lib); err == nil {
		r.rootDev, r.rootIno, _ = Identity(lib, info)
	}
	return r
}

// Add records e, replacing what was known of its source identity. Only
// call it once e's file is durable in the library.
func (r *Recorder) Add(e Entry) error {
	if e.RootDev == 0 && e.RootIno == 0 {
		e.RootDev, e.RootIno = r.rootDev, r.rootIno
	}
	v := encode(e)
	if err := r.w.Put(identityKey(e.Dev, e.Ino), v); err != nil {
		return err
	}
	if err := r.w.Put(placeKey(e), nil); err != nil {
		return err
	}
	return r.w.Put(pathKey(e.Path, e.Dev, e.Ino), v)
}

// Keep writes e, an entry the history holds, into its own path record,
// where a shoebox that kept none there (an older history) left that
// record empty: the file e landed then stays known once a later Add of
// the same source identity names another path. A run calls it for each
// recorded source it does not recognise, and so may land anew (no
// lookup: the run found e already).
func (r *Recorder) Keep(e Entry) error {
	return r.w.Put(pathKey(e.Path, e.Dev, e.Ino), encode(e))
}

// Commit makes every added entry durable.
func (r *Recorder) Commit() error { return r.w.Flush() }

// Forget removes what the history says was imported to the given
// library paths (relative, slash separated): undo calls it with the files
// of the run it reverses, before reversing them, so that a sort after the
// undo imports them again. Entries a later import made for another path
// stay. It returns how many entries it removed, durably.
func (l *Log) Forget(paths func(yield func(string) bool)) (int, error) {
	w := l.st.Writer(recordBatch)
	n := 0
	var err error
	for path := range paths {
		if err = l.forgetPath(path, w, &n); err != nil {
			break
		}
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return n, fmt.Errorf("forget imports in the import history %s: %w", quote.Path(l.dir), err)
	}
	return n, nil
}

func (l *Log) forgetPath(path string, w *store.Writer, n *int) error {
	prefix := pathPrefix(path)
	return l.st.Scan(prefix, func(k, _ []byte) error {
		if tail := k[len(prefix):]; len(tail) == 16 {
			ik := identityKey(store.Uint64(tail[:8]), store.Uint64(tail[8:]))
			v, ok, err := l.st.Get(ik)
			if err != nil {
				return err
			}
			if e, derr := decode(v); ok && (derr != nil || e.Path == path) {
				if err := w.Delete(ik); err != nil {
					return err
				}
				if derr == nil {
					if err := w.Delete(placeKey(e)); err != nil {
						return err
					}
				}
				*n++
			}
		}
		return w.Delete(k)
	})
}

// Each calls fn for every entry, in identity order (tests, tools).
func (l *Log) Each(fn func(Entry) error) error {
	return l.st.Scan(keyIdentity, func(_, v []byte) error {
		e, err := decode(v)
		if err != nil {
			return err
		}
		return fn(e)
	})
}

// OpenReadOnly opens the history of stateDir without writing to it (a dry
// run). A library with no history, or one another run holds, gives nil.
func OpenReadOnly(stateDir string) *Log {
	dir := Dir(stateDir)
	if _, err := os.Stat(dir); err != nil {
		return nil
	}
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		return nil
	}
	return &Log{st: st, dir: dir}
}

// Exists reports whether stateDir holds a history.
func Exists(stateDir string) bool {
	_, err := os.Stat(Dir(stateDir))
	return err == nil
}

// EachPath calls fn once for every library path the history records, in
// path order, with the newest landing that still stands there (a path can
// be named by several sources: a duplicate found identical to a library
// file is recorded for that file too). A landing stands until undo
// forgets it or the file it left is moved on by a later import (see
// standing): a re-run that lands its source anew elsewhere does not end
// it. It streams: one cursor, one path's entries held at a time, whatever
// the history's size (shoebox check).
func (l *Log) EachPath(fn func(Entry) error) error {
	c, err := l.st.Cursor(keyPath)
	if err != nil {
		return err
	}
	defer c.Close()
	var newest Entry
	have := false
	for ok := c.SeekGE(keyPath); ok; ok = c.Next() {
		path, id, valid := splitPathKey(c.Key())
		if !valid {
			continue // not a key of this shape: left alone
		}
		v, err := c.Value()
		if err != nil {
			return fmt.Errorf("read the import history's record of %s: %w", quote.Path(path), err)
		}
		e, stands, err := l.standing(path, id, v)
		if err != nil {
			return err
		}
		if !stands {
			continue
		}
		if have && newest.Path != path {
			if err := fn(newest); err != nil {
				return err
			}
			have = false
		}
		if !have || e.At >= newest.At {
			newest, have = e, true
		}
	}
	if have {
		return fn(newest)
	}
	return nil
}

// splitPathKey parses p/<path>\0<dev><ino> into the path and the source
// identity (16 bytes).
func splitPathKey(k []byte) (path string, id []byte, ok bool) {
	tail := k[len(keyPath):]
	if len(tail) < 17 || tail[len(tail)-17] != 0 {
		return "", nil, false
	}
	return string(tail[:len(tail)-17]), tail[len(tail)-16:], true
}

// standing returns the landing a p/ record names (v, its value), and
// whether it still stands: whether the file it left at path is one the
// library is expected to hold.
//
// A record written with its entry stands unless the newest landing of
// the same source took that very file as its source (moved it on, or
// linked it elsewhere): then the library is not expected to hold it
// there any more. A record of an older history (no entry), or one that
// cannot be read, knows only the newest landing of its source, so it
// stands only while that landing is at path, as before.
func (l *Log) standing(path string, id, v []byte) (Entry, bool, error) {
	newest, found, err := l.st.Get(identityKey(store.Uint64(id[:8]), store.Uint64(id[8:])))
	if err != nil {
		return Entry{}, false, fmt.Errorf("read the import history's record of %s: %w", quote.Path(path), err)
	}
	var latest *Entry
	if found {
		if e, derr := decode(newest); derr == nil {
			latest = &e
		}
	}
	e, derr := decode(v)
	if len(v) == 0 || derr != nil || e.Path != path {
		// An older history's record, or a damaged one: the newest
		// landing of its source is all there is to go by.
		if latest == nil || latest.Path != path {
			return Entry{}, false, nil
		}
		return *latest, true, nil
	}
	if latest != nil && latest.Path != path && l.movedOn(e, *latest) {
		return Entry{}, false, nil
	}
	return e, true, nil
}

// movedOn reports whether a later landing of the same source (later)
// took the file an earlier one left (landed) as its source: the landed
// file is the source itself (moved in by a rename, or hard-linked), or
// the later landing's source path is that library file.
func (l *Log) movedOn(landed, later Entry) bool {
	if landed.LibDev == landed.Dev && landed.LibIno == landed.Ino && (landed.Dev != 0 || landed.Ino != 0) {
		return true
	}
	return filepath.Clean(later.Src) == landed.LibraryPath(l.library())
}

// library is the library folder the history belongs to (LIB/.shoebox/imports).
func (l *Log) library() string { return filepath.Dir(filepath.Dir(l.dir)) }

// Knows reports whether the history records a landing that still stands
// at the library path (relative, slash separated; see EachPath).
func (l *Log) Knows(path string) (bool, error) {
	prefix := pathPrefix(path)
	type record struct{ id, v []byte }
	var records []record
	err := l.st.Scan(prefix, func(k, v []byte) error {
		if tail := k[len(prefix):]; len(tail) == 16 {
			records = append(records, record{id: bytes.Clone(tail), v: bytes.Clone(v)})
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	for _, r := range records {
		_, stands, err := l.standing(path, r.id, r.v)
		if err != nil || stands {
			return stands, err
		}
	}
	return false, nil
}

// OpenForReading opens the history of stateDir read-only (shoebox check):
// nothing is written, no lock is taken, and an error says why it cannot be
// opened.
func OpenForReading(stateDir string) (*Log, error) {
	dir := Dir(stateDir)
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("open import history %s: %w", quote.Path(dir), err)
	}
	return &Log{st: st, dir: dir}, nil
}

// Relocate records that the files shoebox imported to library paths
// (relative, slash separated) now live elsewhere in the library (shoebox
// relayout, and its undo): each pair is (old path, new path). An entry
// keeps everything else it knew (its source, hash, date). A path the
// history no longer names (moved already, by a run killed after it
// recorded its moves) is skipped, so calling it again changes nothing.
// It returns how many entries it moved, durably.
func (l *Log) Relocate(pairs func(yield func(from, to string) bool)) (int, error) {
	w := l.st.Writer(recordBatch)
	n := 0
	var err error
	for from, to := range pairs {
		if err = l.relocatePath(from, to, w, &n); err != nil {
			break
		}
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return n, fmt.Errorf("relocate entries in the import history %s: %w", quote.Path(l.dir), err)
	}
	return n, nil
}

// Pairs yields each (from, to) pair of a list, for Relocate.
func Pairs(pairs [][2]string) func(yield func(from, to string) bool) {
	return func(yield func(string, string) bool) {
		for _, p := range pairs {
			if !yield(p[0], p[1]) {
				return
			}
		}
	}
}

func (l *Log) relocatePath(from, to string, w *store.Writer, n *int) error {
	prefix := pathPrefix(from)
	type record struct{ id, v []byte }
	var records []record
	if err := l.st.Scan(prefix, func(k, v []byte) error {
		if tail := k[len(prefix):]; len(tail) == 16 {
			records = append(records, record{id: bytes.Clone(tail), v: bytes.Clone(v)})
		}
		return nil
	}); err != nil {
		return err
	}
	// Every landing that stands at from names the one file that moved:
	// each record follows it, and so does its source's newest entry when
	// that is the landing at from.
	for _, r := range records {
		e, stands, err := l.standing(from, r.id, r.v)
		if err != nil {
			return err
		}
		if !stands {
			continue
		}
		dev, ino := store.Uint64(r.id[:8]), store.Uint64(r.id[8:])
		if filepath.Clean(e.Src) == e.withPath(to).LibraryPath(l.library()) {
			// Its source is the very place it goes to: a library file the
			// history did not know, which a sort moved within the library
			// and recorded as an import. Moved back (undo), it is again a
			// file no run put there.
			if err := l.dropLanding(from, dev, ino, w); err != nil {
				return err
			}
			*n++
			continue
		}
		if err := l.relocateNewest(dev, ino, from, to, w); err != nil {
			return err
		}
		e.Path = to
		if err := w.Delete(pathKey(from, dev, ino)); err != nil {
			return err
		}
		if err := w.Put(pathKey(to, dev, ino), encode(e)); err != nil {
			return err
		}
		*n++
	}
	return nil
}

// withPath is e landed at path instead.
func (e Entry) withPath(path string) Entry {
	e.Path = path
	return e
}

// dropLanding removes the landing of source (dev, ino) at path, and the
// source's newest entry when that is the landing.
func (l *Log) dropLanding(path string, dev, ino uint64, w *store.Writer) error {
	ik := identityKey(dev, ino)
	v, ok, err := l.st.Get(ik)
	if err != nil {
		return err
	}
	if e, derr := decode(v); ok && derr == nil && e.Path == path {
		if err := w.Delete(ik); err != nil {
			return err
		}
		if err := w.Delete(placeKey(e)); err != nil {
			return err
		}
	}
	return w.Delete(pathKey(path, dev, ino))
}

// relocateNewest moves a source's newest entry from one library path to
// another, when it names from.
func (l *Log) relocateNewest(dev, ino uint64, from, to string, w *store.Writer) error {
	v, ok, err := l.st.Get(identityKey(dev, ino))
	if err != nil || !ok {
		return err
	}
	e, derr := decode(v)
	if derr != nil || e.Path != from {
		return nil
	}
	e.Path = to
	return w.Put(identityKey(dev, ino), encode(e))
}

// OpenForUpdate opens the history of stateDir to change what it records
// (shoebox relayout): unlike Open, a history that cannot be opened is an
// error, never started anew, since the files it knows would be forgotten.
func OpenForUpdate(stateDir string) (*Log, error) {
	dir := Dir(stateDir)
	st, err := store.Open(dir, store.Options{})
	if err != nil {
		return nil, fmt.Errorf("open import history %s: %w", quote.Path(dir), err)
	}
	return &Log{st: st, dir: dir}, nil
}
