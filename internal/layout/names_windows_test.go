package layout

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestSafeNamesLandAsPlannedOnWindows checks the name rules against the
// filesystem itself: every hostile name, once made safe, is created under
// exactly that name (not a device, not trimmed, not refused), so what the
// planner checked for collisions is what ends up on disk.
func TestSafeNamesLandAsPlannedOnWindows(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{
		"CON", "con.jpg", "NUL.txt", "Aux.heic", "COM1.jpg", "lpt9.mov", "PRN .jpg",
		"trailing.", "trailing ", "dots...", "a:b.jpg", `a<b>c?.jpg`, "pipe|star*.jpg",
	} {
		safe := SafeName(name)
		p := filepath.Join(dir, safe)
		if err := os.WriteFile(p, []byte(name), 0o644); err != nil {
			t.Errorf("SafeName(%q) = %q: cannot create it: %v", name, safe, err)
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, e := range entries {
			found = found || e.Name() == safe
		}
		if !found {
			t.Errorf("SafeName(%q) = %q, but the folder holds %v", name, safe, entryNames(entries))
		}
		os.Remove(p)
	}
}

// TestWindowsDropsWhatSafeNameRemoves is the premise of the rules above:
// Windows itself strips a trailing dot or space, so a name ending in one
// would land under another name than the planner checked.
func TestWindowsDropsWhatSafeNameRemoves(t *testing.T) {
	dir := t.TempDir()
	for raw, landed := range map[string]string{"photo.": "photo", "clip ": "clip"} {
		if err := os.WriteFile(filepath.Join(dir, raw), nil, 0o644); err != nil {
			t.Fatalf("create %q: %v", raw, err)
		}
		if _, err := os.Stat(filepath.Join(dir, landed)); err != nil {
			t.Errorf("created %q, but %q is not there: %v", raw, landed, err)
		}
		if SafeName(raw) != landed {
			t.Errorf("SafeName(%q) = %q, want the name Windows gives it, %q", raw, SafeName(raw), landed)
		}
		os.Remove(filepath.Join(dir, landed))
	}
}

// TestFoldKeyCoversWindowsCaseCollisions: names Windows opens as one file
// share a FoldKey, so the planner sees their collision.
func TestFoldKeyCoversWindowsCaseCollisions(t *testing.T) {
	dir := t.TempDir()
	for a, b := range map[string]string{"IMG_0001.JPG": "img_0001.jpg", "ÉTÉ.jpg": "été.jpg", "Straße.jpg": "STRASSE.jpg"} {
		if err := os.WriteFile(filepath.Join(dir, a), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := os.Stat(filepath.Join(dir, b))
		same := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		t.Logf("%q then %q: the same file on this filesystem: %v", a, b, same)
		if a == "IMG_0001.JPG" && !same {
			t.Errorf("%q and %q are two files: this filesystem is case-sensitive, not Windows'", a, b)
		}
		if same && FoldKey(a) != FoldKey(b) {
			t.Errorf("%q and %q are one file here, but FoldKey tells them apart", a, b)
		}
		os.Remove(filepath.Join(dir, a))
	}
}

func entryNames(entries []os.DirEntry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
