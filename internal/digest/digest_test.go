package digest

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx"
)

func writeTemp(t testing.TB, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// Official BLAKE3 test values, so a swapped hash would be caught.
func TestKnownVectors(t *testing.T) {
	for input, want := range map[string]string{
		"":    "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262",
		"abc": "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85",
	} {
		s, n, err := File(fsx.OS, writeTemp(t, "v", []byte(input)))
		if err != nil {
			t.Fatal(err)
		}
		if s.String() != want || n != int64(len(input)) {
			t.Errorf("File(%q) = %s, %d; want %s, %d", input, s, n, want, len(input))
		}
	}
}

// Sizes around the buffer boundary must hash like one in-memory write.
func TestFileMatchesStreamingHash(t *testing.T) {
	for _, size := range []int{0, 1, bufSize - 1, bufSize, bufSize + 1, 3*bufSize + 7} {
		data := randomBytes(size, uint64(size))
		got, n, err := File(fsx.OS, writeTemp(t, "f", data))
		if err != nil {
			t.Fatal(err)
		}
		h := New()
		h.Write(data)
		var want Sum
		h.Sum(want[:0])
		if got != want || n != int64(size) {
			t.Errorf("size %d: File = %s (%d bytes), New = %s", size, got, n, want)
		}
	}
}

func TestFileMissing(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "gone.jpg")
	_, _, err := File(fsx.OS, missing)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want ErrNotExist", err)
	}
}

func TestParseRoundTrip(t *testing.T) {
	s, _, err := File(fsx.OS, writeTemp(t, "p", []byte("round trip")))
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(s.String())
	if err != nil || back != s {
		t.Errorf("Parse(%s) = %s, %v", s, back, err)
	}
	for _, bad := range []string{"", "abc", s.String()[:63] + "g", s.String() + "00"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
	if !(Sum{}).IsZero() || s.IsZero() {
		t.Error("IsZero wrong")
	}
}

func FuzzParse(f *testing.F) {
	f.Add("af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262")
	f.Add("")
	f.Add("zz1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := Parse(text)
		if err == nil && s.String() != text && !bytes.EqualFold([]byte(s.String()), []byte(text)) {
			t.Errorf("Parse(%q) = %s", text, s)
		}
	})
}

func TestEqual(t *testing.T) {
	data := randomBytes(2*bufSize+100, 7)
	lastDiffers := bytes.Clone(data)
	lastDiffers[len(lastDiffers)-1] ^= 1
	firstDiffers := bytes.Clone(data)
	firstDiffers[0] ^= 1
	a := writeTemp(t, "a", data)
	cases := []struct {
		name  string
		other []byte
		want  bool
	}{
		{"identical", bytes.Clone(data), true},
		{"last byte differs", lastDiffers, false},
		{"first byte differs", firstDiffers, false},
		{"shorter", data[:len(data)-1], false},
		{"longer", append(bytes.Clone(data), 0), false},
	}
	for _, c := range cases {
		got, err := Equal(fsx.OS, a, writeTemp(t, "b", c.other))
		if err != nil || got != c.want {
			t.Errorf("%s: Equal = %v, %v; want %v", c.name, got, err, c.want)
		}
	}
	empty1, empty2 := writeTemp(t, "e1", nil), writeTemp(t, "e2", nil)
	if same, err := Equal(fsx.OS, empty1, empty2); !same || err != nil {
		t.Errorf("two empty files: %v, %v", same, err)
	}
}

func TestEqualMissingFile(t *testing.T) {
	a := writeTemp(t, "a", []byte("x"))
	_, err := Equal(fsx.OS, a, filepath.Join(t.TempDir(), "missing"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v, want ErrNotExist", err)
	}
}

// A huge sparse file must hash without its size showing up in memory.
func TestFileSparseHugeFlatMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("hashes a large sparse file; skipped with -short")
	}
	// 1 GiB by default (the kernel zero-fills every page read, ~4 s/GiB
	// of system time here); SHOEBOX_SPARSE_GIB=10 runs the full 10 GiB.
	size := int64(1) << 30
	if gib, err := strconv.Atoi(os.Getenv("SHOEBOX_SPARSE_GIB")); err == nil && gib > 0 {
		size = int64(gib) << 30
	}
	p := filepath.Join(t.TempDir(), "sparse")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		f.Close()
		t.Skipf("cannot make a sparse file here: %v", err)
	}
	f.Close()

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, n, err := File(fsx.OS, p)
	runtime.ReadMemStats(&after)
	if err != nil || n != size {
		t.Fatalf("File = %d bytes, %v", n, err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("hashing %d bytes allocated %d bytes; want flat memory", size, grew)
	}
}

func BenchmarkFile4MB(b *testing.B) {
	p := writeTemp(b, "bench", randomBytes(4<<20, 1))
	b.SetBytes(4 << 20)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := File(fsx.OS, p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEqual4MB(b *testing.B) {
	data := randomBytes(4<<20, 2)
	x, y := writeTemp(b, "x", data), writeTemp(b, "y", data)
	b.SetBytes(4 << 20)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Equal(fsx.OS, x, y); err != nil {
			b.Fatal(err)
		}
	}
}
