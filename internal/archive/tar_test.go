package archive

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
)

// tarEntry is one member to write: hdr as given (Typeflag, Linkname,
// PAXRecords...), with Size set from data unless it is set already.
type tarEntry struct {
	hdr  tar.Header
	data []byte
}

func file(name string, data []byte) tarEntry {
	return tarEntry{hdr: tar.Header{Name: name, Typeflag: tar.TypeReg}, data: data}
}

func special(name string, typ byte, link string) tarEntry {
	return tarEntry{hdr: tar.Header{Name: name, Typeflag: typ, Linkname: link}}
}

// tarBytes is a tar of entries, gzip'd when gz. An entry whose declared
// Size differs from its data ends the archive there, cut short.
func tarBytes(t testing.TB, gz bool, entries ...tarEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	cut := false
	for _, e := range entries {
		h := e.hdr
		if h.Typeflag != tar.TypeXGlobalHeader {
			h.Mode = 0o644
		}
		if h.ModTime.IsZero() && h.Typeflag != tar.TypeXGlobalHeader {
			h.ModTime = time.Date(2020, 5, 6, 7, 8, 9, 0, time.UTC)
		}
		if h.Size == 0 && h.Typeflag == tar.TypeReg {
			h.Size = int64(len(e.data))
		}
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if h.Size != int64(len(e.data)) {
			buf.Write(e.data) // past tar.Writer, which would refuse it
			cut = true
			break
		}
		if _, err := tw.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if !cut {
		if err := tw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if !gz {
		return buf.Bytes()
	}
	return gzipped(t, buf.Bytes())
}

func gzipped(t testing.TB, b []byte) []byte {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func writeTar(t *testing.T, path string, entries ...tarEntry) {
	t.Helper()
	gz := !strings.HasSuffix(path, ".tar")
	if err := os.WriteFile(path, tarBytes(t, gz, entries...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// tarNames are the three names a tar source goes by.
var tarNames = []string{"t.tar", "t.tgz", "t.tar.gz"}

func TestTarMembersReadThroughTheFS(t *testing.T) {
	jpg := photo()
	other := append(photo(), "other"...)
	for _, base := range tarNames {
		t.Run(base, func(t *testing.T) {
			dir := t.TempDir()
			tp := filepath.Join(dir, base)
			writeTar(t, tp, file("a/one.jpg", jpg), tarEntry{hdr: tar.Header{Name: "a/", Typeflag: tar.TypeDir}}, file("a/two.jpg", other))
			set, err := OpenSet([]string{tp})
			if err != nil {
				t.Fatal(err)
			}
			defer set.Close()
			a := set.Archives()[0]
			if n := len(a.Members()); n != 2 {
				t.Fatalf("members: %d, want 2 (folders are no members)", n)
			}
			fsys := set.FS(fsx.OS)
			for name, want := range map[string][]byte{"one.jpg": jpg, "two.jpg": other} {
				p := filepath.Join(tp, "a", name)
				info, err := fsys.Lstat(p)
				if err != nil || info.Size() != int64(len(want)) || !info.Mode().IsRegular() {
					t.Fatalf("%s: lstat %v %v", name, info, err)
				}
				if m := a.Member("a/" + name); m.CRC != crc32.ChecksumIEEE(want) {
					t.Errorf("%s: CRC %08x, want %08x", name, m.CRC, crc32.ChecksumIEEE(want))
				}
				readsBack(t, fsys, p, want)
			}
		})
	}
}

// readsBack reads the member at p whole, then at offsets (backwards too,
// as the header reader does), twice over.
func readsBack(t *testing.T, fsys fsx.FS, p string, want []byte) {
	t.Helper()
	for range 2 {
		f, err := fsys.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(f)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: read %d bytes, %v", p, len(got), err)
		}
		b := make([]byte, 4)
		for _, off := range []int64{10, 2, int64(len(want)) - 4} {
			if n, err := f.ReadAt(b, off); n != 4 || !bytes.Equal(b, want[off:off+4]) {
				t.Fatalf("%s: ReadAt %d: %d %v", p, off, n, err)
			}
		}
		if n, err := f.ReadAt(b, int64(len(want))-2); n != 2 || err != io.EOF {
			t.Fatalf("%s: ReadAt past the end: %d %v, want 2 and EOF", p, n, err)
		}
		f.Close()
	}
}

func TestTarHostileMembersAreRefused(t *testing.T) {
	jpg := photo()
	entries := []tarEntry{
		file("../escape.jpg", jpg),
		file("/etc/abs.jpg", jpg),
		file(`C:\win\drive.jpg`, jpg),
		file("a/../../up.jpg", jpg),
		file("twice.jpg", jpg),
		file("./twice.jpg", append(photo(), 1)),
		special("link.jpg", tar.TypeSymlink, "/etc/passwd"),
		special("hard.jpg", tar.TypeLink, "ok/windows.jpg"),
		special("dev.jpg", tar.TypeChar, ""),
		special("blk.jpg", tar.TypeBlock, ""),
		special("fifo.jpg", tar.TypeFifo, ""),
		{hdr: tar.Header{Name: "../../pax-escape.jpg", Typeflag: tar.TypeReg, Format: tar.FormatPAX, PAXRecords: map[string]string{"comment": "odd"}}, data: jpg},
		{hdr: tar.Header{Name: strings.Repeat("d/", 2100) + "x.jpg", Typeflag: tar.TypeReg, Format: tar.FormatPAX}, data: jpg},
		{hdr: tar.Header{Typeflag: tar.TypeXGlobalHeader, PAXRecords: map[string]string{"comment": "odd"}}},
		{hdr: tar.Header{Name: `ok\pax ä "quoted".jpg`, Typeflag: tar.TypeReg, Format: tar.FormatPAX}, data: jpg},
		file(`ok\windows.jpg`, jpg),
	}
	want := map[string]error{
		"../escape.jpg":                      ErrNameTraversal,
		"/etc/abs.jpg":                       ErrNameAbsolute,
		`C:\win\drive.jpg`:                   ErrNameDrive,
		"a/../../up.jpg":                     ErrNameTraversal,
		"twice.jpg":                          ErrDuplicate,
		"link.jpg":                           ErrNotFile,
		"hard.jpg":                           ErrNotFile,
		"dev.jpg":                            ErrNotFile,
		"blk.jpg":                            ErrNotFile,
		"fifo.jpg":                           ErrNotFile,
		"../../pax-escape.jpg":               ErrNameTraversal,
		strings.Repeat("d/", 2100) + "x.jpg": ErrNameLong,
	}
	for _, base := range tarNames {
		t.Run(base, func(t *testing.T) {
			tp := filepath.Join(t.TempDir(), base)
			writeTar(t, tp, entries...)
			a, err := Open(tp)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			got := map[string]error{}
			for _, p := range a.Problems() {
				got[p.Member] = p.Err
				if !strings.Contains(p.Error(), base) {
					t.Errorf("%v: the message does not name the archive", p)
				}
			}
			for name, w := range want {
				if !errors.Is(got[name], w) {
					t.Errorf("member %.40q: refused with %v, want %v", name, got[name], w)
				}
			}
			if len(got) != len(want) {
				t.Errorf("refused %d members, want %d: %v", len(got), len(want), got)
			}
			if msg := got["link.jpg"].Error(); !strings.Contains(msg, "symbolic link") || !strings.Contains(msg, "/etc/passwd") {
				t.Errorf("a symlink's refusal does not say what it is: %s", msg)
			}
			var names []string
			for _, m := range a.Members() {
				names = append(names, m.Name)
			}
			if fmt.Sprint(names) != `[ok/pax ä "quoted".jpg ok/windows.jpg]` {
				t.Fatalf("members offered: %q", names)
			}
		})
	}
}

// A tar that breaks off, or whose gzip stream is damaged, is refused as a
// whole, naming the archive; nothing panics or hangs.
func TestDamagedTarIsCorrupt(t *testing.T) {
	jpg := photo()
	plain := tarBytes(t, false, file("a.jpg", jpg), file("b.jpg", jpg))
	gz := gzipped(t, plain)
	flipped := bytes.Clone(gz)
	for i := len(flipped) / 3; i < len(flipped)/2; i++ {
		flipped[i] ^= 0x5a
	}
	badHeader := bytes.Clone(plain)
	copy(badHeader[512+len(jpg)+(512-len(jpg)%512)%512:], "garbage in the second header's checksum field....")
	for name, data := range map[string][]byte{
		"cut-in-data.tar":     plain[:512+100],
		"cut-in-header.tar":   plain[:512+len(jpg)+(512-len(jpg)%512)%512+200],
		"bad-header.tar":      badHeader,
		"cut.tgz":             gz[:len(gz)/2],
		"flipped.tgz":         flipped,
		"not-gzip.tgz":        plain,
		"empty.tar.gz":        nil,
		"huge.tar":            tarBytes(t, false, tarEntry{hdr: tar.Header{Name: "huge.jpg", Typeflag: tar.TypeReg, Size: 1 << 30}, data: jpg}),
		"huge.tgz":            tarBytes(t, true, tarEntry{hdr: tar.Header{Name: "huge.jpg", Typeflag: tar.TypeReg, Size: 1 << 30}, data: jpg}),
		"over-a-terabyte.tgz": tarBytes(t, true, tarEntry{hdr: tar.Header{Name: "tera.jpg", Typeflag: tar.TypeReg, Size: 2 << 40}, data: jpg}),
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), name)
			os.WriteFile(p, data, 0o644)
			a, err := Open(p)
			if err == nil {
				a.Close()
				t.Fatalf("opened, with members %v", a.Members())
			}
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrPastTheEnd) || !strings.Contains(err.Error(), name) {
				t.Fatalf("%v: want ErrCorrupt naming the archive", err)
			}
		})
	}
}

