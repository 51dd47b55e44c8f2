package meta

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func BenchmarkFile1KBJPEG(b *testing.B) {
	data := sampleJPEG(1024)
	path := writeTemp(b, "IMG_0001.JPG", data)
	r := NewReader(Options{})
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if info := r.File(path, int64(len(data)), time.Time{}); info.Date.Source != SourceEXIF {
			b.Fatalf("date %+v", info.Date)
		}
	}
}

func BenchmarkBytes1KBJPEG(b *testing.B) {
	data := sampleJPEG(1024)
	r := NewReader(Options{})
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if info := r.Bytes("IMG_0001.JPG", data, time.Time{}); info.Date.Source != SourceEXIF {
			b.Fatalf("date %+v", info.Date)
		}
	}
}

// BenchmarkBytesCanonJPEG parses a real 2.7 KB camera JPEG (maker notes
// included), the file used to compare with github.com/bep/imagemeta.
func BenchmarkBytesCanonJPEG(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "Canon.jpg"))
	if err != nil {
		b.Fatal(err)
	}
	r := NewReader(Options{})
	b.ReportAllocs()
	for b.Loop() {
		r.Bytes("Canon.jpg", data, time.Time{})
	}
}

func BenchmarkBytesCR3(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "CanonRaw.cr3"))
	if err != nil {
		b.Fatal(err)
	}
	r := NewReader(Options{})
	b.ReportAllocs()
	for b.Loop() {
		r.Bytes("a.cr3", data, time.Time{})
	}
}
