package pipeline

import (
	"sync"

	"github.com/shoebox-photos/shoebox/internal/digest"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/store"
)

// hashIndex is the library's persistent content index (DEST/.shoebox/index):
// BLAKE3 sums by path, valid while a file's size and mtime are unchanged.
// New sums are batched into few durable commits rather than one synced
// commit per file: it is a cache, so a crash loses at most the last batch,
// and those files are simply hashed again next time.
type hashIndex struct {
	st *store.Store
	mu sync.Mutex // guards w: dedup hashes on several workers
	w  *store.Writer
}

func newHashIndex(st *store.Store) *hashIndex {
	return &hashIndex{st: st, w: st.Writer(writeBatch)}
}

// sum returns path's hash from the index while its size and mtime match,
// else hashes the file and records it; fresh says whether it was read.
// With trust false (--checksum) the file is hashed whatever the index says.
func (h *hashIndex) sum(fsys fsx.FS, path string, size, mod int64, trust bool) (sum digest.Sum, fresh bool, err error) {
	key := append([]byte("h/"), path...)
	if v, ok, err := h.st.Get(key); trust && err == nil && ok {
		d := newDec(v)
		sz, md, raw := d.i(), d.i(), d.s()
		if d.Err() == nil && sz == size && md == mod && len(raw) == len(sum) {
			copy(sum[:], raw)
			return sum, false, nil
		}
	}
	if sum, _, err = digest.File(fsys, path); err != nil {
		return sum, true, err
	}
	var e enc
	e.i(size)
	e.i(mod)
	e.s(string(sum[:]))
	h.mu.Lock()
	defer h.mu.Unlock()
	return sum, true, h.w.Put(key, e.bytes())
}

// flush commits the sums recorded since the last flush.
func (h *hashIndex) flush() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.w.Flush()
}
