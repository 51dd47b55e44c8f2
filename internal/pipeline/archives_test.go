package pipeline

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// zipMember is one member of a test archive; with lie set, its header
// declares lie's sizes and CRC over the bytes given, stored as they are.
type zipMember struct {
	name string
	data []byte
	lie  *zip.FileHeader
}

func writeTestZip(t *testing.T, path string, members ...zipMember) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range members {
		var err error
		var w interface{ Write([]byte) (int, error) }
		if m.lie != nil {
			m.lie.Name = m.name
			w, err = zw.CreateRaw(m.lie)
		} else {
			w, err = zw.CreateHeader(&zip.FileHeader{Name: m.name, Method: zip.Deflate, Modified: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)})
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(m.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A member that inflates past its declared size, or whose bytes do not
// match its CRC, fails its transfer naming the archive and the member:
// nothing lands for it, no temp is left, and the next member is sorted.
func TestArchiveMemberThatLiesFailsAndLeavesNothing(t *testing.T) {
	root := t.TempDir()
	zp, dst := filepath.Join(root, "t.zip"), filepath.Join(root, "lib")
	small := photo(2019, 7, 4, 15, "small")
	var long bytes.Buffer
	fw, _ := flate.NewWriter(&long, flate.BestSpeed)
	fw.Write(small)
	fw.Write(bytes.Repeat([]byte{0}, 1<<20)) // a megabyte past what it declares
	fw.Close()
	badCRC := photo(2019, 7, 5, 15, "bad crc")
	writeTestZip(t, zp,
		zipMember{name: "long.jpg", data: long.Bytes(), lie: &zip.FileHeader{Method: zip.Deflate,
			CompressedSize64: uint64(long.Len()), UncompressedSize64: uint64(len(small)), CRC32: crc32.ChecksumIEEE(small)}},
		zipMember{name: "crc.jpg", data: badCRC, lie: &zip.FileHeader{Method: zip.Store,
			CompressedSize64: uint64(len(badCRC)), UncompressedSize64: uint64(len(badCRC)), CRC32: crc32.ChecksumIEEE(badCRC) ^ 1}},
		zipMember{name: "good.jpg", data: photo(2019, 7, 6, 15, "good")},
	)
	sum, rec := sortTree(t, []string{zp}, dst, func(c *Config) { c.Verify = true })
	if sum.Failed != 2 || sum.Transferred != 1 {
		t.Fatalf("failed %d, transferred %d; want 2 and 1", sum.Failed, sum.Transferred)
	}
	for _, name := range []string{"long.jpg", "crc.jpg"} {
		if !rec.reportedWith(filepath.Join(zp, name), "damaged or truncated") {
			t.Errorf("%s: no failure naming it as damaged: %v", name, rec.events)
		}
	}
	got := snapshot(t, dst)
	if len(got) != 1 || got["2019/2019-07-06/good.jpg"] == "" {
		t.Fatalf("library = %v, want only the good member", keys(got))
	}
}

// A Takeout photo with no EXIF is dated by its JSON beside it in the
// archive, read from the archive like the photo.
func TestArchiveSidecarDatesItsPhoto(t *testing.T) {
	root := t.TempDir()
	zp, dst := filepath.Join(root, "takeout.zip"), filepath.Join(root, "lib")
	writeTestZip(t, zp,
		zipMember{name: "Takeout/Google Photos/Trip/beach.jpg", data: undated("beach")},
		zipMember{name: "Takeout/Google Photos/Trip/beach.jpg.supplemental-metadata.json", data: []byte(`{"title":"beach.jpg","photoTakenTime":{"timestamp":"1562252400"}}`)},
	)
	sortTree(t, []string{zp}, dst)
	got := snapshot(t, dst)
	for _, want := range []string{"2019/2019-07-04/beach.jpg", "2019/2019-07-04/beach.jpg.supplemental-metadata.json"} {
		if _, ok := got[want]; !ok {
			t.Errorf("missing %s; library = %v", want, keys(got))
		}
	}
}

// A zip beside plain folders: both are sorted in one run, and the same
// photo in both is one photo.
func TestArchiveAndFolderTogether(t *testing.T) {
	root := t.TempDir()
	zp, card, dst := filepath.Join(root, "t.zip"), filepath.Join(root, "card"), filepath.Join(root, "lib")
	same := photo(2019, 7, 4, 15, "same")
	writeTestZip(t, zp, zipMember{name: "DCIM/IMG_1.JPG", data: same}, zipMember{name: "DCIM/IMG_2.JPG", data: photo(2019, 7, 5, 15, "two")})
	tree(t, card, map[string][]byte{"IMG_1.JPG": same})
	sum, _ := sortTree(t, []string{card, zp}, dst)
	if sum.Transferred != 2 || sum.Duplicates != 1 {
		t.Fatalf("transferred %d, duplicates %d; want 2 and 1", sum.Transferred, sum.Duplicates)
	}
	if got := snapshot(t, dst); len(got) != 2 {
		t.Fatalf("library = %v", keys(got))
	}
}

func TestArchiveRefusesModesThatChangeOrLinkTheSource(t *testing.T) {
	root := t.TempDir()
	zp := filepath.Join(root, "t.zip")
	writeTestZip(t, zp, zipMember{name: "a.jpg", data: photo(2019, 7, 4, 15, "a")})
	tmpl := mustTemplate(t)
	for _, c := range []Config{
		{Mode: transfer.Move},
		{Mode: transfer.Hardlink},
		{Mode: transfer.Symlink},
		{Mode: transfer.Move, DeleteDuplicates: true, Dedup: true},
	} {
		c.Sources, c.Dest, c.Template = []string{zp}, filepath.Join(root, "lib"), tmpl
		r, err := Open(c)
		if err == nil {
			r.Close()
			t.Fatalf("mode %s: opened", c.Mode)
		}
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "t.zip") {
			t.Errorf("mode %s: %v; want ErrConfig naming the archive", c.Mode, err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "lib")); !os.IsNotExist(err) {
		t.Errorf("a refused run made the library: %v", err)
	}
}

func undated(comment string) []byte {
	c := "scan " + comment
	b := []byte{0xFF, 0xD8, 0xFF, 0xFE, byte((len(c) + 2) >> 8), byte(len(c) + 2)}
	return append(append(b, c...), 0xFF, 0xD9)
}

func mustTemplate(t *testing.T) *layout.Template {
	t.Helper()
	tmpl, err := layout.Parse("{year}/{year}-{month}-{day}/{name}{ext}")
	if err != nil {
		t.Fatal(err)
	}
	return tmpl
}
