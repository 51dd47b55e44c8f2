package bench

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
)

// IO is what the kernel counted for this process (all its threads):
// ReadBytes is what it made the storage layer fetch (cache misses, so 0
// on a warm cache), RChar every byte handed to read(2) and pread(2),
// from the cache or not. OK is false where the OS keeps no such counter.
type IO struct {
	ReadBytes, RChar, WriteBytes int64
	OK                           bool
}

// Sub is the difference between two readings.
func (a IO) Sub(b IO) IO {
	return IO{ReadBytes: a.ReadBytes - b.ReadBytes, RChar: a.RChar - b.RChar,
		WriteBytes: a.WriteBytes - b.WriteBytes, OK: a.OK && b.OK}
}

// Add sums two readings.
func (a IO) Add(b IO) IO {
	return IO{ReadBytes: a.ReadBytes + b.ReadBytes, RChar: a.RChar + b.RChar,
		WriteBytes: a.WriteBytes + b.WriteBytes, OK: a.OK && b.OK}
}

// readIO reads /proc/self/io (Linux; elsewhere OK stays false).
func readIO() IO {
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return IO{}
	}
	var io IO
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		key, val, ok := bytes.Cut(sc.Bytes(), []byte(": "))
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(string(bytes.TrimSpace(val)), 10, 64)
		if err != nil {
			continue
		}
		switch string(key) {
		case "read_bytes":
			io.ReadBytes, io.OK = n, true
		case "rchar":
			io.RChar = n
		case "write_bytes":
			io.WriteBytes = n
		}
	}
	return io
}