// A tgz inflating to gigabytes stops at maxInflated with a clear message,
// having held no more than a stream's buffers.
func TestGzipBombStops(t *testing.T) {
	var raw bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&raw, gzip.BestCompression)
	tw := tar.NewWriter(zw)
	const size = 64 << 20
	tw.WriteHeader(&tar.Header{Name: "zeros.jpg", Typeflag: tar.TypeReg, Mode: 0o644, Size: size})
	tw.Write(make([]byte, size))
	tw.Close()
	zw.Close()
	p := filepath.Join(t.TempDir(), "bomb.tgz")
	os.WriteFile(p, raw.Bytes(), 0o644)

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Open(p)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrGzipBomb) || !strings.Contains(err.Error(), "bomb.tgz") {
		t.Fatalf("a %d-byte tgz of %d zeros: %v, want ErrGzipBomb naming it", raw.Len(), size, err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
		t.Errorf("reading the bomb allocated %d bytes", grew)
	}
}

// Members read in archive order share one inflating stream; a read behind
// every kept stream starts a new one, and no more than keptStreams wait.
func TestTgzStreamsAreReused(t *testing.T) {
	var entries []tarEntry
	for i := range 40 {
		entries = append(entries, file(fmt.Sprintf("p%02d.jpg", i), append(photo(), byte(i))))
	}
	tp := filepath.Join(t.TempDir(), "many.tgz")
	writeTar(t, tp, entries...)
	set, err := OpenSet([]string{tp})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	a, fsys := set.Archives()[0], set.FS(fsx.OS)
	readAll := func(order []*Member) {
		for _, m := range order {
			f, err := fsys.Open(m.Path())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.Copy(io.Discard, f); err != nil {
				t.Fatal(err)
			}
			f.Close()
		}
	}
	readAll(a.Members())
	if a.gz.restarts != 1 {
		t.Errorf("reading %d members in order inflated the archive %d times, want 1", len(a.Members()), a.gz.restarts)
	}
	var reversed []*Member
	for i := len(a.Members()) - 1; i >= 0; i-- {
		reversed = append(reversed, a.Members()[i])
	}
	readAll(reversed)
	if len(a.gz.idle) > keptStreams {
		t.Errorf("%d streams kept, want at most %d", len(a.gz.idle), keptStreams)
	}
	t.Logf("in order: 1 pass; in reverse order: %d passes", a.gz.restarts-1)
}

