package pipeline

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// A photo and its sidecars are one group: the sidecars are transferred
// first, the photo last, and a photo whose sidecar failed stays where it
// is. A killed or failed run can then leave a sidecar without its photo
// (which the same command sends after it) but never a photo whose sidecar
// stayed behind: in move mode that sidecar would be an orphan no later run
// reunites with its photo (found by TestChaos, issue 11).
func TestSidecarIsNeverLeftBehindItsPhoto(t *testing.T) {
	sidecar := []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"></x:xmpmeta>`)
	files := threePhotos()
	files["IMG_1.xmp"] = sidecar

	// Order: the sidecar lands before its photo.
	ordered := newRelCase(t, files)
	ordered.cfg.Mode = transfer.Move
	recorder := fsx.NewFaults(fsx.OS)
	ordered.cfg.FS = recorder
	ordered.mustSort()
	order := map[string]int{}
	for i, p := range recorder.Calls("rename") {
		order[filepath.Base(p)] = i + 1
	}
	if order["IMG_1.xmp"] == 0 || order["IMG_1.JPG"] == 0 || order["IMG_1.JPG"] < order["IMG_1.xmp"] {
		t.Errorf("the photo was not moved after its sidecar: %q", recorder.Calls("rename"))
	}

	// A failed sidecar keeps its photo with it.
	c := newRelCase(t, files)
	c.cfg.Mode = transfer.Move
	c.cfg.FS = fsx.NewFaults(fsx.OS).Add(fsx.Rule{Op: "rename", Path: "IMG_1.xmp", Err: syscall.EIO})
	c.sortAll()
	if reason := c.rec.failed()[filepath.Join(c.src, "IMG_1.JPG")]; !strings.Contains(reason, "IMG_1.xmp") {
		t.Errorf("the photo whose sidecar failed: reason %q, want it failed naming the sidecar", reason)
	}
	if got := snapshot(t, c.src); len(got) != 2 {
		t.Errorf("after the failed sidecar the sources hold %v, want the photo and its sidecar", keys(got))
	}

	c.cfg.FS = nil
	c.mustSort()
	assertSame(t, snapshot(t, c.dst), map[string]string{
		day + "IMG_1.JPG": string(files["IMG_1.JPG"]), day + "IMG_1.xmp": string(sidecar),
		day + "IMG_2.JPG": string(files["IMG_2.JPG"]), day + "IMG_3.JPG": string(files["IMG_3.JPG"]),
	})
	if got := snapshot(t, c.src); len(got) != 0 {
		t.Errorf("after the re-run the sources still hold %v", keys(got))
	}
}

// Copies are made durable in batches (transfer.Staged): a sidecar whose
// fsync fails is found only when its batch is finished, after its photo
// was staged too. The photo is then discarded, not renamed into place, and
// nothing of either is left in the library.
func TestSidecarFailingInItsBatchKeepsItsPhotoOut(t *testing.T) {
	sidecar := []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"></x:xmpmeta>`)
	files := threePhotos()
	files["IMG_1.xmp"] = sidecar
	c := newRelCase(t, files)
	faults := fsx.NewFaults(fsx.OS).Add(fsx.Rule{Op: "sync", Path: "IMG_1.xmp", Err: syscall.EIO})
	c.cfg.FS = faults
	c.sortAll()
	if reason := c.rec.failed()[filepath.Join(c.src, "IMG_1.JPG")]; !strings.Contains(reason, "IMG_1.xmp") {
		t.Errorf("the photo whose sidecar failed: reason %q, want it failed naming the sidecar", reason)
	}
	for _, r := range faults.Calls("rename") {
		if strings.Contains(r, "IMG_1.") {
			t.Errorf("renamed into place although its sidecar's fsync failed: %s", r)
		}
	}
	assertNoTemps(t, c.dst)
	if got := snapshot(t, c.src); len(got) != 4 {
		t.Errorf("the sources hold %v, want all four untouched", keys(got))
	}

	c.cfg.FS = nil
	c.mustSort()
	if got := snapshot(t, c.dst); got[day+"IMG_1.JPG"] != string(files["IMG_1.JPG"]) || got[day+"IMG_1.xmp"] != string(sidecar) {
		t.Errorf("after the re-run the library holds %v", keys(got))
	}
}
