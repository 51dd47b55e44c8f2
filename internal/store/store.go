package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/shoebox-photos/shoebox/internal/quote"
)

// Options tunes a Store. The zero value is a durable store with a small cache.
type Options struct {
	// CacheBytes is the block cache size; 0 means defaultCacheBytes.
	CacheBytes int64
	// Scratch stores may lose their contents on a crash: no WAL, no fsync on
	// commit. Use it for per-run spill data that a resumed run rebuilds.
	// A scratch store never outlives its use: Open empties it (removes
	// the folder), so what a killed run left there can never be misread
	// or stop the next run from opening it.
	Scratch bool
	// Disposable stores hold only what can be computed again (spill data, a
	// cache): one that cannot be opened — a kill during pebble's first
	// open or during the removal of the folder leaves a missing or torn
	// MANIFEST — is deleted and created empty, and Store.Discarded says why.
	Disposable bool
	// ReadOnly opens an existing store without writing to it (a dry run
	// reading the library's state); a missing store is an error.
	ReadOnly bool

	base vfs.FS // the filesystem under pebble; nil: the OS's (tests count its syncs)
}

// Measured in doc.go: larger caches and memtables bought no speed for the
// pipeline's write-then-stream pattern, only resident memory.
const (
	defaultCacheBytes = 4 << 20
	memTableBytes     = 2 << 20
	maxOpenTables     = 64
)

// Store is an ordered byte-key/byte-value map persisted in one directory.
// Reads and DeletePrefix are safe for concurrent use; a Writer is not.
type Store struct {
	db        *pebble.DB
	dir       string
	write     *pebble.WriteOptions
	discarded error

	brokenMu sync.Mutex
	broken   error // a commit failed fatally: the store takes no more writes

	wal *walState // WAL failures pebble was not told of (walguard.go)
}

// usable is nil until a commit failed fatally or a WAL failed.
func (s *Store) usable() error {
	s.brokenMu.Lock()
	defer s.brokenMu.Unlock()
	if s.broken == nil {
		if err := s.wal.failed(); err != nil {
			s.broken = fmt.Errorf("store %s: a write failed, the store takes no more: %w", quote.Path(s.dir), err)
		}
	}
	return s.broken
}

// recoverFatal turns pebble's fatal error (our logger panics with it) into
// *err and marks the store broken. Other panics go on.
func (s *Store) recoverFatal(err *error) {
	r := recover()
	if r == nil {
		return
	}
	fe, ok := r.(fatalError)
	if !ok {
		panic(r)
	}
	s.brokenMu.Lock()
	s.broken = fmt.Errorf("store %s: a write failed, the store takes no more: %w", quote.Path(s.dir), fe)
	s.brokenMu.Unlock()
	*err = s.broken
}

// Open opens the store in dir, creating dir and an empty store if missing.
// A Scratch store always starts empty; a Disposable store that cannot be
// opened is removed and created anew; any other store's open error is
// returned.
func Open(dir string, opt Options) (*Store, error) {
	if err := requireStoreFolder(dir); err != nil {
		return nil, err
	}
	if opt.Scratch {
		// Whatever a killed run left behind, even a torn MANIFEST, is
		// data no one will read: remove it rather than try to open it.
		if err := discard(dir); err != nil {
			return nil, fmt.Errorf("open store %s: %w", quote.Path(dir), err)
		}
		return open(dir, opt)
	}
	if !opt.ReadOnly {
		// Before pebble's open, which would write into a folder that is
		// not a store, and take a file named like its logs for one of
		// them, replay it and delete it.
		if _, err := storeEntries(dir); err != nil {
			return nil, fmt.Errorf("open store %s: %w", quote.Path(dir), err)
		}
	}
	s, err := open(dir, opt)
	if err == nil || !opt.Disposable || opt.ReadOnly {
		return s, err
	}
	if rmErr := discard(dir); rmErr != nil {
		return nil, errors.Join(err, fmt.Errorf("discard unusable store %s: %w", quote.Path(dir), rmErr))
	}
	s, err2 := open(dir, opt)
	if err2 != nil {
		return nil, errors.Join(err, err2)
	}
	s.discarded = err
	return s, nil
}

// errInUse refuses to discard a store another Open holds.
var errInUse = errors.New("the store is in use")

// discard removes the store folder dir, unless another open store holds it.
// Nothing else shares dir: it is shoebox's own store folder.
func discard(dir string) error {
	// Before the lock probe, which would create a LOCK file in a folder
	// that is not a store at all.
	if _, err := storeEntries(dir); err != nil {
		return err
	}
	if inUse(dir) {
		return errInUse
	}
	return Remove(dir)
}

// Discarded is the error that made Open delete and recreate this
// Disposable store, nil when it opened as is.
func (s *Store) Discarded() error { return s.discarded }

// inUse reports whether another open store holds dir's pebble lock (or
// whether that cannot be told): such a store is busy, not damaged.
func inUse(dir string) bool {
	l, err := vfs.Default.Lock(filepath.Join(dir, "LOCK"))
	if err != nil {
		return !errors.Is(err, fs.ErrNotExist)
	}
	return l.Close() != nil
}

