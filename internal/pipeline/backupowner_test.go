package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// The record of whose backup a folder is reads back as written, whatever
// the library's name holds (a line break and a forged "library" line
// included); a record shoebox did not write is unusable, not trusted.
func TestBackupOwnerRecordRoundTrips(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".shoebox", backupOfFile)
	forged := "/photos/lib\nlibrary 00000000000000000000000000000000"
	want := backupOwner{id: "0123456789abcdef0123456789abcdef", path: forged}
	if err := writeBackupOwner(fsx.OS, p, want, true); err != nil {
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

// plantsARecord is the real filesystem, on which another library's run
// records its claim on the backup folder just as this run's is about to:
// between this run's read (no record yet) and its write.
type plantsARecord struct {
	fsx.FS
	marker string
	other  backupOwner
	done   bool
}

func (p *plantsARecord) MkdirAll(dir string, perm os.FileMode) error {
	if !p.done && p.isMarkerFolder(dir) {
		p.done = true
		if err := writeBackupOwner(fsx.OS, p.marker, p.other, true); err != nil {
			return err
		}
	}
	return p.FS.MkdirAll(dir, perm)
}

// isMarkerFolder: dir is the record's folder, named as the test names it
// or through the backup folder the run holds open (fsx.Pin's
// /proc/self/fd/N/.shoebox).
func (p *plantsARecord) isMarkerFolder(dir string) bool {
	want := filepath.Dir(p.marker)
	if filepath.Base(dir) != filepath.Base(want) {
		return false
	}
	a, err := os.Stat(filepath.Dir(dir))
	b, err2 := os.Stat(filepath.Dir(want))
	return err == nil && err2 == nil && os.SameFile(a, b)
}

// Two libraries given one fresh backup folder at the same moment: the
// first record stays and the other run is refused before it copies
// anything (it replaced the first's record: the last writer won, and both
// libraries backed up into one folder).
func TestBackupFolderRaceFirstClaimWins(t *testing.T) {
	root := t.TempDir()
	card, lib, bak := filepath.Join(root, "card"), filepath.Join(root, "lib"), filepath.Join(root, "bak")
	tree(t, card, map[string][]byte{"DCIM/IMG_1.JPG": photo(2020, 1, 2, 10, "one")})
	if err := os.MkdirAll(bak, 0o755); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(bak, ".shoebox", backupOfFile)
	other := backupOwner{id: "0123456789abcdef0123456789abcdef", path: filepath.Join(root, "other-lib")}
	fsys := &plantsARecord{FS: fsx.OS, marker: marker, other: other}
	tmpl, err := layout.Parse("{year}/{name}{ext}")
	if err != nil {
		t.Fatal(err)
	}
	run, err := Open(Config{Sources: []string{card}, Dest: lib, Backup: bak, Template: tmpl, Mode: transfer.Copy,
		Workers: 1, Dedup: true, VideoTZ: time.UTC, FS: fsys})
	if err == nil {
		run.Close()
		t.Fatal("the run that lost the race for the backup folder was let in")
	}
	if !fsys.done {
		t.Fatal("the other library's record was never planted: the test no longer reaches the race")
	}
	if !errors.Is(err, ErrBackupOwned) {
		t.Errorf("refused with %v; want ErrBackupOwned", err)
	}
	if got, rerr := readBackupOwner(marker); rerr != nil || got != other {
		t.Errorf("the backup folder records %+v (%v); want the first claim, %+v", got, rerr, other)
	}
	if entries, _ := os.ReadDir(bak); len(entries) != 1 {
		t.Errorf("the backup folder holds %d entries; want only its record's folder", len(entries))
	}
}
