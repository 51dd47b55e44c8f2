//go:build linux || darwin

package eject

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// card writes files (relative path → content) under a fresh folder,
// which stands for a volume's mount point, and returns it.
func card(t *testing.T, files map[string]string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestStaysOnCountsWhatTheRunNeverMet: photos and videos outside the
// folders sorted, hidden or in system clutter, or in another library keep
// the card; what is no photo or video by name, empty, a Mac's ._ file, a
// link, or behind another mount does not.
func TestStaysOnCountsWhatTheRunNeverMet(t *testing.T) {
	root := card(t, map[string]string{
		"DCIM/100CANON/IMG_1.JPG":        "photo",            // sorted: the run says what became of it
		"DCIM/100CANON/.hide/IMG_2.JPG":  "photo",            // hidden below the source
		"DCIM/100CANON/@eaDir/IMG_3.JPG": "photo",            // NAS clutter below the source
		"DCIM/100CANON/._IMG_1.JPG":      "\x00\x05\x16\x07", // a Mac's metadata, no photo
		"DCIM/100CANON/IMG_1.xmp":        "sidecar",
		"DCIM/101CANON/MVI_4.MOV":        "video", // beside the source
		"DCIM/101CANON/EMPTY.JPG":        "",      // nothing to lose
		"MISC/notes.txt":                 "text",
		"MISC/card.raw":                  "only content says what a .raw is",
		"old/lib/.shoebox/lock":          "x", // another library outside: outside anyway
		"old/lib/2019/IMG_5.JPG":         "photo",
		"other/IMG_6.JPG":                "photo", // behind another mount: never entered
	})
	if err := os.Symlink(filepath.Join(root, "DCIM", "101CANON", "MVI_4.MOV"), filepath.Join(root, "DCIM", "100CANON", "link.MOV")); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(root, "DCIM", "100CANON")
	v := volume{point: root, inner: map[string]bool{filepath.Join(root, "other"): true}}
	got := staysOn(v, []source{{src, src}}, Request{Sources: []string{src}})
	want := Stays{
		Count: 4,
		Paths: []string{
			filepath.Join(root, "DCIM/100CANON/.hide/IMG_2.JPG"),
			filepath.Join(root, "DCIM/100CANON/@eaDir/IMG_3.JPG"),
			filepath.Join(root, "DCIM/101CANON/MVI_4.MOV"),
			filepath.Join(root, "old/lib/2019/IMG_5.JPG"),
		},
		Whys: []string{whyHidden, whyClutter, whyOutside},
	}
	sort.Strings(want.Whys)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("staysOn:\n got %+v\nwant %+v", got, want)
	}

	// With --hidden the run met the hidden ones itself.
	got = staysOn(v, []source{{src, src}}, Request{Sources: []string{src}, Hidden: true})
	if got.Count != 2 || !reflect.DeepEqual(got.Whys, []string{whyOutside}) {
		t.Errorf("with --hidden: %+v, want the two outside the source", got)
	}

	// Sorting the whole card leaves nothing unmet but the other
	// library, now inside the source, which the scan does not enter.
	got = staysOn(v, []source{{root, root}}, Request{Sources: []string{root}, Hidden: true})
	if got.Count != 1 || !reflect.DeepEqual(got.Whys, []string{whyLibrary}) {
		t.Errorf("whole card: %+v, want old/lib's photo alone", got)
	}
}

// TestStaysOnNestedLibrary: a shoebox library inside a source is not
// entered by the scan, so its photos were never met; one given as the
// source is.
func TestStaysOnNestedLibrary(t *testing.T) {
	root := card(t, map[string]string{
		"lib/.shoebox/lock":  "x",
		"lib/2019/IMG_1.JPG": "photo",
		"DCIM/IMG_2.JPG":     "photo",
	})
	got := staysOn(volume{point: root}, []source{{root, root}}, Request{Sources: []string{root}})
	if got.Count != 1 || !reflect.DeepEqual(got.Whys, []string{whyLibrary}) {
		t.Errorf("a library inside the source: %+v, want its one photo, %q", got, whyLibrary)
	}
	lib := filepath.Join(root, "lib")
	got = staysOn(volume{point: root}, []source{{lib, lib}}, Request{Sources: []string{lib}})
	if got.Count != 1 || got.Paths[0] != filepath.Join(root, "DCIM", "IMG_2.JPG") {
		t.Errorf("the library as the source: %+v, want only DCIM/IMG_2.JPG, outside it", got)
	}
}

