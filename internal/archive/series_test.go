package archive

import (
	"os"
	"path/filepath"
	"testing"
)

// Numbered parts of one export share a series; anything else is its own.
func TestSeries(t *testing.T) {
	dir := filepath.Join("exports", "2024")
	for name, want := range map[string]string{
		"takeout-20240101T000000Z-001.zip":    "takeout-20240101T000000Z",
		"takeout-20240101T000000Z-012.tgz":    "takeout-20240101T000000Z",
		"takeout-20240101T000000Z-003.tar.gz": "takeout-20240101T000000Z",
		"iCloud Photos-001.ZIP":               "iCloud Photos",
		"trip-2019.zip":                       "",
		"iCloud Photos Part 1-0001.ZIP":       "",
		"photos.zip":                          "",
		"trip-12.zip":                         "",
		"-001.zip":                            "",
		"takeout-001a.zip":                    "",
		"takeout-001.jpg":                     "",
	} {
		got, ok := Series(filepath.Join(dir, name))
		if want == "" {
			if ok {
				t.Errorf("Series(%q) = %q, want none", name, got)
			}
			continue
		}
		if !ok || got != filepath.Join(dir, want) {
			t.Errorf("Series(%q) = %q, %v; want %q", name, got, ok, filepath.Join(dir, want))
		}
	}
}

// The parts missing below the highest given are named, per series.
func TestMissingParts(t *testing.T) {
	got := MissingParts([]string{"t-001.zip", "t-004.zip", "t-002.tgz", "takeout-x-002.zip", "u-002.zip", "photos.zip", "v-001.zip"})
	want := map[string][]int{"t": {3}, "takeout-x": {1}}
	if len(got) != len(want) {
		t.Fatalf("MissingParts = %v, want %v", got, want)
	}
	for s, nums := range want {
		if len(got[s]) != len(nums) || got[s][0] != nums[0] {
			t.Errorf("series %s: missing %v, want %v", s, got[s], nums)
		}
	}
	if got := MissingParts([]string{"t-2019.zip", "t-2021.zip"}); len(got) != 0 {
		t.Errorf("years taken for parts: %v", got)
	}
}

// SeriesParts finds the parts of an archive's series in its folder, by
// part number, and nothing else: not another series, not a folder named
// like a part, not a file that is no archive.
func TestSeriesParts(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{
		"takeout-A-003.zip", "takeout-A-001.zip", "takeout-A-002.tgz",
		"takeout-B-002.zip", "takeout-A-004.txt", "takeout-A.zip",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "takeout-A-005.zip"), 0o755); err != nil {
		t.Fatal(err)
	}
	got := SeriesParts(filepath.Join(dir, "takeout-A-003.zip"))
	want := []string{"takeout-A-001.zip", "takeout-A-002.tgz", "takeout-A-003.zip"}
	if len(got) != len(want) {
		t.Fatalf("SeriesParts = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != filepath.Join(dir, want[i]) {
			t.Errorf("part %d = %q, want %q", i, got[i], want[i])
		}
	}
	for _, alone := range []string{"takeout-A.zip", "takeout-B-002.zip"} {
		p := filepath.Join(dir, alone)
		if got := SeriesParts(p); len(got) != 1 || got[0] != p {
			t.Errorf("SeriesParts(%s) = %q, want itself alone", alone, got)
		}
	}
}
