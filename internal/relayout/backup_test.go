package relayout_test

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/config"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/relayout"
	"github.com/shoebox-photos/shoebox/internal/undo"
)

// libraryWithBackup is library with a backup folder that the sorts
// filled (--backup): it mirrors the library.
func libraryWithBackup(t *testing.T) (lib, bak string) {
	t.Helper()
	dir := t.TempDir()
	card1, card2 := filepath.Join(dir, "card1"), filepath.Join(dir, "card2")
	lib, bak = filepath.Join(dir, "lib"), filepath.Join(dir, "bak")
	write(t, filepath.Join(card1, "IMG_1.JPG"), jpeg(1, "IMG_1"))
	write(t, filepath.Join(card1, "IMG_1.xmp"), []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"/>`))
	write(t, filepath.Join(card1, "IMG_2.JPG"), jpeg(2, "IMG_2 first"))
	write(t, filepath.Join(card1, "PAIR.JPG"), jpeg(3, "PAIR"))
	write(t, filepath.Join(card2, "IMG_2.JPG"), jpeg(4, "IMG_2 second"))
	if err := os.Mkdir(bak, 0o755); err != nil {
		t.Fatal(err)
	}
	shoebox(t, "sort", "--backup", bak, card1, lib)
	shoebox(t, "sort", "--backup", bak, card2, lib)
	if got, want := tree(t, bak), tree(t, lib); !maps.Equal(got, want) {
		t.Fatalf("the backup does not mirror the library before the relayout: %v, %v", names(got), names(want))
	}
	return lib, bak
}

var wantBackupByMonth = []string{"2024/05/IMG_1.JPG", "2024/05/IMG_1.xmp", "2024/05/IMG_2-1.JPG", "2024/05/IMG_2.JPG", "2024/05/PAIR.JPG"}

// The backup copies move with the files, in the same run: the backup
// mirrors the library in the new layout, the folders the moves emptied
// go there too, and undo puts both back.
func TestRelayoutMovesTheBackupCopies(t *testing.T) {
	lib, bak := libraryWithBackup(t)
	before := tree(t, lib)
	opt := options(t, lib, byDay, byMonth)
	opt.Backup = bak
	st, err := relayout.Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if st.Backup != bak || st.BackupMoved != 5 || st.BackupMissing+st.BackupFailed != 0 {
		t.Errorf("stats %+v; want 5 backup copies moved", st)
	}
	if got := names(tree(t, bak)); strings.Join(got, " ") != strings.Join(wantBackupByMonth, " ") {
		t.Errorf("backup after relayout: %v", got)
	}
	if !maps.Equal(tree(t, bak), tree(t, lib)) {
		t.Error("the backup's files differ from the library's after the relayout")
	}
	if _, err := os.Stat(filepath.Join(bak, "2024", "2024-05-01")); err == nil {
		t.Error("the backup folder the moves emptied is still there")
	}
	intact(t, lib)
	if _, err := undo.Last(context.Background(), lib, undo.Options{}); err != nil {
		t.Fatal(err)
	}
	if got := tree(t, lib); !maps.Equal(got, before) {
		t.Errorf("library after undo: %v", names(got))
	}
	if got := tree(t, bak); !maps.Equal(got, before) {
		t.Errorf("backup after undo: %v, want %v", names(got), names(before))
	}
}

// The library's recorded backup is used without --backup, and the dry
// run counts its copies without moving any.
func TestRelayoutUsesTheRecordedBackup(t *testing.T) {
	lib, bak := libraryWithBackup(t)
	s, _, err := config.ReadFile(config.LibraryPath(lib))
	if err != nil {
		t.Fatal(err)
	}
	s.Backup = &bak
	if err := config.SaveLibrary(lib, s); err != nil {
		t.Fatal(err)
	}
	beforeBak := tree(t, bak)
	dry := options(t, lib, byDay, byMonth)
	dry.DryRun = true
	st, err := relayout.Run(context.Background(), dry)
	if err != nil || st.Backup != bak || st.BackupMoved != 5 {
		t.Fatalf("dry run: %+v, %v", st, err)
	}
	if !maps.Equal(tree(t, bak), beforeBak) {
		t.Fatal("the dry run changed the backup")
	}
	if st, err := relayout.Run(context.Background(), options(t, lib, byDay, byMonth)); err != nil || st.BackupMoved != 5 {
		t.Fatalf("relayout with the recorded backup: %+v, %v", st, err)
	}
	if !maps.Equal(tree(t, bak), tree(t, lib)) {
		t.Error("the backup does not mirror the library after the relayout")
	}
}

// A copy missing from the backup, and one whose new place there is
// taken by a file of the user's: both are reported and left, the library
// still moves whole, nothing in the backup is overwritten, and the new
// template is recorded.
func TestRelayoutLeavesMissingAndBlockedBackupCopies(t *testing.T) {
	lib, bak := libraryWithBackup(t)
	if err := os.Remove(filepath.Join(bak, "2024", "2024-05-03", "PAIR.JPG")); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(bak, "2024", "05", "IMG_1.JPG")
	write(t, mine, []byte("the user's own file"))
	opt := options(t, lib, byDay, byMonth)
	opt.Backup = bak
	var left []relayout.Left
	opt.BackupLeft = func(l relayout.Left) { left = append(left, l) }
	st, err := relayout.Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if st.BackupMissing != 1 || st.BackupFailed != 1 || st.BackupMoved != 3 || len(left) != 2 {
		t.Errorf("stats %+v, left %v; want 3 moved, 1 missing, 1 not moved", st, left)
	}
	if got := names(tree(t, lib)); strings.Join(got, " ") != strings.Join(wantBackupByMonth, " ") {
		t.Errorf("library: %v", got)
	}
	if b, _ := os.ReadFile(mine); string(b) != "the user's own file" {
		t.Error("the user's file in the backup was overwritten")
	}
	if _, err := os.Stat(filepath.Join(bak, "2024", "2024-05-01", "IMG_1.JPG")); err != nil {
		t.Errorf("the backup copy whose new place was taken is not at its old place: %v", err)
	}
	if recorded(t, lib) != byMonth {
		t.Error("the template was not recorded")
	}
}

// A backup folder of another library is refused before anything moves.
func TestRelayoutRefusesAnotherLibrarysBackup(t *testing.T) {
	lib, _ := libraryWithBackup(t)
	_, otherBak := libraryWithBackup(t)
	before := tree(t, lib)
	opt := options(t, lib, byDay, byMonth)
	opt.Backup = otherBak
	if _, err := relayout.Run(context.Background(), opt); !errors.Is(err, pipeline.ErrBackupOwned) {
		t.Errorf("another library's backup: %v", err)
	}
	if !maps.Equal(tree(t, lib), before) {
		t.Error("a refused relayout moved files")
	}
}

// A library moved to another folder keeps its backup, as sort judges it:
// the backup's record names the library by its identity, and no library
// with that identity is left at the old place.
func TestRelayoutAcceptsTheBackupOfAMovedLibrary(t *testing.T) {
	lib, bak := libraryWithBackup(t)
	moved := lib + "-moved"
	if err := os.Rename(lib, moved); err != nil {
		t.Fatal(err)
	}
	opt := options(t, moved, byDay, byMonth)
	opt.Backup = bak
	st, err := relayout.Run(context.Background(), opt)
	if err != nil || st.BackupMoved != 5 {
		t.Fatalf("relayout of the moved library: %+v, %v", st, err)
	}
	if !maps.Equal(tree(t, bak), tree(t, moved)) {
		t.Error("the backup does not mirror the moved library")
	}
}