// TestStaysOnTheRunsOwnList: what the run left on a source, named under
// the SRC as given (relative, or through a link), is listed at its real
// path; one under no source at all is counted too, to be safe.
func TestStaysOnTheRunsOwnList(t *testing.T) {
	root := card(t, map[string]string{"DCIM/IMG_1.JPG": "photo", "DCIM/IMG_2.JPG": "photo"})
	link := filepath.Join(t.TempDir(), "card")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	src, real := filepath.Join(link, "DCIM"), filepath.Join(root, "DCIM")
	req := Request{Sources: []string{src}, Left: []Left{
		{filepath.Join(src, "IMG_1.JPG"), "left out by --since"},
		{"/elsewhere/IMG_9.JPG", "failed"},
	}}
	got := staysOn(volume{point: root}, []source{{src, real}}, req)
	want := Stays{Count: 2, Paths: []string{"/elsewhere/IMG_9.JPG", filepath.Join(real, "IMG_1.JPG")}, Whys: []string{"failed", "left out by --since"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("staysOn:\n got %+v\nwant %+v", got, want)
	}

	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chdir(wd) })
	if err := os.Chdir(root); err != nil {
		t.Fatal(err)
	}
	// A relative SRC: the run names its files absolute.
	req = Request{Sources: []string{"DCIM"}, Left: []Left{{filepath.Join(root, "DCIM", "IMG_2.JPG"), "left out by --exclude"}}}
	got = staysOn(volume{point: root}, []source{{"DCIM", real}}, req)
	if got.Count != 1 || got.Paths[0] != filepath.Join(real, "IMG_2.JPG") {
		t.Errorf("relative SRC: %+v", got)
	}
}

// TestStaysOnListsTheFirstAndCountsAll: the first Listed paths by name,
// every one counted; past walkCap entries the look stops and says so.
func TestStaysOnListsTheFirstAndCountsAll(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 12; i++ {
		files[fmt.Sprintf("DCIM/101CANON/IMG_%02d.JPG", 11-i)] = "photo"
	}
	root := card(t, files)
	src := filepath.Join(root, "DCIM", "100CANON")
	got := staysOn(volume{point: root}, []source{{src, src}}, Request{Sources: []string{src}})
	if got.Count != 12 || len(got.Paths) != Listed || !strings.HasSuffix(got.Paths[0], "IMG_00.JPG") || !strings.HasSuffix(got.Paths[Listed-1], "IMG_04.JPG") {
		t.Errorf("got %+v, want 12 counted, IMG_00 to IMG_04 listed", got)
	}

	defer func(n int) { walkCap = n }(walkCap)
	walkCap = 5
	got = staysOn(volume{point: root}, []source{{root, root}}, Request{Sources: []string{root}})
	if !got.Keeps() || !strings.Contains(got.Unchecked, "stopped after 5") {
		t.Errorf("past the cap: %+v, want the card kept, unchecked", got)
	}
}

// TestStaysOnAnUnreadableFolder: a folder the look cannot read keeps the
// card (what is in it is unknown); the rest is still counted. ext4's
// lost+found at the volume's root, root's alone, does not.
func TestStaysOnAnUnreadableFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every folder")
	}
	root := card(t, map[string]string{"DCIM/IMG_1.JPG": "photo", "lost+found/x": "x", "locked/IMG_2.JPG": "photo", "z/IMG_3.JPG": "photo"})
	for _, d := range []string{"lost+found", "locked"} {
		p := filepath.Join(root, d)
		if err := os.Chmod(p, 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(p, 0o755) })
	}
	src := filepath.Join(root, "DCIM")
	got := staysOn(volume{point: root}, []source{{src, src}}, Request{Sources: []string{src}})
	if got.Count != 1 || !strings.Contains(got.Unchecked, "could not read "+filepath.Join(root, "locked")) {
		t.Errorf("got %+v, want z/IMG_3.JPG counted and locked unchecked", got)
	}
}