func open(dir string, opt Options) (s *Store, err error) {
	if opt.ReadOnly {
		if _, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("open store %s: %w", quote.Path(dir), err)
		}
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("open store %s: %w", quote.Path(dir), err)
	}
	cacheBytes := opt.CacheBytes
	if cacheBytes <= 0 {
		cacheBytes = defaultCacheBytes
	}
	cache := pebble.NewCache(cacheBytes)
	defer cache.Unref() // the DB holds its own reference
	popts := &pebble.Options{
		Cache:                       cache,
		MemTableSize:                memTableBytes,
		MemTableStopWritesThreshold: 2,
		MaxOpenFiles:                maxOpenTables,
		DisableWAL:                  opt.Scratch,
		Logger:                      quietLogger{dir: dir},
		// By default pebble answers corruption with Logger.Fatalf (an
		// os.Exit), some of it from background goroutines. The read that hit
		// the corruption returns an error to our caller anyway, so the
		// events are dropped, and the background table-stats loader, whose
		// consistency check is one such Fatalf, is off: shoebox's keyspace is
		// small enough that compaction heuristics do not need its stats.
		EventListener: &pebble.EventListener{
			DataCorruption:  func(pebble.DataCorruptionInfo) {},
			BackgroundError: func(error) {},
		},
		DisableTableStats: true,
		ReadOnly:          opt.ReadOnly,
	}
	base := opt.base
	if base == nil {
		base = vfs.Default
	}
	popts.FS = base
	wal := new(walState)
	if !opt.ReadOnly && !opt.Scratch {
		popts.FS = walGuardFS{FS: base, state: wal}
	}
	if opt.ReadOnly {
		popts.FS = unlockedFS{base}
	}
	if opt.Scratch {
		tuneScratch(popts)
		popts.FS = noSyncFS{base}
	}
	// Pebble reports other fatal conditions through Logger.Fatalf; ours
	// panics with a fatalError instead of exiting, and here it becomes an error.
	defer func() {
		if r := recover(); r != nil {
			fe, ok := r.(fatalError)
			if !ok {
				panic(r)
			}
			s, err = nil, fmt.Errorf("open store %s: %w", quote.Path(dir), fe)
		}
	}()
	db, err := pebble.Open(dir, popts)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", quote.Path(dir), err)
	}
	wal.armed.Store(true)
	write := pebble.Sync
	if opt.Scratch {
		write = pebble.NoSync
	}
	return &Store{db: db, dir: dir, write: write, wal: wal}, nil
}

// tuneScratch sets up a store whose data is written once and read back
// once, in order, within one run: compacting it would rewrite every byte
// for nothing, so compactions are put off until L0 is very deep, and a Bloom
// filter keeps point lookups cheap across the many L0 tables that leaves.
func tuneScratch(o *pebble.Options) {
	o.L0CompactionThreshold = scratchL0Tables
	o.L0CompactionFileThreshold = scratchL0Tables
	o.L0StopWritesThreshold = 4 * scratchL0Tables
	o.MaxOpenFiles = scratchOpenTables
	o.Levels[0].FilterPolicy = bloom.FilterPolicy(10)
}

const (
	scratchL0Tables   = 64
	scratchOpenTables = 64
)

// Close flushes nothing pending in Writers (call Writer.Flush first) and
// releases the store.
func (s *Store) Close() (err error) {
	defer s.recoverFatal(&err)
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close store %s: %w", quote.Path(s.dir), err)
	}
	if err := s.wal.failed(); err != nil {
		return fmt.Errorf("close store %s: %w", quote.Path(s.dir), err)
	}
	return nil
}

// Get returns a copy of the value stored under key.
func (s *Store) Get(key []byte) (val []byte, ok bool, err error) {
	v, closer, err := s.db.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("get %q from store %s: %w", key, quote.Path(s.dir), err)
	}
	val = append([]byte{}, v...)
	if err := closer.Close(); err != nil {
		return nil, false, fmt.Errorf("get %q from store %s: %w", key, quote.Path(s.dir), err)
	}
	return val, true, nil
}

// Scan calls fn for every key starting with prefix, in byte order.
// key and val are valid only during fn; an error from fn stops the scan and
// is returned as is.
func (s *Store) Scan(prefix []byte, fn func(key, val []byte) error) error {
	return s.ScanRange(prefix, prefixEnd(prefix), fn)
}

// ScanRange calls fn for every key in [start, end), in byte order. A nil start
// means from the first key, a nil end means through the last key.
func (s *Store) ScanRange(start, end []byte, fn func(key, val []byte) error) error {
	// An empty, non-nil bound means "no bound" too; pebble's race-build
	// invariant checks index key[0] of a non-nil bound, so pass nil.
	if len(start) == 0 {
		start = nil
	}
	if len(end) == 0 {
		end = nil
	}
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: start, UpperBound: end})
	if err != nil {
		return fmt.Errorf("scan store %s: %w", quote.Path(s.dir), err)
	}
	fnErr, readErr := iterate(it, fn)
	readErr = errors.Join(readErr, it.Close())
	if fnErr != nil {
		return fnErr
	}
	if readErr != nil {
		return fmt.Errorf("scan store %s: %w", quote.Path(s.dir), readErr)
	}
	return nil
}

