package journal

import (
	"bytes"
	"fmt"
	"github.com/shoebox-photos/shoebox/internal/record"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// goldenPath is a version-1 journal checked in so that a format change that
// breaks old journals fails a test instead of a user's undo; goldenV2Path
// is one of version 2, with an outcome, as the writer makes them now.
const (
	goldenPath   = "testdata/v1.journal"
	goldenV2Path = "testdata/v2.journal"
)

// goldenOutcome is the outcome goldenV2Path holds.
var goldenOutcome = Outcome{End: EndInterrupted, Planned: 150, Transferred: 97, Failed: 2, NotAttempted: 51, DuplicatesRemoved: 3, BackupCopies: 97}

// goldenJournal builds the journal goldenV2Path holds.
func goldenJournal(t testing.TB) []byte {
	path, _ := writeJournal(t, t.TempDir(), testEntries(12), true)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	w, err := Create(filepath.Dir(path), testHeader("20261202T131500Z-abcd"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range testEntries(12) {
		if err := w.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.CloseWith(goldenOutcome); err != nil {
		t.Fatal(err)
	}
	return mustRead(t, path)
}

// goldenV1Journal is the version-1 form of the same entries: a journal
// closed without an outcome, its version field 1. Version 2 changed
// nothing else, so old journals read as they did.
func goldenV1Journal(t testing.TB) []byte {
	path, _ := writeJournal(t, t.TempDir(), testEntries(12), true)
	data := mustRead(t, path)
	data[len(magic)+1] = 1
	return data
}

// Set SHOEBOX_UPDATE_TESTDATA=1 to rewrite testdata after a deliberate
// format change (with a new FormatVersion).
func TestGoldenV1(t *testing.T) {
	var got []Entry
	sum, err := Read(goldenPath, func(e Entry) error { got = append(got, e); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, testEntries(12)) || !sum.Closed || sum.Header.RunID != "20261202T131500Z-abcd" {
		t.Fatalf("golden journal read back as %+v with %d entries", sum, len(got))
	}
	if sum.Header.Version != 1 || sum.Outcome != (Outcome{}) {
		t.Fatalf("version-1 journal read as version %d with outcome %+v", sum.Header.Version, sum.Outcome)
	}
	if !bytes.Equal(goldenV1Journal(t), mustRead(t, goldenPath)) {
		t.Fatal("the writer no longer produces the checked-in version-1 records")
	}
}

func TestGoldenV2(t *testing.T) {
	if os.Getenv("SHOEBOX_UPDATE_TESTDATA") != "" {
		writeTestdata(t)
	}
	var got []Entry
	sum, err := Read(goldenV2Path, func(e Entry) error { got = append(got, e); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, testEntries(12)) || !sum.Closed || sum.Header.Version != 2 || sum.Outcome != goldenOutcome {
		t.Fatalf("golden journal read back as %+v with %d entries", sum, len(got))
	}
	if !bytes.Equal(goldenJournal(t), mustRead(t, goldenV2Path)) {
		t.Fatal("the writer no longer produces the checked-in version-2 bytes")
	}
}

func mustRead(t testing.TB, path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func writeTestdata(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzRead")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data := goldenJournal(t)
	if err := os.WriteFile(goldenV2Path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, seed := range fuzzSeeds(data) {
		body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", seed)
		if err := os.WriteFile(filepath.Join(dir, "v2-"+name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func fuzzSeeds(valid []byte) map[string][]byte {
	flipped := bytes.Clone(valid)
	flipped[len(flipped)/2] ^= 0x40
	return map[string][]byte{
		"valid":        valid,
		"torn":         valid[:len(valid)-7],
		"zero-tail":    append(bytes.Clone(valid[:len(valid)-30]), make([]byte, 64)...),
		"flipped":      flipped,
		"header-only":  valid[:len(magic)+2],
		"empty":        {},
		"not-journal":  []byte("GIF89a"),
		"huge-length":  append([]byte(magic+"\x00\x01"), 0, 0, 0, 0x40, 0xff, 0xff, 0xff, 0xbf, 1, 2, 3, 4),
		"many-args":    append([]byte(magic+"\x00\x01"), appendFrame(nil, []byte{typeHeader, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f})...),
		"closed-twice": append(bytes.Clone(valid), appendFrame(nil, []byte{typeClosed})...),
		"outcome-huge": appendFrame(appendFrame([]byte(magic+"\x00\x02"), encodeHeader(testHeader("r"))), []byte{typeOutcome, 1, 0xff, 0xff, 0xff, 0xff, 0x0f}),
	}
}

// FuzzRead: no input may panic, hang or make Read allocate beyond the record
// cap; whatever reads cleanly must re-encode to the same entries.
func FuzzRead(f *testing.F) {
	valid := goldenJournal(f)
	for _, seed := range fuzzSeeds(valid) {
		f.Add(seed)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.journal")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		var entries []Entry
		sum, err := Read(path, func(e Entry) error { entries = append(entries, e); return nil })
		if err != nil {
			return
		}
		if sum.Entries != len(entries) || sum.Done+sum.Failed+sum.Undone > sum.Entries {
			t.Fatalf("summary %+v disagrees with %d entries", sum, len(entries))
		}
		if sum.Outcome.End != 0 {
			d := record.NewDecoder(encodeOutcome(sum.Outcome)[1:])
			back, err := decodeOutcome(&d)
			if err != nil || back != sum.Outcome {
				t.Fatalf("outcome %+v does not round-trip: %+v, %v", sum.Outcome, back, err)
			}
		}
		for _, e := range entries {
			d := record.NewDecoder(appendEntry(nil, e)[1:])
			back, err := decodeEntry(&d)
			if err != nil || back != e {
				t.Fatalf("entry %+v does not round-trip: %+v, %v", e, back, err)
			}
		}
	})
}
