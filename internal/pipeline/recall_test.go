package pipeline

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"shoebox/internal/importlog"
)

// bigPhoto is a real JPEG followed by size bytes of incompressible data
// (what a camera's image data is to a reader).
func bigPhoto(i, size int) []byte {
	b := photo(2019+i%3, time.Month(1+i%12), 1+i%28, 10, filepath.Join("p", string(rune('a'+i%26)), itoa(i)))
	pad := make([]byte, size)
	r := rand.New(rand.NewPCG(uint64(i), 7))
	for j := range pad {
		pad[j] = byte(r.Uint32())
	}
	return append(b, pad...)
}

func itoa(i int) string {
	return string(rune('0'+i/100%10)) + string(rune('0'+i/10%10)) + string(rune('0'+i%10))
}

func cardOf(t *testing.T, root string, n, size int) (string, map[string][]byte) {
	t.Helper()
	src := filepath.Join(root, "card")
	files := map[string][]byte{}
	for i := 0; i < n; i++ {
		files["DCIM/IMG_"+itoa(i)+".JPG"] = bigPhoto(i, size)
	}
	tree(t, src, files)
	return src, files
}

// outcomes maps each source to its op outcome.
func outcomes(rec *recorder) map[string]Outcome {
	out := map[string]Outcome{}
	for _, ev := range rec.events {
		if ev.Type == "op" {
			out[ev.Src] = ev.Outcome
		}
	}
	return out
}

// A re-run recognises every file from the history, with or without dedup,
// and says so; nothing is transferred.
func TestRerunRecognisesImportedFilesFromTheHistory(t *testing.T) {
	root := t.TempDir()
	src, files := cardOf(t, root, 20, 1000)
	lib := filepath.Join(root, "lib")
	if sum, _ := sortTree(t, []string{src}, lib); sum.Transferred != 20 {
		t.Fatalf("first run: %+v", sum)
	}
	for _, dedup := range []bool{true, false} {
		sum, rec := sortTree(t, []string{src}, lib, func(c *Config) { c.Dedup = dedup })
		if sum.Recalled != 20 || sum.Identical != 20 || sum.Transferred != 0 || sum.Media != 20 {
			t.Errorf("dedup=%v: re-run %+v; want all 20 recognised unread", dedup, sum)
		}
		for s, o := range outcomes(rec) {
			if o != OutIdentical {
				t.Errorf("%s: %s", s, o)
			}
		}
	}
	if n := len(snapshot(t, lib)); n != len(files) {
		t.Errorf("library holds %d files, want %d", n, len(files))
	}
}

// The rule trusts the change time: a source edited in place, same size,
// its mtime put back, is not recognised, and lands beside its old copy.
func TestSourceEditedInPlaceIsCaughtByItsChangeTime(t *testing.T) {
	root := t.TempDir()
	src, _ := cardOf(t, root, 3, 1000)
	lib := filepath.Join(root, "lib")
	sortTree(t, []string{src}, lib)
	p := filepath.Join(src, "DCIM/IMG_001.JPG")
	info, _ := os.Stat(p)
	b, _ := os.ReadFile(p)
	b[len(b)-1] ^= 0xff               // same size
	time.Sleep(20 * time.Millisecond) // let the change time move past the import's
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	sum, rec := sortTree(t, []string{src}, lib)
	if sum.Recalled != 2 || sum.Transferred != 1 || sum.Renamed != 1 {
		t.Errorf("summary %+v: want the edited source caught and landed under a new name", sum)
	}
	if o := outcomes(rec)[p]; o != OutRenamed {
		t.Errorf("edited source: %s, want %s", o, OutRenamed)
	}
}

