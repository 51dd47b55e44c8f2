package journal

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

func testHeader(id string) Header {
	return Header{
		RunID:   id,
		Started: time.Date(2026, 12, 2, 13, 15, 0, 123456789, time.UTC),
		Dest:    "/lib",
		Args:    []string{"shoebox", "sort", "--move", "/mnt/card", "/lib", ""},
	}
}

func testEntries(n int) []Entry {
	var out []Entry
	for i := range n {
		out = append(out, testEntry(i))
	}
	return out
}

// testEntry is the i-th of a deterministic series covering every Action and
// State, non-ASCII paths, negative and extreme numbers.
func testEntry(i int) Entry {
	actions := []Action{Copy, Move, Hardlink, Symlink, Reflink, RemoveSource, Mkdir}
	states := []State{Intent, Done, Failed, Undone}
	e := Entry{
		Seq:     uint64(i/2 + 1),
		State:   states[i%len(states)],
		Action:  actions[i%len(actions)],
		Src:     fmt.Sprintf("/mnt/card/DCIM/ÿ %03d/IMG_%04d.JPG", i, i),
		Dst:     fmt.Sprintf("/lib/2019/2019-07-04/IMG_%04d.JPG", i),
		Size:    int64(i) * 1_000_003,
		ModTime: -int64(i) * 1e9,
		Dev:     uint64(i) << 40,
		Ino:     1<<64 - 1 - uint64(i),
	}
	if e.State == Failed {
		e.Err = "copy: no space left on device"
	}
	if i%3 == 0 {
		e.Tmp = e.Dst + ".shoebox-tmp"
	}
	return e
}

// writeJournal writes entries, syncing after each, and returns the path and
// the file size after the header and after each record (the boundaries).
func writeJournal(t testing.TB, dir string, entries []Entry, closeIt bool) (string, []int64) {
	t.Helper()
	w, err := Create(dir, testHeader("20261202T131500Z-abcd"))
	if err != nil {
		t.Fatal(err)
	}
	size := func() int64 {
		fi, err := os.Stat(w.Path())
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	bounds := []int64{size()}
	for _, e := range entries {
		if err := w.Append(e); err != nil {
			t.Fatal(err)
		}
		if err := w.Sync(); err != nil {
			t.Fatal(err)
		}
		bounds = append(bounds, size())
	}
	if closeIt {
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		bounds = append(bounds, size())
	} else {
		// A crashed run's handle is closed by the OS, with no closed
		// marker; the test's own must be too, or Windows refuses to
		// delete the journal in TempDir's cleanup.
		t.Cleanup(func() { w.f.Close() })
	}
	return w.Path(), bounds
}

func readAll(t *testing.T, path string) ([]Entry, Summary, error) {
	t.Helper()
	var got []Entry
	sum, err := Read(path, func(e Entry) error { got = append(got, e); return nil })
	return got, sum, err
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	want := testEntries(20)
	path, _ := writeJournal(t, dir, want, true)
	if path != filepath.Join(dir, "20261202T131500Z-abcd.journal") {
		t.Errorf("Path() = %q", path)
	}
	got, sum, err := readAll(t, path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("entries differ:\n got %+v\nwant %+v", got, want)
	}
	h := testHeader("20261202T131500Z-abcd")
	h.Version = FormatVersion
	if !reflect.DeepEqual(sum.Header, h) || !sum.Header.Started.Equal(h.Started) {
		t.Errorf("header = %+v, want %+v", sum.Header, h)
	}
	wantSum := Summary{Header: sum.Header, Path: path, Closed: true, Entries: 20, Done: 5, Failed: 5, Undone: 5,
		Files: Files{Transferred: 3, Failed: 4, Reverted: 4}} // per file: no RemoveSource, no Mkdir
	if !reflect.DeepEqual(sum, wantSum) {
		t.Errorf("summary = %+v, want %+v", sum, wantSum)
	}
}

func TestCreateRefusesExisting(t *testing.T) {
	dir := t.TempDir()
	writeJournal(t, dir, nil, true)
	if _, err := Create(dir, testHeader("20261202T131500Z-abcd")); !errors.Is(err, os.ErrExist) {
		t.Fatalf("second Create with the same run id: %v, want ErrExist", err)
	}
}

func TestCreateRejectsPathlikeRunID(t *testing.T) {
	for _, id := range []string{"", "..", "a/b", "../x"} {
		if _, err := Create(t.TempDir(), testHeader(id)); err == nil {
			t.Errorf("Create accepted run id %q", id)
		}
	}
}

func TestUseAfterClose(t *testing.T) {
	w, err := Create(t.TempDir(), testHeader("r1"))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Append(testEntries(1)[0]); !errors.Is(err, ErrClosed) {
		t.Errorf("Append after Close: %v", err)
	}
	if err := w.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("second Close: %v", err)
	}
}