// A plain tar rewritten after it was indexed fails the read of the member
// that changed, instead of copying other bytes under the indexed identity.
func TestTarChangedSinceIndexedFailsTheRead(t *testing.T) {
	tp := filepath.Join(t.TempDir(), "t.tar")
	writeTar(t, tp, file("a.jpg", photo()))
	set, err := OpenSet([]string{tp})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	f, _ := os.OpenFile(tp, os.O_WRONLY, 0)
	f.WriteAt([]byte{0xff}, 600)
	f.Close()
	r, err := set.FS(fsx.OS).Open(filepath.Join(tp, "a.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := io.ReadAll(r); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "a.jpg") {
		t.Fatalf("read: %v, want ErrCorrupt naming the member", err)
	}
}

// A GNU sparse member's bytes in the stream are not its content: it is
// refused, and the members after it are read at their right offsets.
func TestTarSparseMemberIsRefused(t *testing.T) {
	jpg := photo()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	tw.WriteHeader(&tar.Header{Name: "sparse.jpg", Typeflag: tar.TypeReg, Mode: 0o644, Size: 512, Format: tar.FormatGNU})
	tw.Write(make([]byte, 512))
	tw.WriteHeader(&tar.Header{Name: "after.jpg", Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(jpg))})
	tw.Write(jpg)
	tw.Close()
	b := buf.Bytes()
	b[156] = tar.TypeGNUSparse
	copy(b[483:495], "000000001000") // realsize, octal: one 512-byte block
	sum := 0
	copy(b[148:156], "        ")
	for _, c := range b[:512] {
		sum += int(c)
	}
	copy(b[148:156], fmt.Sprintf("%06o\x00 ", sum))
	tp := filepath.Join(t.TempDir(), "s.tar")
	os.WriteFile(tp, b, 0o644)
	set, err := OpenSet([]string{tp})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	a := set.Archives()[0]
	if ps := a.Problems(); len(ps) != 1 || !errors.Is(ps[0].Err, ErrSparse) {
		t.Fatalf("problems %v, want the sparse member refused", ps)
	}
	readsBack(t, set.FS(fsx.OS), filepath.Join(tp, "after.jpg"), jpg)
}

