package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/store"
)

// A library may already hold a folder of the user's at the state folder's
// name (another program's, an old export), and on a case-insensitive disk
// (NTFS, APFS, exFAT; Wine) ".Shoebox" or ".SHOEBOX" is that folder too.
// shoebox adopted it and its run store's removal deleted the user's photo
// in .shoebox/run (found by the Windows attacker). A store folder holding
// a file pebble does not make is never emptied: the run is refused before
// anything happens, naming the file, and the card and the user's folder
// are as they were.
func TestUsersFolderAtTheStateFolderNameKeepsItsFiles(t *testing.T) {
	names := []string{layout.StateDirName}
	if caseInsensitive(t, t.TempDir()) {
		names = append(names, ".Shoebox", ".SHOEBOX")
	}
	for _, state := range names {
		t.Run(state, func(t *testing.T) {
			root := t.TempDir()
			src, dst := filepath.Join(root, "card"), filepath.Join(root, "lib")
			mine := photo(2001, 2, 3, 4, "the user's own photo")
			card := photo(2019, 7, 4, 15, "card")
			tree(t, dst, map[string][]byte{state + "/run/mine.jpg": mine})
			tree(t, src, map[string][]byte{"IMG_1.JPG": card})
			err := sortErr(t, []string{src}, dst)
			if !errors.Is(err, store.ErrNotOurs) {
				t.Errorf("sort: %v, want a refusal (ErrNotOurs)", err)
			}
			if got, err := os.ReadFile(filepath.Join(dst, state, "run", "mine.jpg")); err != nil || string(got) != string(mine) {
				t.Errorf("the user's %s/run/mine.jpg is gone after a sort: %v", state, err)
			}
			if entries, _ := os.ReadDir(filepath.Join(dst, state, "run")); len(entries) != 1 {
				t.Errorf("the user's %s/run holds %d files, want only mine.jpg", state, len(entries))
			}
			if got, err := os.ReadFile(filepath.Join(src, "IMG_1.JPG")); err != nil || string(got) != string(card) {
				t.Errorf("the card's photo changed: %v", err)
			}
		})
	}
}

// sortErr runs a copy sort of src into dst and returns its error, from
// Open or the run, instead of failing the test.
func sortErr(t *testing.T, src []string, dst string) error {
	t.Helper()
	tmpl, err := layout.Parse("{year}/{year}-{month}-{day}/{name}{ext}")
	if err != nil {
		t.Fatal(err)
	}
	run, err := Open(Config{Sources: src, Dest: dst, Template: tmpl, Workers: 2, Dedup: true})
	if err != nil {
		return err
	}
	err = run.All(t.Context())
	return errors.Join(err, run.Close())
}

func caseInsensitive(t *testing.T, dir string) bool {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "case"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(filepath.Join(dir, "case"))
	_, err := os.Stat(filepath.Join(dir, "CASE"))
	return err == nil
}
