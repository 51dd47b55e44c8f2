package pipeline

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx"
)

// The record of whose backup a folder is reads back as written, whatever
// the library's name holds (a line break and a forged "library" line
// included); a record shoebox did not write is unusable, not trusted.
func TestBackupOwnerRecordRoundTrips(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".shoebox", backupOfFile)
	forged := "/photos/lib\nlibrary 00000000000000000000000000000000"
	want := backupOwner{id: "0123456789abcdef0123456789abcdef", path: forged}
	if err := writeBackupOwner(fsx.OS, p, want); err != nil {
		t.Fatal(err)
	}
	got, err := readBackupOwner(p)
	if err != nil || got != want {
		t.Fatalf("read back %+v, %v; want %+v", got, err, want)
	}
	for _, bad := range []string{"", "library 12\npath \"/x\"\n", "library 0123456789abcdef0123456789abcdef\npath /x\n", "photo bytes\xff\xd8"} {
		if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if o, err := readBackupOwner(p); err == nil {
			t.Errorf("%q read as a record: %+v", bad, o)
		}
	}
}
