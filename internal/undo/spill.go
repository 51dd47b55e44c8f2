package undo

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/record"
	"github.com/shoebox-photos/shoebox/internal/store"
)

// A run of a million files has two million journal entries; undo must
// reverse them last first without holding them. They are spilled to a
// scratch store under keys that sort newest first, then streamed back.

// spill is the reversible entries of one run, newest first, on disk.
type spill struct {
	st  *store.Store
	dir string
	n   uint64
}

// spillReversible writes every reversible Done entry of run (and of its
// recoveries, then extra) to a scratch store in dir, which it empties first.
func spillReversible(h *history, run journal.Summary, extra []journal.Entry, dest, dir string) (*spill, error) {
	// A scratch store starts empty: what a killed undo left there (the
	// reversal of another run, maybe) is never merged into this one.
	st, err := store.Open(dir, store.Options{Scratch: true})
	if err != nil {
		return nil, err
	}
	sp := &spill{st: st, dir: dir}
	w := st.Writer(4096)
	put := func(e journal.Entry) error {
		if e.State != journal.Done || !reversibleAction(e.Action) {
			return nil
		}
		sp.n++
		return w.Put(spillKey(e, sp.n, !inside(dest, e.Dst)), encodeEntry(e))
	}
	for _, p := range h.JournalsOf(run) {
		if _, err := journal.Read(p, put); err != nil {
			return nil, sp.discard(err)
		}
	}
	for _, e := range extra {
		if err := put(e); err != nil {
			return nil, sp.discard(err)
		}
	}
	if err := w.Flush(); err != nil {
		return nil, sp.discard(err)
	}
	return sp, nil
}

// spillKey orders the reversal: every library file newest first, then
// every file outside the library (backup copies) newest first, then every
// folder, deepest first, so that a folder is only tried once all that the
// run put in it is gone, whatever order the journals recorded them in (a
// recovery records what a killed run had done after the fact). Library
// files come before their backup copies so that a library copy left in
// place (changed since) keeps its backup copy too (undoer.backupOfKept).
func spillKey(e journal.Entry, n uint64, outside bool) []byte {
	k := []byte{0}
	switch {
	case e.Action == journal.Mkdir:
		depth := strings.Count(filepath.Clean(e.Dst), string(filepath.Separator))
		k = store.AppendUint64([]byte{2}, math.MaxUint64-uint64(depth))
	case outside:
		k = []byte{1}
	}
	return store.AppendUint64(k, math.MaxUint64-n)
}

// each calls fn for every entry in reversal order (see spillKey).
func (sp *spill) each(fn func(journal.Entry) error) error {
	return sp.st.Scan(nil, func(_, v []byte) error {
		e, err := decodeEntry(v)
		if err != nil {
			return fmt.Errorf("undo scratch store: %w", err)
		}
		return fn(e)
	})
}

// discard closes and removes the scratch store, returning cause.
func (sp *spill) discard(cause error) error {
	err := sp.st.Close()
	if rmErr := store.Remove(sp.dir); err == nil {
		err = rmErr
	}
	if cause != nil {
		return cause
	}
	return err
}

// spillDir is where an undo of dest spills; a dry run must not write into
// the library, so it spills to a temp folder.
func spillDir(dest string, dry bool) (string, error) {
	if dry {
		return os.MkdirTemp("", "shoebox-undo-")
	}
	return filepath.Join(dest, ".shoebox", "undo-scratch"), nil
}

func encodeEntry(e journal.Entry) []byte {
	b := binary.AppendUvarint(nil, e.Seq)
	b = append(b, byte(e.State), byte(e.Action))
	for _, s := range []string{e.Src, e.Dst, e.Tmp, e.Err} {
		b = record.AppendString(b, s)
	}
	b = binary.AppendVarint(b, e.Size)
	b = binary.AppendVarint(b, e.ModTime)
	b = binary.AppendUvarint(b, e.Dev)
	return binary.AppendUvarint(b, e.Ino)
}

func decodeEntry(v []byte) (journal.Entry, error) {
	d := record.NewDecoder(v)
	e := journal.Entry{Seq: d.Uvarint(), State: journal.State(d.Byte()), Action: journal.Action(d.Byte())}
	e.Src, e.Dst, e.Tmp, e.Err = d.Str(), d.Str(), d.Str(), d.Str()
	e.Size, e.ModTime = d.Varint(), d.Varint()
	e.Dev, e.Ino = d.Uvarint(), d.Uvarint()
	return e, d.Finish()
}
