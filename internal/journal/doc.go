// Package journal is shoebox's append-only, crash-safe log of every file
// operation of a run, read back for resume and undo.
//
// # File format, version 2
//
// A journal is one file, DIR/<RunID>.journal, created with O_EXCL:
//
//	magic    15 bytes  "SHOEBOX-JOURNAL"
//	version   2 bytes  big-endian format version (2; 1 is still read)
//	frame              the header record (type 'H')
//	frame ...          entry records (type 'E'), then at most one
//	                   outcome record (type 'O', version 2, written by
//	                   Writer.CloseWith), then at most one closed
//	                   marker (type 'C') written by Writer.Close
//
// Every record travels in a frame:
//
//	length    4 bytes  little-endian payload length, 1 byte to 1 MiB
//	^length   4 bytes  its bitwise complement, so a damaged length is
//	                   caught before it is trusted
//	crc       4 bytes  little-endian CRC-32C (Castagnoli) of the payload
//	payload   length bytes, its first byte the record type
//
// Integers inside payloads are varints (encoding/binary: Uvarint for
// unsigned, Varint for signed); strings are a Uvarint byte count followed by
// the bytes.
//
//	'H' header:  RunID string, Started unix-nanoseconds varint, Dest string,
//	             arg count uvarint, then each arg string
//	'E' entry:   Seq uvarint, State byte, Action byte, Src, Dst, Tmp strings,
//	             Size varint, ModTime varint, Dev uvarint, Ino uvarint,
//	             Err string
//	'O' outcome: End byte (1 complete, 2 interrupted, 3 stopped), count
//	             uvarint, then that many uvarints: planned, transferred,
//	             failed, not attempted, duplicates removed, backup copies
//	'C' closed:  nothing more
//
// A payload with bytes left over after its fields is malformed: new fields
// mean a new format version. The outcome's counts are the one exception:
// a later shoebox may append counts, and a reader takes those it knows.
//
// Version 2 added the outcome: a run stopped by Ctrl-C closes its journal
// as cleanly as a finished one, and only the outcome tells them apart (and
// gives the file counts of the summary the run printed). A version-1
// journal reads as one with no outcome.
//
// Seq numbers operations within one journal, one per file or folder
// (journals written before that rule may give a photo and its sidecar one
// Seq; readers pair records by Seq, Action and Dst). A folder is journaled
// Mkdir Intent before it is created and Done after; older journals hold
// only the Done.
//
// # Reading after a crash
//
// A crash mid-append can leave the final frame short, or (on filesystems that
// extend a file before its data reaches the disk) followed by zero bytes. So
// damage confined to the tail — a frame cut off by end of file, or a frame
// with a bad length or checksum that only zero bytes follow — ends the read
// cleanly
// with Summary.Torn set. Any other damage is corruption and Read reports
// what and where ("record 812 at byte 40960: checksum mismatch"), counting
// records from 1 after the header. A record length over the 1 MiB cap is
// always corruption, which bounds what a hostile file can make Read allocate.
// A file with no complete header (a crash inside Create) is ErrNoHeader.
//
// # Durability
//
// Append only buffers. Sync writes the buffer and fdatasyncs, so callers
// choose the batching (e.g. every few hundred operations, and before any
// destructive step such as removing a source). Create fsyncs the new file and
// its directory so that the journal itself survives a crash.
package journal
