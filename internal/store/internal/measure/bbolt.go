//go:build bbolt

package main

import (
	"path/filepath"

	bolt "go.etcd.io/bbolt"
)

func init() { engines["bbolt"] = openBolt }

type bb struct{ db *bolt.DB }

var bucket = []byte("b")

func openBolt(dir string) (engine, error) {
	db, err := bolt.Open(filepath.Join(dir, "db"), 0o644, &bolt.Options{NoSync: true, NoFreelistSync: true})
	if err != nil {
		return nil, err
	}
	err = db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucketIfNotExists(bucket); return err })
	return &bb{db}, err
}
func (b *bb) putBatch(keys, vals [][]byte) error {
	return b.db.Update(func(tx *bolt.Tx) error {
		bk := tx.Bucket(bucket)
		for i := range keys {
			if err := bk.Put(keys[i], vals[i]); err != nil {
				return err
			}
		}
		return nil
	})
}
func (b *bb) iterate(fn func(k, v []byte)) error {
	return b.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucket).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			fn(k, v)
		}
		return nil
	})
}
func (b *bb) close() error { return b.db.Close() }
