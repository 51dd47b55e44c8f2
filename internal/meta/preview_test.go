package meta

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// jpegSize is the pixel size of a preview, failing the test when it is not a JPEG.
func jpegSize(t *testing.T, name string, b []byte) (int, int) {
	t.Helper()
	c, err := jpeg.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: preview of %d bytes does not decode: %v", name, len(b), err)
	}
	return c.Width, c.Height
}

// Real and generated files in testdata: which carry a preview, and its size.
func TestThumbnailFormats(t *testing.T) {
	cases := []struct {
		file string
		w, h int // 0: no preview
	}{
		{"FujiFilm.raf", 160, 120},                 // IFD1 of the header's JPEG, smaller than the preview
		{"preview/heif-exif-thumb.heif", 160, 120}, // EXIF IFD1 of a HEIF's Exif item
		{"preview/mp4-cover.mp4", 160, 120},        // ilst covr
		{"QuickTime.mov", 8, 8},                    // covr, the only one, however small
		{"CRW_0101.THM", 160, 120},                 // a THM is its own preview
		{"Canon.jpg", 8, 8},                        // no IFD1: a small JPEG is its own preview
		{"Panasonic.rw2", 0, 0},                    // its JpgFromRaw is cut short in this sample
		{"IMG_5195.HEIC", 0, 0},                    // only HEVC-coded thumbnails, which no browser shows
		{"CanonRaw.cr3", 0, 0},                     // THMB and PRVW hold placeholders in this sample
		{"DNG.dng", 0, 0},                          // previews stripped from this sample
	}
	for _, c := range cases {
		got, err := Thumbnail(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if c.w == 0 {
			if got != nil {
				t.Errorf("%s: got a %d-byte preview, want none", c.file, len(got))
			}
			continue
		}
		if got == nil {
			t.Errorf("%s: no preview, want %dx%d", c.file, c.w, c.h)
			continue
		}
		if w, h := jpegSize(t, c.file, got); w != c.w || h != c.h {
			t.Errorf("%s: preview is %dx%d, want %dx%d", c.file, w, h, c.w, c.h)
		}
	}
}

// rawTIFF is a TIFF-based RAW the way NEF, ARW and DNG lay out previews:
// IFD0 with a full-size JPEG strip over the cap and two SubIFDs (a
// 320×240 preview, and lossless raw data, which no browser shows), IFD1
// with a 160×120 thumbnail, IFD2 with a 64×48 one.
func rawTIFF(t testing.TB, order interface {
	binary.ByteOrder
	binary.AppendByteOrder
}) []byte {
	var (
		thumb   = smallJPEG(t, 160, 120)
		tiny    = smallJPEG(t, 64, 48)
		preview = smallJPEG(t, 320, 240)
		// A lossless JPEG (SOF3), as a DNG's raw data: SOI, SOF3, EOI.
		lossless = []byte{0xFF, 0xD8, 0xFF, 0xC3, 0, 11, 8, 0, 16, 0, 16, 1, 1, 0x11, 0, 0xFF, 0xD9}
	)
	out := make([]byte, 8, 1<<20)
	if order == binary.LittleEndian {
		copy(out, "II")
	} else {
		copy(out, "MM")
	}
	order.PutUint16(out[2:], 42)
	type entry struct {
		tag, typ uint16
		n, v     uint32
	}
	// ifd appends an IFD and returns where it starts and where its next pointer is.
	ifd := func(es []entry) (at, next int) {
		at = len(out)
		out = order.AppendUint16(out, uint16(len(es)))
		for _, e := range es {
			out = order.AppendUint16(out, e.tag)
			out = order.AppendUint16(out, e.typ)
			out = order.AppendUint32(out, e.n)
			if e.typ == 3 {
				out = order.AppendUint16(out, uint16(e.v))
				out = append(out, 0, 0)
			} else {
				out = order.AppendUint32(out, e.v)
			}
		}
		next = len(out)
		return at, next
	}
	blob := func(b []byte) uint32 {
		at := len(out)
		out = append(out, b...)
		return uint32(at)
	}
	pPreview, pThumb, pTiny, pLossless := blob(preview), blob(thumb), blob(tiny), blob(lossless)
	big := blob(append(append([]byte{0xFF, 0xD8, 0xFF}, make([]byte, maxPreviewBytes)...), 0xFF, 0xD9))
	sub1, _ := ifd([]entry{{tagCompression, 3, 1, 6}, {tagThumbOffset, 4, 1, pPreview}, {tagThumbLength, 4, 1, uint32(len(preview))}})
	out = append(out, 0, 0, 0, 0)
	sub2, _ := ifd([]entry{{tagCompression, 3, 1, 7}, {tagStripOffsets, 4, 1, pLossless}, {tagStripCounts, 4, 1, uint32(len(lossless))}})
	out = append(out, 0, 0, 0, 0)
	subArr := blob(order.AppendUint32(order.AppendUint32(nil, uint32(sub1)), uint32(sub2)))
	ifd0, next0 := ifd([]entry{{tagCompression, 3, 1, 6}, {tagStripOffsets, 4, 1, big},
		{tagStripCounts, 4, 1, uint32(maxPreviewBytes + 5)}, {tagSubIFDs, 4, 2, subArr}})
	out = append(out, 0, 0, 0, 0)
	ifd1, next1 := ifd([]entry{{tagThumbOffset, 4, 1, pThumb}, {tagThumbLength, 4, 1, uint32(len(thumb))}})
	out = append(out, 0, 0, 0, 0)
	ifd2, next2 := ifd([]entry{{tagThumbOffset, 4, 1, pTiny}, {tagThumbLength, 4, 1, uint32(len(tiny))}})
	out = append(out, 0, 0, 0, 0)
	order.PutUint32(out[4:], uint32(ifd0))
	order.PutUint32(out[next0:], uint32(ifd1))
	order.PutUint32(out[next1:], uint32(ifd2))
	order.PutUint32(out[next2:], 0)
	return out
}

func TestThumbnailRAWPicksSmallestUseful(t *testing.T) {
	for name, data := range map[string][]byte{"little": rawTIFF(t, binary.LittleEndian), "big": rawTIFF(t, binary.BigEndian)} {
		got := ThumbnailBytes(data)
		if got == nil {
			t.Fatalf("%s: no preview", name)
		}
		if w, h := jpegSize(t, name, got); w != 160 || h != 120 {
			t.Errorf("%s: picked the %dx%d preview, want the 160x120 thumbnail", name, w, h)
		}
	}
}

// Without IFD1's thumbnail, the next one up (the SubIFD's 320×240) is
// picked over the 64×48 one; the lossless strip and the full-size JPEG
// never are.
func TestThumbnailRAWWithoutThumbnail(t *testing.T) {
	data := rawTIFF(t, binary.LittleEndian)
	thumb := smallJPEG(t, 160, 120)
	i := bytes.Index(data, thumb)
	copy(data[i:], make([]byte, 3)) // no longer a JPEG
	got := ThumbnailBytes(data)
	if got == nil {
		t.Fatal("no preview")
	}
	if w, h := jpegSize(t, "raw", got); w != 320 || h != 240 {
		t.Errorf("picked %dx%d, want the 320x240 preview", w, h)
	}
}

// cr3Previews is a CR3's box layout: Canon's uuid with a THMB, and the
// PRVW uuid, each JPEG at 16 bytes into its box.
func cr3Previews(thumb, preview []byte) []byte {
	box := func(typ string, payload ...[]byte) []byte {
		body := bytes.Join(payload, nil)
		return append(binary.BigEndian.AppendUint32(nil, uint32(8+len(body))), append([]byte(typ), body...)...)
	}
	thmb := box("THMB", []byte{0, 0, 0, 0, 0, 160, 0, 120}, binary.BigEndian.AppendUint32(nil, uint32(len(thumb))), []byte{0, 1, 0, 0}, thumb)
	prvw := box("PRVW", []byte{0, 0, 0, 0, 0, 1, 6, 0x54, 4, 0x38, 0, 1}, binary.BigEndian.AppendUint32(nil, uint32(len(preview))), preview)
	return bytes.Join([][]byte{
		box("ftyp", []byte("crx \x00\x00\x00\x01crx isom")),
		box("moov", box("uuid", []byte(canonUUID), thmb)),
		box("uuid", []byte(prvwUUID), make([]byte, 8), prvw),
		box("mdat", make([]byte, 64)),
	}, nil)
}

func TestThumbnailCR3(t *testing.T) {
	thumb, preview := smallJPEG(t, 160, 120), smallJPEG(t, 400, 300)
	if got := ThumbnailBytes(cr3Previews(thumb, preview)); !bytes.Equal(got, thumb) {
		t.Errorf("got %d bytes, want the THMB's %d", len(got), len(thumb))
	}
	// A THMB too small to be useful loses to the PRVW.
	small := smallJPEG(t, 80, 60)
	if got := ThumbnailBytes(cr3Previews(small, preview)); !bytes.Equal(got, preview) {
		t.Errorf("got %d bytes, want the PRVW's %d", len(got), len(preview))
	}
}

// A camera pads its preview to a block: the padding is dropped, and a
// preview cut short (no EOI) is refused.
func TestThumbnailPaddingAndTruncation(t *testing.T) {
	thumb := smallJPEG(t, 160, 120)
	padded := append(bytes.Clone(thumb), make([]byte, 100)...)
	if got := ThumbnailBytes(thumbTIFF(binary.LittleEndian, padded)); !bytes.Equal(got, thumb) {
		t.Errorf("padded: got %d bytes, want %d", len(got), len(thumb))
	}
	if got := ThumbnailBytes(thumbTIFF(binary.LittleEndian, thumb[:len(thumb)-40])); got != nil {
		t.Errorf("truncated: got a %d-byte preview, want none", len(got))
	}
}

// A video with a THM beside it (MVI_0001.AVI, MVI_0001.THM) shows the THM.
func TestThumbnailSiblingTHM(t *testing.T) {
	dir := t.TempDir()
	thm, err := os.ReadFile(filepath.Join("testdata", "CRW_0101.THM"))
	if err != nil {
		t.Fatal(err)
	}
	avi, err := os.ReadFile(filepath.Join("testdata", "RIFF.avi"))
	if err != nil {
		t.Fatal(err)
	}
	video := filepath.Join(dir, "MVI_0001.AVI")
	for p, b := range map[string][]byte{video: avi, filepath.Join(dir, "MVI_0001.THM"): thm, filepath.Join(dir, "MVI_0002.AVI"): avi} {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Thumbnail(video)
	if err != nil || got == nil || !bytes.HasPrefix(thm, got) {
		t.Fatalf("MVI_0001.AVI: got %d bytes (%v), want the THM's %d", len(got), err, len(thm))
	}
	if w, h := jpegSize(t, "THM", got); w != 160 || h != 120 {
		t.Errorf("MVI_0001.AVI: preview is %dx%d, want the THM's 160x120", w, h)
	}
	if got, _ := Thumbnail(filepath.Join(dir, "MVI_0002.AVI")); got != nil {
		t.Errorf("MVI_0002.AVI has no THM, got a %d-byte preview", len(got))
	}
}

// Real camera RAWs and videos from ../shared/corpus: the CRWs carry a
// 160×120 thumbnail beside a 640×480 JpgFromRaw.
func TestThumbnailCorpusRAW(t *testing.T) {
	dir := corpusDir(t)
	for _, rel := range []string{"digicam/Canon/PowerShot G2/CRW_0304.CRW", "digicam/Canon/PowerShot S40/CRW_0101.CRW",
		"exiftool-images/FujiFilm.raf"} {
		p := filepath.Join(dir, rel)
		got, err := Thumbnail(p)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if got == nil {
			t.Errorf("%s: no preview", rel)
			continue
		}
		if w, h := jpegSize(t, rel, got); w != 160 || h != 120 {
			t.Errorf("%s: preview is %dx%d, want the 160x120 thumbnail", rel, w, h)
		}
	}
}

// Cover art may be a PNG (data type 14): it is returned as it is.
func TestThumbnailPNGCoverArt(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 200, 150))
	var pngData bytes.Buffer
	if err := png.Encode(&pngData, img); err != nil {
		t.Fatal(err)
	}
	box := func(typ string, payload ...[]byte) []byte {
		body := bytes.Join(payload, nil)
		return append(binary.BigEndian.AppendUint32(nil, uint32(8+len(body))), append([]byte(typ), body...)...)
	}
	data := box("data", []byte{0, 0, 0, 14, 0, 0, 0, 0}, pngData.Bytes())
	hdlr := box("hdlr", make([]byte, 8), []byte("mdirappl"), make([]byte, 9))
	mov := bytes.Join([][]byte{
		box("ftyp", []byte("M4V \x00\x00\x00\x01M4V isom")),
		box("moov", box("udta", box("meta", make([]byte, 4), hdlr, box("ilst", box("covr", data))))),
	}, nil)
	got := ThumbnailBytes(mov)
	if !bytes.Equal(got, pngData.Bytes()) {
		t.Fatalf("got %d bytes, want the %d-byte PNG", len(got), pngData.Len())
	}
	cut := bytes.Replace(mov, pngData.Bytes()[pngData.Len()-12:], make([]byte, 12), 1)
	if got := ThumbnailBytes(cut); got != nil {
		t.Errorf("a PNG without IEND gave a %d-byte preview", len(got))
	}
}
