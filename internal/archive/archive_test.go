package archive

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/fsx"
)

// entry is one member to write: raw sets the headers as given (sizes, CRC,
// flags) around data that is written as it is.
type entry struct {
	name   string
	data   []byte
	store  bool
	raw    *zip.FileHeader
	encryp bool
}

func writeZip(t *testing.T, path string, entries ...entry) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		var w io.Writer
		var err error
		switch {
		case e.raw != nil:
			e.raw.Name = e.name
			w, err = zw.CreateRaw(e.raw)
		default:
			fh := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: time.Date(2020, 5, 6, 7, 8, 9, 0, time.UTC)}
			if e.store {
				fh.Method = zip.Store
			}
			if e.encryp {
				fh.Flags |= 0x1
			}
			w, err = zw.CreateHeader(fh)
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(e.data); err != nil {
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

func photo() []byte {
	return fixture.JPEG(fixture.EXIF{When: time.Date(2019, 7, 4, 15, 30, 0, 0, time.UTC), Camera: fixture.Camera{Make: "Canon", Model: "EOS"}})
}

func TestMembersReadThroughTheFS(t *testing.T) {
	dir := t.TempDir()
	zp := filepath.Join(dir, "t.zip")
	jpg := photo()
	writeZip(t, zp, entry{name: "a/deflated.jpg", data: jpg}, entry{name: "a/stored.jpg", data: jpg, store: true}, entry{name: "a/"})
	set, err := OpenSet([]string{zp})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	if n := len(set.Archives()[0].Members()); n != 2 {
		t.Fatalf("members: %d, want 2 (the folder entry is no member)", n)
	}
	fsys := set.FS(fsx.OS)
	for _, name := range []string{"deflated.jpg", "stored.jpg"} {
		p := filepath.Join(zp, "a", name)
		info, err := fsys.Lstat(p)
		if err != nil || info.Size() != int64(len(jpg)) || !info.Mode().IsRegular() {
			t.Fatalf("%s: lstat %v %v", name, info, err)
		}
		f, err := fsys.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(f)
		if err != nil || !bytes.Equal(got, jpg) {
			t.Fatalf("%s: read %d bytes, %v", name, len(got), err)
		}
		// Reads at offsets, backwards too, as the header reader does.
		b := make([]byte, 4)
		for _, off := range []int64{10, 2, int64(len(jpg)) - 4} {
			if n, err := f.ReadAt(b, off); n != 4 || !bytes.Equal(b, jpg[off:off+4]) {
				t.Fatalf("%s: ReadAt %d: %d %v", name, off, n, err)
			}
		}
		if n, err := f.ReadAt(b, int64(len(jpg))-2); n != 2 || err != io.EOF {
			t.Fatalf("%s: ReadAt past the end: %d %v, want 2 and EOF", name, n, err)
		}
		f.Close()
		if !fsx.SameFile(info, info) {
			t.Fatal("a member's stat is not the same file as itself")
		}
	}
	if _, err := fsys.Open(filepath.Join(zp, "a", "none.jpg")); !errors.Is(err, ErrNotInSource) {
		t.Fatalf("a missing member: %v", err)
	}
	for _, err := range []error{
		fsys.Remove(filepath.Join(zp, "a", "stored.jpg")),
		fsys.Rename(filepath.Join(zp, "a", "stored.jpg"), filepath.Join(dir, "x")),
		fsys.Chtimes(filepath.Join(zp, "a", "stored.jpg"), time.Now(), time.Now()),
	} {
		if !errors.Is(err, ErrReadOnly) {
			t.Fatalf("a change to a member: %v, want ErrReadOnly", err)
		}
	}
}

func TestHostileMembersAreRefusedByName(t *testing.T) {
	dir := t.TempDir()
	zp := filepath.Join(dir, "h.zip")
	jpg := photo()
	writeZip(t, zp,
		entry{name: "../escape.jpg", data: jpg},
		entry{name: "/etc/abs.jpg", data: jpg},
		entry{name: `C:\win\drive.jpg`, data: jpg},
		entry{name: "a/../../up.jpg", data: jpg},
		entry{name: "nul\x00.jpg", data: jpg},
		entry{name: "twice.jpg", data: jpg},
		entry{name: "./twice.jpg", data: jpg},
		entry{name: "secret.jpg", data: jpg, encryp: true},
		entry{name: "bomb.bin", data: make([]byte, 100), raw: &zip.FileHeader{Method: zip.Deflate, CompressedSize64: 100, UncompressedSize64: 1 << 30}},
		entry{name: "huge.bin", data: make([]byte, 100), raw: &zip.FileHeader{Method: zip.Store, CompressedSize64: 100, UncompressedSize64: 2 << 40}},
		entry{name: `ok\windows.jpg`, data: jpg},
	)
	a, err := Open(zp)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	want := map[string]error{
		"../escape.jpg":    ErrNameTraversal,
		"/etc/abs.jpg":     ErrNameAbsolute,
		`C:\win\drive.jpg`: ErrNameDrive,
		"a/../../up.jpg":   ErrNameTraversal,
		"nul\x00.jpg":      ErrNameNUL,
		"twice.jpg":        ErrDuplicate,
		"secret.jpg":       ErrEncrypted,
		"bomb.bin":         ErrBomb,
		"huge.bin":         ErrTooLarge,
	}
	got := map[string]error{}
	for _, p := range a.Problems() {
		got[p.Member] = p.Err
		if !strings.Contains(p.Error(), "h.zip") {
			t.Errorf("%v: the message does not name the archive", p)
		}
	}
	for name, w := range want {
		if !errors.Is(got[name], w) {
			t.Errorf("member %q: refused with %v, want %v", name, got[name], w)
		}
	}
	if len(a.Members()) != 1 || a.Members()[0].Name != "ok/windows.jpg" {
		t.Fatalf("members offered: %v, want only ok/windows.jpg", a.Members())
	}
}

// A member whose bytes do not match its header is read as far as its
// declared size and no further, and the reader says so naming the member.
func TestLyingMembersFailTheirRead(t *testing.T) {
	dir := t.TempDir()
	zp := filepath.Join(dir, "l.zip")
	jpg := photo()
	var deflated bytes.Buffer
	fw, _ := flate.NewWriter(&deflated, flate.BestSpeed)
	fw.Write(bytes.Repeat(jpg, 64))
	fw.Close()
	writeZip(t, zp,
		entry{name: "badcrc.jpg", data: jpg, raw: &zip.FileHeader{Method: zip.Store, CompressedSize64: uint64(len(jpg)), UncompressedSize64: uint64(len(jpg)), CRC32: crc32.ChecksumIEEE(jpg) + 1}},
		// Declares the size of one photo but inflates to 64.
		entry{name: "longer.jpg", data: deflated.Bytes(), raw: &zip.FileHeader{Method: zip.Deflate, CompressedSize64: uint64(deflated.Len()), UncompressedSize64: uint64(len(jpg)), CRC32: crc32.ChecksumIEEE(jpg)}},
	)
	set, err := OpenSet([]string{zp})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	fsys := set.FS(fsx.OS)
	for _, name := range []string{"badcrc.jpg", "longer.jpg"} {
		f, err := fsys.Open(filepath.Join(zp, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(f)
		f.Close()
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: read %d bytes with %v; want ErrCorrupt naming the member", name, len(got), err)
		}
		if len(got) > len(jpg) {
			t.Errorf("%s: %d bytes read past the declared %d", name, len(got), len(jpg))
		}
	}
}

func TestTruncatedArchiveIsCorrupt(t *testing.T) {
	dir := t.TempDir()
	zp := filepath.Join(dir, "cut.zip")
	writeZip(t, zp, entry{name: "a.jpg", data: photo()})
	b, _ := os.ReadFile(zp)
	os.WriteFile(zp, b[:len(b)-30], 0o644)
	_, err := Open(zp)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "cut.zip") {
		t.Fatalf("a truncated zip: %v, want ErrCorrupt naming it", err)
	}
}

func TestSplit(t *testing.T) {
	dir := t.TempDir()
	zp := filepath.Join(dir, "t.zip")
	writeZip(t, zp, entry{name: "a/b.jpg", data: photo()})
	for _, p := range []string{zp + ":a/b.jpg", filepath.Join(zp, "a", "b.jpg")} {
		arch, member, ok := Split(p)
		if !ok || arch != zp || filepath.ToSlash(member) != "a/b.jpg" {
			t.Errorf("Split(%q) = %q %q %v", p, arch, member, ok)
		}
	}
	if _, _, ok := Split(filepath.Join(dir, "none.zip", "a.jpg")); ok {
		t.Error("Split found an archive that does not exist")
	}
}

func TestCleanName(t *testing.T) {
	for name, want := range map[string]string{
		"a/b.jpg": "a/b.jpg", `a\b.jpg`: "a/b.jpg", "./a//b.jpg": "a/b.jpg", "Takeout/Google Photos/x (1).jpg": "Takeout/Google Photos/x (1).jpg",
	} {
		if got, _, err := CleanName(name); err != nil || got != want {
			t.Errorf("CleanName(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	for _, bad := range []string{"", "..", "../a", "a/../../b", "/a", `\a`, "C:a", "c:/a", `\\srv\share\a`, "a\x00b", "a/b:c/../..", strings.Repeat("a", 5000)} {
		if got, _, err := CleanName(bad); err == nil {
			t.Errorf("CleanName(%q) = %q, want a refusal", bad, got)
		}
	}
}

// FuzzCleanName: whatever a member is called, an accepted name is local,
// clean and slash-separated, and joined to the archive's path it stays
// under it.
func FuzzCleanName(f *testing.F) {
	for _, s := range []string{"a/b.jpg", "../x", "/abs", `C:\x`, `\\?\C:\x`, "a/./b", "a//b/", "..\\..\\x", "a\x00", "ä/ö.jpg", "a/b/../c", ".../x", "CON", "a:b/c", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		clean, dir, err := CleanName(name)
		if err != nil {
			return
		}
		if clean == "" {
			if !dir {
				t.Fatalf("%q: empty name accepted as a file", name)
			}
			return
		}
		// Local by the rules below, not by filepath.IsLocal: on Windows that
		// also refuses reserved names (CON), which the layout escapes where
		// a name lands; inside an archive a member may be called so.
		for _, seg := range strings.Split(clean, "/") {
			if seg == "" || seg == "." || seg == ".." {
				t.Fatalf("%q → %q: segment %q", name, clean, seg)
			}
		}
		if strings.ContainsAny(clean, "\x00\\") || strings.HasPrefix(clean, "/") {
			t.Fatalf("%q → %q", name, clean)
		}
		root := filepath.Join("base", "t.zip")
		if p := filepath.Join(root, filepath.FromSlash(clean)); !strings.HasPrefix(p, root+string(filepath.Separator)) {
			t.Fatalf("%q → %q: joined %q leaves %q", name, clean, p, root)
		}
	})
}
