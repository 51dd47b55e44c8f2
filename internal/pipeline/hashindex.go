package pipeline

import (
	"sync"

	"github.com/shoebox-photos/shoebox/internal/digest"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/scan"
	"github.com/shoebox-photos/shoebox/internal/store"
)

// hashIndex is the library's persistent content index (DEST/.shoebox/index):
// BLAKE3 sums by path, valid while the file's stamp is unchanged.
// New sums are batched into few durable commits rather than one synced
// commit per file: it is a cache, so a crash loses at most the last batch,
// and those files are simply hashed again next time.
type hashIndex struct {
	st *store.Store
	mu sync.Mutex // guards w: dedup hashes on several workers
	w  *store.Writer
	// byPlace: the library's filesystem numbers inodes afresh (sshfs,
	// FAT, SMB), so a stamp's device and inode prove nothing there; the
	// path, size, mtime and change time must still hold, as for the
	// import history's library copies (importlog.Entry.CheckByPlace).
	byPlace bool
}

// newHashIndex opens the hash cache of the library at dest.
func newHashIndex(st *store.Store, dest string) *hashIndex {
	return &hashIndex{st: st, w: st.Writer(writeBatch), byPlace: renumbersInodes(dest)}
}

// stamp is what a cached hash is valid for. Size and mtime alone (rsync's
// quick check) miss a file rewritten with both restored (`touch -r`, an
// editor that keeps the mtime): a source holding its old bytes would then
// be "already in the library" that no longer holds them. Such a rewrite
// moves the change time, and a file replaced by another has a new inode;
// the import history trusts a library copy by the same rule. Where the
// platform has no change time it is zero on both sides.
type stamp struct {
	size, mod, ctime int64
	dev, ino         uint64
}

func stampOf(f scan.File) stamp {
	return stamp{size: f.Size, mod: timeNanos(f.ModTime), ctime: ctimeNanos(f.CTime), dev: f.Dev, ino: f.Ino}
}

func (s stamp) encode(sum digest.Sum) []byte {
	var e enc
	e.i(s.size)
	e.i(s.mod)
	e.s(string(sum[:]))
	e.i(s.ctime)
	e.u(s.dev)
	e.u(s.ino)
	return e.bytes()
}

// lookup is the sum recorded for path while its stamp is s (an entry
// written before stamps held the change time and identity is not).
func (h *hashIndex) lookup(path string, s stamp) (sum digest.Sum, ok bool) {
	v, found, err := h.st.Get(append([]byte("h/"), path...))
	if err != nil || !found {
		return sum, false
	}
	d := newDec(v)
	got := stamp{size: d.i(), mod: d.i()}
	raw := d.s()
	got.ctime, got.dev, got.ino = d.i(), d.u(), d.u()
	if h.byPlace {
		got.dev, got.ino = s.dev, s.ino
	}
	if d.Err() != nil || got != s || len(raw) != len(sum) {
		return sum, false
	}
	copy(sum[:], raw)
	return sum, true
}

// sum returns f's hash from the index while f's stamp matches, else
// hashes the file and records it under that stamp (taken before the read:
// a file changed while read has another stamp by the next run); fresh
// says whether it was read. With trust false (--checksum) the file is
// hashed whatever the index says.
func (h *hashIndex) sum(fsys fsx.FS, f scan.File, trust bool) (sum digest.Sum, fresh bool, err error) {
	s := stampOf(f)
	if trust {
		if sum, ok := h.lookup(f.Path, s); ok {
			return sum, false, nil
		}
	}
	if sum, _, err = digest.File(fsys, f.Path); err != nil {
		return sum, true, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return sum, true, h.w.Put(append([]byte("h/"), f.Path...), s.encode(sum))
}

// flush commits the sums recorded since the last flush.
func (h *hashIndex) flush() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.w.Flush()
}