// FuzzIndexTar: whatever bytes a .tar or .tgz holds, opening it neither
// panics nor hangs; it is refused with a reason, or every member it
// offers has a clean name and reads back whole, at its declared size.
// Seeds: the tars in testdata/tar and cuts of them.
func FuzzIndexTar(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "tar", "*.tar"))
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, n := range []int{len(b), len(b) - 1, len(b) / 2, 513, 100} {
			f.Add(b[:min(n, len(b))])
		}
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		for name, b := range map[string][]byte{"f.tar": data, "f.tgz": gzippedFast(t, data), "raw.tgz": data} {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			openedReadsBack(t, p)
		}
	})
}

// gzippedFast reuses one compressor: a new one allocates about a
// megabyte, which slows fuzzing tenfold.
func gzippedFast(t *testing.T, b []byte) []byte {
	var out bytes.Buffer
	zw := fuzzGzip.Get().(*gzip.Writer)
	defer fuzzGzip.Put(zw)
	zw.Reset(&out)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

var fuzzGzip = sync.Pool{New: func() any { zw, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed); return zw }}

func openedReadsBack(t *testing.T, p string) {
	set, err := OpenSet([]string{p})
	if err != nil {
		if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrPastTheEnd) && !errors.Is(err, ErrGzipBomb) {
			t.Fatalf("%s: refused with %v, not a reason of the archive's", p, err)
		}
		return
	}
	defer set.Close()
	fsys := set.FS(fsx.OS)
	for _, m := range set.Archives()[0].Members() {
		if clean, _, err := CleanName(m.Name); err != nil || clean != m.Name {
			t.Fatalf("%s: member %q offered, cleaned %q %v", p, m.Name, clean, err)
		}
		r, err := fsys.Open(m.Path())
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, r)
		r.Close()
		if err != nil || n != m.Size {
			t.Fatalf("%s: member %q read %d of %d bytes: %v", p, m.Name, n, m.Size, err)
		}
	}
}
