package meta

import (
	"github.com/shoebox-photos/shoebox/internal/fixture"
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

// BenchmarkMetaPerFile* is the metadata CPU per file (one op = one
// file, parsed from memory, no I/O) over every file of testdata (gen,
// dates, the camera samples) and over the corpus: the figure issue 25
// asks to keep from growing.
func BenchmarkMetaPerFileTestdata(b *testing.B) { benchPerFile(b, benchFiles(b, "testdata")) }

func BenchmarkMetaPerFileCorpus(b *testing.B) { benchPerFile(b, benchFiles(b, fixture.CorpusDir(b))) }

func benchPerFile(b *testing.B, paths []string) {
	var names []string
	var datas [][]byte
	for _, p := range paths {
		if d, err := os.ReadFile(p); err == nil && len(d) <= maxReadBytes {
			names, datas = append(names, p), append(datas, d)
		}
	}
	if len(datas) == 0 {
		b.Skip("no files")
	}
	r := NewReader(Options{VideoTZ: time.UTC})
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		r.Bytes(names[i%len(datas)], datas[i%len(datas)], time.Time{})
		i++
	}
}

// benchFiles lists the regular files under dir, fuzz corpora left out.
func benchFiles(b *testing.B, dir string) []string {
	var paths []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && d.Name() == "fuzz":
			return filepath.SkipDir
		case d.Type().IsRegular():
			paths = append(paths, p)
		}
		return nil
	})
	return paths
}
