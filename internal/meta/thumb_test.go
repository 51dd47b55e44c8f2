package meta

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fixture"
)

// smallJPEG encodes a real w×h JPEG, the kind of image a camera embeds as its preview.
func smallJPEG(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x * 255 / w), 90, uint8(y * 255 / h), 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 80}); err != nil {
		t.Fatalf("encode preview: %v", err)
	}
	return b.Bytes()
}

// thumbTIFF lays out a TIFF header, an IFD0 with one Orientation entry and
// an IFD1 pointing at thumb, the way cameras write JPEG EXIF.
func thumbTIFF(order binary.ByteOrder, thumb []byte) []byte {
	const ifd0At, ifd1At = 8, 8 + 2 + 12 + 4
	dataAt := ifd1At + 2 + 3*12 + 4
	out := make([]byte, dataAt)
	if order == binary.LittleEndian {
		copy(out, "II")
	} else {
		copy(out, "MM")
	}
	order.PutUint16(out[2:], 42)
	order.PutUint32(out[4:], ifd0At)
	put := func(at int, tag, typ uint16, v uint32) {
		order.PutUint16(out[at:], tag)
		order.PutUint16(out[at+2:], typ)
		order.PutUint32(out[at+4:], 1)
		if typ == 3 {
			order.PutUint16(out[at+8:], uint16(v))
		} else {
			order.PutUint32(out[at+8:], v)
		}
	}
	order.PutUint16(out[ifd0At:], 1)
	put(ifd0At+2, 0x0112, 3, 1) // Orientation
	order.PutUint32(out[ifd0At+14:], ifd1At)
	order.PutUint16(out[ifd1At:], 3)
	put(ifd1At+2, 0x0103, 3, 6) // Compression: JPEG
	put(ifd1At+14, tagThumbOffset, 4, uint32(dataAt))
	put(ifd1At+26, tagThumbLength, 4, uint32(len(thumb)))
	return append(out, thumb...)
}

// jpegWithThumb is a real JPEG whose APP1 Exif carries thumb in IFD1.
func jpegWithThumb(t testing.TB, order binary.ByteOrder, thumb []byte) []byte {
	t.Helper()
	main := smallJPEG(t, 64, 48)
	payload := append([]byte("Exif\x00\x00"), thumbTIFF(order, thumb)...)
	var b bytes.Buffer
	b.Write(main[:2])
	b.Write([]byte{0xFF, 0xE1})
	binary.Write(&b, binary.BigEndian, uint16(len(payload)+2))
	b.Write(payload)
	b.Write(main[2:])
	return b.Bytes()
}

func TestThumbnailFromJPEGFile(t *testing.T) {
	thumb := smallJPEG(t, 160, 120)
	for name, order := range map[string]binary.ByteOrder{"little": binary.LittleEndian, "big": binary.BigEndian} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "IMG_0001.JPG")
			if err := os.WriteFile(path, jpegWithThumb(t, order, thumb), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := Thumbnail(path)
			if err != nil {
				t.Fatalf("Thumbnail: %v", err)
			}
			if !bytes.Equal(got, thumb) {
				t.Fatalf("thumbnail is %d bytes, want the %d embedded", len(got), len(thumb))
			}
			if _, err := jpeg.DecodeConfig(bytes.NewReader(got)); err != nil {
				t.Fatalf("thumbnail does not decode as JPEG: %v", err)
			}
		})
	}
}

func TestThumbnailFromTIFF(t *testing.T) {
	thumb := smallJPEG(t, 16, 12)
	if got := ThumbnailBytes(thumbTIFF(binary.BigEndian, thumb)); !bytes.Equal(got, thumb) {
		t.Fatalf("TIFF thumbnail is %d bytes, want %d", len(got), len(thumb))
	}
}