// --checksum trusts no stat data: a library copy rewritten in place with
// the same size and mtime passes the quick check (documented), but not
// --checksum, which compares the bytes and imports the source again.
func TestChecksumCatchesALibraryCopyChangedInPlace(t *testing.T) {
	root := t.TempDir()
	src, files := cardOf(t, root, 3, 1000)
	lib := filepath.Join(root, "lib")
	sortTree(t, []string{src}, lib)
	srcPath := filepath.Join(src, "DCIM/IMG_001.JPG")
	copyPath := landedAt(t, lib, files["DCIM/IMG_001.JPG"])
	info, _ := os.Stat(copyPath)
	b, _ := os.ReadFile(copyPath)
	b[len(b)-1] ^= 0xff // bit rot, or a tool that puts the date back
	if err := os.WriteFile(copyPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(copyPath, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	sum, _ := sortTree(t, []string{src}, lib)
	if sum.Recalled != 3 || sum.Identical != 3 {
		t.Fatalf("quick check: %+v; want the three trusted (same size and mtime)", sum)
	}
	sum, rec := sortTree(t, []string{src}, lib, func(c *Config) { c.Checksum = true })
	if sum.Recalled != 0 || sum.Identical != 2 || sum.Transferred != 1 {
		t.Errorf("--checksum: %+v; want the changed copy caught, the source imported again", sum)
	}
	if o := outcomes(rec)[srcPath]; o != OutRenamed {
		t.Errorf("source of the changed copy: %s, want %s", o, OutRenamed)
	}
}

// landedAt finds the library file holding content.
func landedAt(t *testing.T, lib string, content []byte) string {
	t.Helper()
	for rel, got := range snapshot(t, lib) {
		if got == string(content) {
			return filepath.Join(lib, filepath.FromSlash(rel))
		}
	}
	t.Fatal("not in the library")
	return ""
}

// Culled photos stay culled; an edited copy does not bring its original
// back as -1; --reimport brings them back on purpose.
func TestCulledAndEditedPhotosStayOut(t *testing.T) {
	root := t.TempDir()
	src, files := cardOf(t, root, 4, 1000)
	lib := filepath.Join(root, "lib")
	sortTree(t, []string{src}, lib)
	culled := landedAt(t, lib, files["DCIM/IMG_000.JPG"])
	edited := landedAt(t, lib, files["DCIM/IMG_001.JPG"])
	if err := os.Remove(culled); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(edited, []byte("edited in an editor"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, lib)
	for _, dedup := range []bool{true, false} {
		sum, rec := sortTree(t, []string{src}, lib, func(c *Config) { c.Dedup = dedup })
		if sum.ImportedBefore != 2 || sum.Identical != 2 || sum.Transferred != 0 {
			t.Errorf("dedup=%v: %+v; want 2 imported before, 2 already there", dedup, sum)
		}
		got := outcomes(rec)
		for _, name := range []string{"IMG_000.JPG", "IMG_001.JPG"} {
			if o := got[filepath.Join(src, "DCIM", name)]; o != OutImportedBefore {
				t.Errorf("dedup=%v: %s: %s, want %s", dedup, name, o, OutImportedBefore)
			}
		}
	}
	assertSame(t, snapshot(t, lib), before)
	sum, _ := sortTree(t, []string{src}, lib, func(c *Config) { c.Reimport = true })
	if sum.Transferred != 2 || sum.ImportedBefore != 0 {
		t.Errorf("--reimport: %+v; want both brought back", sum)
	}
	if _, err := os.Stat(culled); err != nil {
		t.Errorf("culled photo not brought back to its place: %v", err)
	}
	// Brought back, they are in the history again: the next run reads nothing.
	if sum, _ := sortTree(t, []string{src}, lib); sum.Recalled != 4 || sum.Identical != 4 {
		t.Errorf("after --reimport: %+v; want all four recognised", sum)
	}
}

// A history from before this feature (or lost to a kill) heals itself:
// the first re-run compares by content and records, the next reads nothing.
func TestLostHistoryIsRebuiltByContent(t *testing.T) {
	root := t.TempDir()
	src, _ := cardOf(t, root, 5, 1000)
	lib := filepath.Join(root, "lib")
	sortTree(t, []string{src}, lib)
	if err := os.RemoveAll(importlog.Dir(StateDir(lib))); err != nil {
		t.Fatal(err)
	}
	if sum, _ := sortTree(t, []string{src}, lib); sum.Recalled != 0 || sum.Identical != 5 {
		t.Fatalf("without history: %+v", sum)
	}
	if sum, _ := sortTree(t, []string{src}, lib); sum.Recalled != 5 || sum.Identical != 5 {
		t.Errorf("after the healing run: %+v; want all recognised", sum)
	}
	// A torn history (a kill while pebble created it) is started anew with a warning.
	manifest, _ := filepath.Glob(filepath.Join(importlog.Dir(StateDir(lib)), "MANIFEST-*"))
	for _, m := range manifest {
		if err := os.Truncate(m, 3); err != nil {
			t.Fatal(err)
		}
	}
	sum, rec := sortTree(t, []string{src}, lib)
	if sum.Identical != 5 || sum.Failed != 0 {
		t.Errorf("torn history: %+v", sum)
	}
	if !rec.reportedWith("", "import history") && len(manifest) > 0 {
		t.Error("no warning about the torn history")
	}
}

// A dry run reads the history and predicts what the real run does,
// without writing to the library.
func TestDryRunPredictsFromTheHistory(t *testing.T) {
	root := t.TempDir()
	src, files := cardOf(t, root, 3, 1000)
	lib := filepath.Join(root, "lib")
	sortTree(t, []string{src}, lib)
	if err := os.Remove(landedAt(t, lib, files["DCIM/IMG_002.JPG"])); err != nil {
		t.Fatal(err)
	}
	state := snapshotAll(t, StateDir(lib))
	sum, _ := sortTree(t, []string{src}, lib, func(c *Config) { c.DryRun = true })
	if sum.ImportedBefore != 1 || sum.Identical != 2 || sum.Transferred != 0 {
		t.Errorf("dry run: %+v", sum)
	}
	if got := snapshotAll(t, StateDir(lib)); !bytes.Equal([]byte(got), []byte(state)) {
		t.Errorf("the dry run changed the library's state folder:\n%s\n%s", state, got)
	}
}

// snapshotAll lists every file under dir with its size and mtime.
func snapshotAll(t *testing.T, dir string) string {
	t.Helper()
	var b bytes.Buffer
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			b.WriteString(p + " " + info.ModTime().String() + " " + itoa(int(info.Size())) + "\n")
		}
		return nil
	})
	return b.String()
}