// iterate keeps fn's error (returned to the caller as is) apart from the
// store's own read errors (which get wrapped with the store's path).
func iterate(it *pebble.Iterator, fn func(key, val []byte) error) (fnErr, readErr error) {
	for valid := it.First(); valid; valid = it.Next() {
		val, err := it.ValueAndErr()
		if err != nil {
			return nil, err
		}
		if err := fn(it.Key(), val); err != nil {
			return err, nil
		}
	}
	return nil, it.Error()
}

// Empty reports whether no key starts with prefix.
func (s *Store) Empty(prefix []byte) (bool, error) {
	errFound := errors.New("found")
	err := s.Scan(prefix, func(_, _ []byte) error { return errFound })
	if errors.Is(err, errFound) {
		return false, nil
	}
	return err == nil, err
}

// DeletePrefix removes every key starting with prefix, as one range
// tombstone (constant time, whatever the number of keys).
func (s *Store) DeletePrefix(prefix []byte) error {
	end := prefixEnd(prefix)
	if end == nil {
		return s.deleteFrom(prefix)
	}
	b := s.db.NewBatch()
	defer b.Close()
	_ = b.DeleteRange(prefix, end, nil) // batch ops only fail on a closed batch
	return s.commit(b, fmt.Sprintf("delete prefix %q", prefix))
}

// deleteFrom handles prefixes with no upper bound ("" or all 0xff bytes):
// the range ends at the current last key, which is then deleted by itself.
func (s *Store) deleteFrom(start []byte) error {
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: start})
	if err != nil {
		return fmt.Errorf("delete prefix %q in store %s: %w", start, quote.Path(s.dir), err)
	}
	var last []byte
	if it.Last() {
		last = append([]byte{}, it.Key()...)
	}
	if err := it.Close(); err != nil {
		return fmt.Errorf("delete prefix %q in store %s: %w", start, quote.Path(s.dir), err)
	}
	if last == nil {
		return nil
	}
	b := s.db.NewBatch()
	defer b.Close()
	_ = b.DeleteRange(start, last, nil) // batch ops only fail on a closed batch
	_ = b.Delete(last, nil)
	return s.commit(b, fmt.Sprintf("delete prefix %q", start))
}

// commit is the one way a batch reaches the store: refused once a write
// has failed, and failed when its WAL did, though pebble never heard of
// it (walguard.go).
func (s *Store) commit(b *pebble.Batch, what string) (err error) {
	if err := s.usable(); err != nil {
		return err
	}
	defer s.recoverFatal(&err)
	if err := b.Commit(s.write); err != nil {
		return fmt.Errorf("%s in store %s: %w", what, quote.Path(s.dir), err)
	}
	return s.usable()
}

// prefixEnd returns the smallest key greater than every key with prefix, or
// nil when there is none (prefix empty or all 0xff).
func prefixEnd(prefix []byte) []byte {
	for i := len(prefix) - 1; i >= 0; i-- {
		if prefix[i] != 0xff {
			end := append([]byte{}, prefix[:i+1]...)
			end[i]++
			return end
		}
	}
	return nil
}

// quietLogger keeps pebble's routine chatter off the user's terminal.
// Fatalf panics rather than exiting: Open recovers it into an error, and
// anywhere else the crash names the store instead of vanishing with exit 1.
type quietLogger struct{ dir string }

func (quietLogger) Infof(string, ...any)  {}
func (quietLogger) Errorf(string, ...any) {}
func (l quietLogger) Fatalf(format string, args ...any) {
	fe := fatalError{dir: l.dir, msg: fmt.Sprintf(format, args...)}
	for _, a := range args {
		if err, ok := a.(error); ok && fe.cause == nil {
			fe.cause = err
		}
	}
	panic(fe)
}

// fatalError is what pebble would have exited the process with. Its cause
// (the first error pebble named) stays classifiable: a full disk under the
// store is errors.Is(err, syscall.ENOSPC), as anywhere else.
type fatalError struct {
	dir, msg string
	cause    error
}

func (e fatalError) Error() string {
	return fmt.Sprintf("store %s is unusable: %s", quote.Path(e.dir), e.msg)
}

func (e fatalError) Unwrap() error { return e.cause }

// unlockedFS opens a store read-only without taking its LOCK file, whose
// creation would write to the folder: a dry run leaves the library's
// state exactly as it found it. A run writing the store meanwhile can
// make a read fail, which the reader treats as a store it cannot use.
type unlockedFS struct{ vfs.FS }

func (unlockedFS) Lock(string) (io.Closer, error) { return nopCloser{}, nil }

type nopCloser struct{}

func (nopCloser) Close() error { return nil }