func TestThumbnailAbsent(t *testing.T) {
	cases := map[string][]byte{
		"EXIF without IFD1, too big to be its own": append(fixture.JPEG(fixture.EXIF{}), make([]byte, maxWholeJPEG)...),
		"not an image": []byte("hello, this is text and not a picture"),
		"empty":        nil,
	}
	for name, data := range cases {
		if got := ThumbnailBytes(data); got != nil {
			t.Errorf("%s: got a %d-byte thumbnail, want none", name, len(got))
		}
	}
}

func TestThumbnailRejectsBadPointers(t *testing.T) {
	thumb := smallJPEG(t, 16, 12)
	good := thumbTIFF(binary.LittleEndian, thumb)
	const ifd1At = 8 + 2 + 12 + 4
	offAt := ifd1At + 2 + 12 + 8 // value of JPEGInterchangeFormat, IFD1's second entry
	lenAt := offAt + 12
	mutate := func(at int, v uint32) []byte {
		b := bytes.Clone(good)
		binary.LittleEndian.PutUint32(b[at:], v)
		return b
	}
	cases := map[string][]byte{
		"length past the end":  mutate(lenAt, uint32(len(thumb)+1)),
		"length over the cap":  mutate(lenAt, maxPreviewBytes+1),
		"offset past the end":  mutate(offAt, 1<<30),
		"offset not at a JPEG": mutate(offAt, 8),
		"IFD1 loops to IFD0":   mutate(8+2+12, 8),
	}
	for name, data := range cases {
		if got := ThumbnailBytes(data); got != nil {
			t.Errorf("%s: got a %d-byte thumbnail, want none", name, len(got))
		}
	}
}

func TestThumbnailMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gone.jpg")
	_, err := Thumbnail(path)
	if err == nil || !os.IsNotExist(err) && !strings.Contains(err.Error(), path) {
		t.Fatalf("want a not-found error naming %s, got %v", path, err)
	}
}

// Real cameras' JPEGs: most carry an EXIF preview, and every one found must be a JPEG.
func TestThumbnailCorpus(t *testing.T) {
	dir := fixture.CorpusDir(t)
	paths, _ := filepath.Glob(filepath.Join(dir, "digicam", "*", "*", "*.JPG"))
	if len(paths) == 0 {
		t.Skipf("no JPEGs under %s/digicam", dir)
	}
	found := 0
	for _, p := range paths {
		thumb, err := Thumbnail(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if thumb == nil {
			continue
		}
		found++
		if _, err := jpeg.DecodeConfig(bytes.NewReader(thumb)); err != nil {
			t.Errorf("%s: thumbnail of %d bytes does not decode: %v", p, len(thumb), err)
		}
	}
	t.Logf("%d of %d camera JPEGs carry an EXIF thumbnail", found, len(paths))
	if found*2 < len(paths) {
		t.Errorf("only %d of %d camera JPEGs gave a thumbnail; most cameras write one", found, len(paths))
	}
}

func FuzzThumbnail(f *testing.F) {
	addTestdataSeeds(f, func(_ string, data []byte) { f.Add(data) })
	previews, _ := filepath.Glob(filepath.Join("testdata", "preview", "*.*"))
	for _, p := range previews {
		if data, err := os.ReadFile(p); err == nil && filepath.Ext(p) != ".sh" {
			f.Add(data)
		}
	}
	f.Add(jpegWithThumb(f, binary.LittleEndian, smallJPEG(f, 8, 8)))
	f.Add(thumbTIFF(binary.BigEndian, smallJPEG(f, 8, 8)))
	f.Add(rawTIFF(f, binary.LittleEndian))
	f.Add(cr3Previews(smallJPEG(f, 16, 12), smallJPEG(f, 200, 150)))
	f.Fuzz(func(t *testing.T, data []byte) {
		thumb := ThumbnailBytes(data)
		if thumb == nil {
			return
		}
		if len(thumb) > maxPreviewBytes || thumb[0] != 0xFF || thumb[1] != 0xD8 {
			t.Fatalf("bad thumbnail: %d bytes starting % x", len(thumb), thumb[:min(4, len(thumb))])
		}
		if !bytes.Contains(data, thumb) {
			t.Fatalf("thumbnail is not a span of the file")
		}
	})
}
