package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// A --backup folder that is not there (a typo, or a backup drive that is
// not mounted, whose mount point is an empty folder on the system disk)
// is refused before anything is done: it is never created and filled.
func TestBackupFolderThatIsNotThereIsRefused(t *testing.T) {
	for _, c := range []struct{ name, backup string }{
		{"its parent missing too", filepath.Join("nonexistent", "x")},
		{"in an empty mount point", filepath.Join("media", "usb", "Photos")},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			src, lib := filepath.Join(root, "card"), filepath.Join(root, "lib")
			tree(t, src, map[string][]byte{"IMG_1.JPG": photo(2019, 7, 4, 10, "one")})
			if err := os.MkdirAll(filepath.Join(root, "media", "usb"), 0o755); err != nil {
				t.Fatal(err)
			}
			backup := filepath.Join(root, c.backup)
			cfg := relConfig([]string{src}, lib, &recorder{})
			cfg.Backup, cfg.Mode = backup, transfer.Move
			run, err := Open(cfg)
			if err == nil {
				run.All(t.Context())
				run.Close()
			}
			if !errors.Is(err, ErrConfig) || !strings.Contains(fmt.Sprint(err), "is not there") {
				t.Errorf("--backup %s: err = %v, want it refused as not there", backup, err)
			}
			if _, err := os.Stat(backup); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the backup folder was created: %v", err)
			}
			if _, err := os.Stat(filepath.Join(src, "IMG_1.JPG")); err != nil {
				t.Errorf("the source was moved: %v", err)
			}
		})
	}
}
