package archive

import (
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
		"iCloud Photos Part 1-0001.ZIP":       "iCloud Photos Part 1",
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
