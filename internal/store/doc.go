// Package store is shoebox's embedded, on-disk, sorted key/value store.
//
// The pipeline spills every per-file record (scan records keyed by size,
// planned records keyed by destination directory, operations) and the
// library's persistent content index into a store under DEST/.shoebox/, then
// streams them back in key order, so memory stays flat at millions of files.
//
// # Engine choice (measured 2026-12-02 on this 2-core VM)
//
// internal/measure (a nested module, so the losing engines never enter
// shoebox's go.mod) inserts N records — key ≈ 60 bytes shaped like
// "d/2019/2019-07-04/home/u/Pictures/d123/IMG_00001234.JPG", value = 100 bytes —
// in random key order, in batches of 10,000, then iterates all of them in key
// order. Each engine is linked into its own binary and run in its own
// process; "peak RSS" is VmHWM of that whole process (the harness alone,
// generating the same keys, peaks at 13 MB; an idle pebble v2 process at
// 20 MB, an idle sqlite one at 8 MB). GOMEMLIMIT-style soft limit 48 MiB.
//
//	engine (tuning)                                   N     insert   iterate  peak RSS  on disk
//	pebble v1.1.5 (4 MiB memtable, 8 MiB cache, no WAL) 1 M  3.9 s    0.2 s    45 MB     94 MB
//	pebble v1.1.5 (2 MiB memtable, 4 MiB cache, no WAL) 1 M  3.2 s    0.3 s    42 MB     94 MB
//	pebble v2.1.7 (4 MiB memtable, 8 MiB cache, no WAL) 1 M  3.8 s    0.3 s    42 MB     94 MB
//	pebble v2.1.7 (2 MiB memtable, 4 MiB cache, no WAL) 1 M  3.6 s    0.2 s    41 MB     94 MB
//	pebble v2.1.7 (same, GOGC=50)                       1 M  3.2 s    0.2 s    35 MB     94 MB
//	pebble v1.1.5 (2 MiB memtable, 4 MiB cache, no WAL) 3 M  32.9 s   1.2 s    46 MB    282 MB
//	pebble v2.1.7 (2 MiB memtable, 4 MiB cache, no WAL) 3 M  19.0 s   0.7 s    42 MB    282 MB
//	modernc sqlite v1.62.0 (WITHOUT ROWID, journal OFF,
//	  synchronous OFF, 8 MiB page cache)                1 M  10.9 s   0.7 s    34 MB    177 MB
//	modernc sqlite (same, 4 MiB page cache)             1 M  14.2 s   1.2 s    26 MB    177 MB
//	modernc sqlite (8 MiB page cache)                   3 M  31.7 s   1.8 s    32 MB    533 MB
//	bbolt v1.4.3 (NoSync, NoFreelistSync)               1 M  22.0 s   0.1 s   410 MB    297 MB
//
// (The shared VM is noisy: the same pebble run varied 2.9–3.9 s.)
//
// bbolt is out: random inserts copy-on-write whole B-tree paths, and its mmap'd
// pages count in RSS (410 MB). sqlite is the leanest (about 6 MB less than
// pebble under load) but 3× slower at random inserts, and its file is twice
// the size. Pebble v2 is the fastest, its memory is flat from 1 M to 3 M
// records, and its DeleteRange makes DeletePrefix O(1). Decision:
// github.com/cockroachdb/pebble/v2, tuned to a 2 MiB memtable (at most two
// in memory), a small block cache (Options.CacheBytes, default 4 MiB),
// compaction concurrency 1, 64 open sstables, and for Options.Scratch no WAL
// and no fsync. Pebble's logger is silenced, and its Fatalf — which would
// os.Exit the whole process — is turned into a panic that Open recovers into
// an error, so a corrupt store dir yields an error, not an exit.
// Pebble also panics on a failing write-ahead log, in places where it has
// released its own mutex, which ends the process past any recover: a full
// disk or a drive gone during a WAL rotation did that. walGuardFS keeps
// WAL errors from pebble and fails the commit itself (walguard.go).
//
// Scratch stores (per-run spill data, written once and read back once)
// put compactions off until L0 holds 64 tables and add a Bloom filter for
// the few point lookups. Measured through the whole pipeline at 1 M files
// (bench --scan-only): default compaction spent ~40% of the CPU rewriting
// data about to be deleted; never compacting (1,000 tables) made the open
// tables cost 75 MB peak and slowed reads; 64 tables gave plan 188k files/s
// at 47 MB peak.
//
// A Scratch store never outlives one use: Open removes whatever its folder
// holds, so a store torn by a kill (pebble killed during its first open, or
// the folder killed halfway through its removal, leaves a MANIFEST missing)
// never stops the next run. A Disposable store (the library's hash index, a
// cache) is kept across runs but, when it cannot be opened, removed and
// created empty; Store.Discarded says why, for a warning. Neither is
// removed while another Open holds pebble's lock on it.
//
// Lock is independent of the engine: an flock(2) on dir/lock whose file holds
// the holder's pid, so that a second shoebox run on the same library fails
// with ErrLocked naming that pid.
package store
