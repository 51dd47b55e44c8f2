package pipeline

import (
	"os"
	"path/filepath"
	"testing"
)

// A sidecar edited at the source after its photo was imported cannot join
// the photo's copy under its name (the older sidecar is there): it stays
// in place, and the run says so truly, as a warning naming the file that
// holds its name. It said "its photo's copy in the library changed since
// it was compared" (false: the photo is untouched), counted among files
// left alone, and the edit stayed on a card about to be formatted.
func TestEditedSidecarOfAPhotoInTheLibraryIsNamed(t *testing.T) {
	root := t.TempDir()
	card, lib := filepath.Join(root, "card"), filepath.Join(root, "lib")
	tree(t, card, map[string][]byte{"IMG_0001.JPG": photo(2019, 7, 4, 10, "a"), "IMG_0001.xmp": []byte("<x:xmpmeta>v1</x:xmpmeta>")})
	if sum, _ := sortTree(t, []string{card}, lib); sum.Transferred != 2 {
		t.Fatalf("first sort: %+v", sum)
	}
	xmp := filepath.Join(card, "IMG_0001.xmp")
	if err := os.WriteFile(xmp, []byte("<x:xmpmeta>v2, edited</x:xmpmeta>"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, rec := sortTree(t, []string{card}, lib)
	if sum.Identical != 1 || sum.Transferred != 0 {
		t.Fatalf("re-run: %+v", sum)
	}
	if rec.reportedWith(xmp, "changed since it was compared") {
		t.Errorf("the sidecar's photo is said to have changed in the library; it did not")
	}
	taken := filepath.Join(lib, "2019", "2019-07-04", "IMG_0001.xmp")
	warned := false
	for _, ev := range rec.events {
		warned = warned || ev.Type == "warning" && ev.Src == xmp && rec.reportedWith(xmp, taken)
	}
	if !warned {
		t.Errorf("no warning names the sidecar left in place and the file holding its name: %v", rec.events)
	}
	if got, _ := os.ReadFile(xmp); string(got) != "<x:xmpmeta>v2, edited</x:xmpmeta>" {
		t.Errorf("the edited sidecar was changed: %q", got)
	}
}