// A journal left unfinished keeps its entries and no closed marker, and
// its file is released: removable at once, as Windows allows only for a
// file with no open handle.
func TestCloseUnfinishedReleasesTheFileWithoutTheMarker(t *testing.T) {
	w, err := Create(t.TempDir(), testHeader("r1"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range testEntries(3) {
		if err := w.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.CloseUnfinished(); err != nil {
		t.Fatal(err)
	}
	if err := w.Append(testEntries(1)[0]); !errors.Is(err, ErrClosed) {
		t.Errorf("Append after CloseUnfinished: %v", err)
	}
	entries, sum, err := readAll(t, w.Path())
	if err != nil || len(entries) != 3 || sum.Closed {
		t.Errorf("read back: %d entries, closed %v, %v; want 3 entries, not closed", len(entries), sum.Closed, err)
	}
	if err := os.Remove(w.Path()); err != nil {
		t.Errorf("the file is still held: %v", err)
	}
}

func TestAppendRejectsInvalidEntry(t *testing.T) {
	w, err := Create(t.TempDir(), testHeader("r1"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Append(Entry{Seq: 1}); err == nil {
		t.Error("Append accepted an entry with no State or Action")
	}
	if err := w.Append(Entry{Seq: 1, State: Done, Action: Copy, Src: strings.Repeat("x", maxRecord)}); err == nil {
		t.Error("Append accepted an entry over the record limit")
	}
}

func TestConcurrentAppend(t *testing.T) {
	const workers, each = 8, 500
	w, err := Create(t.TempDir(), testHeader("r1"))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range workers {
		wg.Go(func() {
			for i := range each {
				e := Entry{Seq: w.NextSeq(), State: Done, Action: Copy, Src: fmt.Sprintf("%d/%d", g, i)}
				if err := w.Append(e); err != nil {
					t.Error(err)
					return
				}
				if i%100 == 0 {
					if err := w.Sync(); err != nil {
						t.Error(err)
					}
				}
			}
		})
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	seen := map[uint64]bool{}
	next := make([]int, workers) // each worker's entries must keep their order
	sum, err := Read(w.Path(), func(e Entry) error {
		if seen[e.Seq] {
			return fmt.Errorf("seq %d twice", e.Seq)
		}
		seen[e.Seq] = true
		var g, i int
		if _, err := fmt.Sscanf(e.Src, "%d/%d", &g, &i); err != nil || i != next[g] {
			return fmt.Errorf("entry %q out of order (want %d/%d)", e.Src, g, next[g])
		}
		next[g]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Entries != workers*each || len(seen) != workers*each || !sum.Closed {
		t.Fatalf("summary %+v, %d distinct seqs", sum, len(seen))
	}
	for s := uint64(1); s <= workers*each; s++ {
		if !seen[s] {
			t.Fatalf("seq %d missing", s)
		}
	}
}

func writePrefix(t *testing.T, data []byte, n int, extra []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), fmt.Sprintf("cut-%d.journal", n))
	if err := os.WriteFile(path, append(append([]byte{}, data[:n]...), extra...), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestTornTailAtEveryOffset(t *testing.T) {
	entries := testEntries(6)
	path, bounds := writeJournal(t, t.TempDir(), entries, true)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	headerEnd := bounds[0]
	step := 1
	if fsxtest.UnderWine() {
		// The decoder is the same Go on every system and meets every
		// offset on Linux; under Wine each cut's file costs tens of
		// milliseconds (five minutes for all), so every 7th offset.
		t.Log("under Wine: every 7th cut, every one on Linux")
		step = 7
	}
	for cut := 0; cut <= len(data); cut += step {
		for _, tail := range [][]byte{nil, make([]byte, 3000)} { // plain cut, and cut then zero-extended
			got, sum, err := readAll(t, writePrefix(t, data, cut, tail))
			cut := cut
			if len(tail) > 0 { // zeros the journal had here anyway do not damage it
				for cut < len(data) && data[cut] == 0 {
					cut++
				}
			}
			if int64(cut) < headerEnd {
				// Zeros inside the magic make it some other file.
				foreign := len(tail) > 0 && cut < len(magic) && errors.Is(err, ErrNotJournal)
				if !errors.Is(err, ErrNoHeader) && !foreign {
					t.Fatalf("cut at %d (inside the header), tail %d: %v, want ErrNoHeader", cut, len(tail), err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("cut at %d, tail %d: %v", cut, len(tail), err)
			}
			complete := 0
			for _, b := range bounds[1 : len(bounds)-1] {
				if b <= int64(cut) {
					complete++
				}
			}
			atBoundary := false
			for _, b := range bounds {
				atBoundary = atBoundary || b == int64(cut)
			}
			if !reflect.DeepEqual(got, entries[:complete]) && !(complete == 0 && got == nil) {
				t.Fatalf("cut at %d: %d entries, want the %d complete ones", cut, len(got), complete)
			}
			wantTorn := !atBoundary || len(tail) > 0
			if sum.Torn != wantTorn || sum.Closed != (cut == len(data)) {
				t.Fatalf("cut at %d, tail %d: Torn %v Closed %v", cut, len(tail), sum.Torn, sum.Closed)
			}
		}
	}
}

func TestFlippedBitsAreReportedWithOffset(t *testing.T) {
	entries := testEntries(5)
	path, bounds := writeJournal(t, t.TempDir(), entries, true)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recordAt := func(off int64) (int, int64) { // record number and start holding byte off
		for i := 1; i < len(bounds); i++ {
			if off < bounds[i] {
				return i, bounds[i-1]
			}
		}
		t.Fatalf("offset %d past the end", off)
		return 0, 0
	}
	// Every byte of every record but the last (damage there is a torn tail).
	for off := bounds[0]; off < bounds[len(bounds)-2]; off++ {
		bad := bytes.Clone(data)
		bad[off] ^= 0x10
		p := filepath.Join(t.TempDir(), "bad.journal")
		os.WriteFile(p, bad, 0o644)
		_, _, err := readAll(t, p)
		n, start := recordAt(off)
		want := fmt.Sprintf("record %d at byte %d: ", n, start)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), p) {
			t.Fatalf("flip at byte %d: %v, want an error naming the file and %q", off, err, want)
		}
		if !errors.Is(err, ErrChecksum) && !errors.Is(err, ErrCorrupt) {
			t.Fatalf("flip at byte %d: %v is neither ErrChecksum nor ErrCorrupt", off, err)
		}
	}
	// And every byte of the header.
	for off := int64(0); off < bounds[0]; off++ {
		bad := bytes.Clone(data)
		bad[off] ^= 0x10
		p := filepath.Join(t.TempDir(), "bad.journal")
		os.WriteFile(p, bad, 0o644)
		if _, _, err := readAll(t, p); err == nil {
			t.Fatalf("flip at header byte %d read without error", off)
		}
	}
}

func TestChecksumMessage(t *testing.T) {
	path, bounds := writeJournal(t, t.TempDir(), testEntries(3), true)
	data, _ := os.ReadFile(path)
	data[bounds[1]+frameHeader+2] ^= 1 // payload of record 2
	os.WriteFile(path, data, 0o644)
	_, err := Read(path, nil)
	want := fmt.Sprintf("journal %s: record 2 at byte %d: checksum mismatch", quote.Path(path), bounds[1])
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

func TestVersionMismatch(t *testing.T) {
	path, _ := writeJournal(t, t.TempDir(), testEntries(2), true)
	data, _ := os.ReadFile(path)
	data[len(magic)], data[len(magic)+1] = 0, 7
	os.WriteFile(path, data, 0o644)
	_, err := Read(path, nil)
	if !errors.Is(err, ErrVersion) || !strings.Contains(err.Error(), "version 7") || !strings.Contains(err.Error(), path) {
		t.Fatalf("got %v, want ErrVersion naming version 7 and the path", err)
	}
}

func TestEmptyAndForeignFiles(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]struct {
		data []byte
		want error
	}{
		"empty":      {nil, ErrNoHeader},
		"half magic": {[]byte("SHOEBOX-JOU"), ErrNoHeader},
		"text":       {[]byte("hello, this is not a journal at all"), ErrNotJournal},
		"short text": {[]byte("hi"), ErrNotJournal},
		"jpeg":       {[]byte{0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1, 0}, ErrNotJournal},
	}
	for name, c := range cases {
		p := filepath.Join(dir, name)
		os.WriteFile(p, c.data, 0o644)
		if _, err := Read(p, nil); !errors.Is(err, c.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %v, want %v naming the path", name, err, c.want)
		}
	}
	if _, err := Read(filepath.Join(dir, "missing"), nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestRecordLengthIsCapped(t *testing.T) {
	path, _ := writeJournal(t, t.TempDir(), nil, false)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	huge := uint32(1 << 30)
	hdr := []byte{byte(huge), byte(huge >> 8), byte(huge >> 16), byte(huge >> 24)}
	inv := ^huge
	hdr = append(hdr, byte(inv), byte(inv>>8), byte(inv>>16), byte(inv>>24), 0, 0, 0, 0)
	f.Write(append(hdr, "some bytes"...))
	f.Close()
	_, err := Read(path, nil)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "exceeds") {
		t.Fatalf("got %v, want a length-limit error", err)
	}
}

func TestRecordAfterClosedMarker(t *testing.T) {
	path, _ := writeJournal(t, t.TempDir(), testEntries(1), true)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.Write(appendFrame(nil, appendEntry(nil, testEntries(1)[0])))
	f.Close()
	if _, err := Read(path, nil); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("got %v, want ErrCorrupt for a record after the closed marker", err)
	}
}

func TestReadStopsOnCallbackError(t *testing.T) {
	path, _ := writeJournal(t, t.TempDir(), testEntries(5), true)
	stop := errors.New("enough")
	calls := 0
	_, err := Read(path, func(Entry) error { calls++; return stop })
	if err != stop || calls != 1 {
		t.Fatalf("Read returned %v after %d calls", err, calls)
	}
}

func TestUnclosedJournal(t *testing.T) {
	path, _ := writeJournal(t, t.TempDir(), testEntries(3), false)
	_, sum, err := readAll(t, path)
	if err != nil || sum.Closed || sum.Torn || sum.Entries != 3 {
		t.Fatalf("summary %+v, err %v", sum, err)
	}
}

func TestList(t *testing.T) {
	dir := t.TempDir()
	times := []time.Time{
		time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		time.Date(2025, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(2026, 1, 2, 3, 4, 6, 0, time.UTC),
	}
	for _, ts := range times {
		h := testHeader(NewRunID(ts))
		h.Started = ts
		w, err := Create(dir, h)
		if err != nil {
			t.Fatal(err)
		}
		w.Append(testEntries(2)[1])
		w.Close()
	}
	os.WriteFile(filepath.Join(dir, "20270101T000000Z-dead.journal"), []byte("garbage"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("ignored"), 0o644)
	sums, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(sums) != 4 {
		t.Fatalf("List found %d journals, want 4", len(sums))
	}
	wantOrder := []time.Time{times[1], times[0], times[2]}
	for i, want := range wantOrder {
		if sums[i].Err != nil || !sums[i].Header.Started.Equal(want) || sums[i].Done != 1 || !sums[i].Closed {
			t.Errorf("List[%d] = %+v, want the run started %v", i, sums[i], want)
		}
	}
	if !errors.Is(sums[3].Err, ErrNotJournal) || !strings.HasSuffix(sums[3].Path, "dead.journal") {
		t.Errorf("List[3] = %+v, want the garbage file with ErrNotJournal", sums[3])
	}
	if got, err := List(filepath.Join(dir, "missing")); err != nil || len(got) != 0 {
		t.Errorf("List(missing dir) = %v, %v", got, err)
	}
}

func TestNewRunIDSortsByTime(t *testing.T) {
	a := NewRunID(time.Date(2026, 12, 2, 13, 15, 0, 0, time.FixedZone("x", 3600)))
	b := NewRunID(time.Date(2026, 12, 2, 13, 15, 1, 0, time.FixedZone("x", 3600)))
	if !strings.HasPrefix(a, "20261202T121500Z-") || len(a) != len("20261202T121500Z-0123456789abcdef") {
		t.Errorf("NewRunID = %q", a)
	}
	if a >= b {
		t.Errorf("%q does not sort before %q", a, b)
	}
	if checkRunID(a) != nil {
		t.Errorf("NewRunID produced an unusable name %q", a)
	}
}

func TestStrings(t *testing.T) {
	if Copy.String() != "copy" || RemoveSource.String() != "remove-source" || RemoveDuplicate.String() != "remove-duplicate" ||
		Action(99).String() != "action(99)" {
		t.Error("Action.String")
	}
	if Intent.String() != "intent" || Undone.String() != "undone" || State(0).String() != "state(0)" {
		t.Error("State.String")
	}
}

// TestRemoveDuplicateRoundTrips: the action added after version 1 is
// written and read back like the others, and the version-1 actions keep
// their numbers (the golden journal checks their encoding).
func TestRemoveDuplicateRoundTrips(t *testing.T) {
	if Mkdir != 7 || RemoveDuplicate != 8 {
		t.Fatalf("action numbers moved: Mkdir=%d RemoveDuplicate=%d", Mkdir, RemoveDuplicate)
	}
	want := []Entry{
		{Seq: 4, State: Intent, Action: RemoveDuplicate, Src: "/card/b/IMG_1 copy.JPG", Dst: "/lib/2019/IMG_1.JPG", Size: 12345, ModTime: 1e18},
		{Seq: 4, State: Done, Action: RemoveDuplicate, Src: "/card/b/IMG_1 copy.JPG", Dst: "/lib/2019/IMG_1.JPG", Size: 12345, ModTime: 1e18, Dev: 2049, Ino: 77},
	}
	path, _ := writeJournal(t, t.TempDir(), want, true)
	var got []Entry
	if _, err := Read(path, func(e Entry) error { got = append(got, e); return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back %+v, want %+v", got, want)
	}
}
