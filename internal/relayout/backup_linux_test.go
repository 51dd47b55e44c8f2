package relayout_test

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/fsx/faultfuse"
	"github.com/shoebox-photos/shoebox/internal/relayout"
)

// The backup drive goes away in the middle of a relayout: the run stops
// with one error that names the backup drive, writes nothing in the empty
// mount point, and every file and backup copy is whole in its old place
// or its new one; once the drive is back, the same relayout moves the
// copies it left behind and the rest, and the backup mirrors the library.
func TestRelayoutStopsWhenTheBackupDriveGoesAway(t *testing.T) {
	d := faultfuse.Mount(t)
	lib, local := libraryWithBackup(t)
	bak := filepath.Join(d.Mount, "Photos")
	if err := os.CopyFS(bak, os.DirFS(local)); err != nil { // the backup, record and all, onto the drive
		t.Fatal(err)
	}
	before := tree(t, lib)
	opt := options(t, lib, byDay, byMonth)
	opt.Backup = bak
	d.FailAt(faultfuse.OpRename, 2, faultfuse.Vanished)
	_, err := relayout.Run(context.Background(), opt)
	if !errors.Is(err, fsx.ErrGone) || !strings.Contains(err.Error(), "backup drive") {
		t.Fatalf("relayout with the backup drive gone: %v; want a stop naming the backup drive", err)
	}
	if !d.WaitGone(10 * time.Second) {
		t.Fatal("the drive set to vanish is still mounted")
	}
	if left := d.Underneath(); len(left) != 0 {
		t.Errorf("written in the empty mount point: %v", left)
	}
	oldOrNew(t, lib, before)
	d.Set(faultfuse.Healthy)
	oldOrNew(t, bak, before)
	if _, err := relayout.Run(context.Background(), opt); err != nil {
		t.Fatalf("relayout once the drive is back: %v", err)
	}
	if got, want := tree(t, bak), tree(t, lib); !maps.Equal(got, want) {
		t.Errorf("the backup does not mirror the library: %v, %v", names(got), names(want))
	}
	intact(t, lib)
}
