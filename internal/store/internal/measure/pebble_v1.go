//go:build pebble

package main

import (
	pebble1 "github.com/cockroachdb/pebble"
)

func init() { engines["pebble"] = openPebble1 }

type p1 struct{ db *pebble1.DB }

func openPebble1(dir string) (engine, error) {
	c := pebble1.NewCache(cacheBytes)
	defer c.Unref()
	db, err := pebble1.Open(dir, &pebble1.Options{
		Cache:                       c,
		MemTableSize:                uint64(memtable),
		MemTableStopWritesThreshold: 2,
		DisableWAL:                  true,
		MaxOpenFiles:                64,
	})
	return &p1{db}, err
}
func (p *p1) putBatch(keys, vals [][]byte) error {
	b := p.db.NewBatch()
	for i := range keys {
		b.Set(keys[i], vals[i], nil)
	}
	return b.Commit(pebble1.NoSync)
}
func (p *p1) iterate(fn func(k, v []byte)) error {
	it, err := p.db.NewIter(nil)
	if err != nil {
		return err
	}
	for it.First(); it.Valid(); it.Next() {
		fn(it.Key(), it.Value())
	}
	return it.Close()
}
func (p *p1) close() error { return p.db.Close() }
