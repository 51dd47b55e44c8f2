//go:build pebble2

package main

import (
	pebble2 "github.com/cockroachdb/pebble/v2"
)

func init() { engines["pebble2"] = openPebble2 }

type p2 struct{ db *pebble2.DB }

func openPebble2(dir string) (engine, error) {
	c := pebble2.NewCache(cacheBytes)
	defer c.Unref()
	db, err := pebble2.Open(dir, &pebble2.Options{
		Cache:                       c,
		MemTableSize:                uint64(memtable),
		MemTableStopWritesThreshold: 2,
		DisableWAL:                  true,
		MaxOpenFiles:                64,
	})
	return &p2{db}, err
}
func (p *p2) putBatch(keys, vals [][]byte) error {
	b := p.db.NewBatch()
	for i := range keys {
		b.Set(keys[i], vals[i], nil)
	}
	return b.Commit(pebble2.NoSync)
}
func (p *p2) iterate(fn func(k, v []byte)) error {
	it, err := p.db.NewIter(nil)
	if err != nil {
		return err
	}
	for it.First(); it.Valid(); it.Next() {
		fn(it.Key(), it.Value())
	}
	return it.Close()
}
func (p *p2) close() error { return p.db.Close() }
