//go:build sqlite

package main

import (
	"database/sql"
	"fmt"
	"path/filepath"

	_ "modernc.org/sqlite"
)

func init() { engines["sqlite"] = openSQLite }

type sq struct{ db *sql.DB }

func openSQLite(dir string) (engine, error) {
	db, err := sql.Open("sqlite", filepath.Join(dir, "db")+fmt.Sprintf("?_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)&_pragma=cache_size(-%d)", cacheBytes>>10))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	_, err = db.Exec(`CREATE TABLE kv (k BLOB PRIMARY KEY, v BLOB) WITHOUT ROWID`)
	return &sq{db}, err
}
func (s *sq) putBatch(keys, vals [][]byte) error {
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	st, err := tx.Prepare(`INSERT OR REPLACE INTO kv(k,v) VALUES(?,?)`)
	if err != nil {
		return err
	}
	for i := range keys {
		if _, err := st.Exec(keys[i], vals[i]); err != nil {
			tx.Rollback()
			return err
		}
	}
	st.Close()
	return tx.Commit()
}
func (s *sq) iterate(fn func(k, v []byte)) error {
	rows, err := s.db.Query(`SELECT k, v FROM kv ORDER BY k`)
	if err != nil {
		return err
	}
	defer rows.Close()
	var k, v sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&k, &v); err != nil {
			return err
		}
		fn(k, v)
	}
	return rows.Err()
}
func (s *sq) close() error { return s.db.Close() }
