package transfer

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// TestExecutorRefusesShoeboxOwnNames: with its library known, the executor
// refuses, in every mode and in a dry run, an Op whose destination enters
// or shadows DEST/.shoebox, takes a temp's name, or lies outside the
// library; nothing is created, the source is untouched.
func TestExecutorRefusesShoeboxOwnNames(t *testing.T) {
	dsts := map[string]string{
		"state folder":          ".shoebox/run/a.jpg",
		"state folder, cased":   ".SHOEBOX/a.jpg",
		"state folder, dotted":  ".shoebox./a.jpg",
		"8.3 alias":             "SHOEBO~1/a.jpg",
		"temp name":             "2019/.a.jpg.shoebox-tmp-0123456789abcdef",
		"temp-named folder":     "2019/.x.Shoebox-Tmp-1/a.jpg",
		"the state folder name": ".shoebox",
		"outside the library":   "../elsewhere/a.jpg",
	}
	for _, mode := range []Mode{Copy, Move, Hardlink, Symlink} {
		for _, dry := range []bool{false, true} {
			for name, rel := range dsts {
				t.Run(mode.String()+"/"+name, func(t *testing.T) {
					f := newFixture(t)
					src := f.file("a.jpg", "photo")
					dst := filepath.Join(f.lib, filepath.FromSlash(rel))
					res := do(t, Options{Library: f.lib, DryRun: dry}, op(t, mode, src, dst))
					if res.Err == nil {
						t.Fatalf("%s to %s was allowed", mode, dst)
					}
					if name != "outside the library" && !errors.Is(res.Err, ErrReservedName) {
						t.Errorf("error %v, want ErrReservedName", res.Err)
					}
					assertAbsent(t, dst)
					assertContent(t, src, "photo")
					assertAbsent(t, filepath.Join(f.lib, ".shoebox"))
				})
			}
		}
	}
}

// TestExecutorDoesNotWriteThroughLinkedFolders: a folder inside the library
// that is a symbolic link is refused, naming it, whether the destination's
// folder is to be created under it or already exists behind it; the
// library root itself may be a link.
func TestExecutorDoesNotWriteThroughLinkedFolders(t *testing.T) {
	for _, dry := range []bool{false, true} {
		for _, existing := range []bool{false, true} {
			f := newFixture(t)
			elsewhere := filepath.Join(filepath.Dir(f.lib), "elsewhere")
			if err := os.MkdirAll(filepath.Join(elsewhere, "07"), 0o755); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(f.lib, "2019")
			fsxtest.Symlink(t, elsewhere, link) // or skip where links cannot be made
			day := "08"
			if existing {
				day = "07"
			}
			src := f.file("a.jpg", "photo")
			dst := filepath.Join(link, day, "a.jpg")
			res := do(t, Options{Library: f.lib, DryRun: dry}, op(t, Copy, src, dst))
			if !errors.Is(res.Err, ErrLinkInLibrary) || !strings.Contains(res.Err.Error(), link) {
				t.Fatalf("dry %v, existing %v: error %v, want ErrLinkInLibrary naming %s", dry, existing, res.Err, link)
			}
			filepath.WalkDir(elsewhere, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					t.Errorf("written through the link: %s", p)
				}
				return nil
			})
			assertAbsent(t, filepath.Join(elsewhere, "08"))
		}
	}

	// The library reached through a link is fine.
	f := newFixture(t)
	viaLink := f.lib + "-link"
	if err := os.Symlink(f.lib, viaLink); err != nil {
		t.Fatal(err)
	}
	src := f.file("b.jpg", "photo")
	mustSucceed(t, do(t, Options{Library: viaLink}, op(t, Copy, src, filepath.Join(viaLink, "2019", "b.jpg"))))
	assertContent(t, filepath.Join(f.lib, "2019", "b.jpg"), "photo")
}
