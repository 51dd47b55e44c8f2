package transfer

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/digest"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// corpusDir finds the shared sample corpus: $SHOEBOX_CORPUS, else
// <repo root>/../shared/corpus, the repo root being the dir with go.mod.
func corpusDir(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("SHOEBOX_CORPUS"); dir != "" {
		return dir
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "corpus")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Real camera files, every mode, verified by content digest.
func TestCorpusFilesLandIntact(t *testing.T) {
	root := corpusDir(t)
	samples := filepath.Join(root, "digicam")
	if _, err := os.Stat(samples); err != nil {
		t.Skipf("sample corpus not found at %q (set SHOEBOX_CORPUS): %v", samples, err)
	}
	var files []string
	filepath.WalkDir(samples, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && len(files) < 25 {
			files = append(files, p)
		}
		return nil
	})
	lib := t.TempDir()
	e := New(Options{Verify: true})
	modes := []Mode{Copy, Reflink, Symlink}
	if fsxtest.UnderWine() {
		t.Log("under Wine: no --mode symlink (Wine 8 reports a link made that is not there)")
		modes = modes[:2]
	}
	for i, src := range files {
		mode := modes[i%len(modes)]
		dst := filepath.Join(lib, mode.String(), filepath.Base(filepath.Dir(src)), filepath.Base(src))
		res := e.Do(context.Background(), op(t, mode, src, dst))
		mustSucceed(t, res)
		want, _, err := digest.File(fsx.OS, src)
		if err != nil {
			t.Fatal(err)
		}
		if got, _, err := digest.File(fsx.OS, dst); err != nil || got != want {
			t.Errorf("%s of %s: digest %s, %v; want %s", mode, src, got, err, want)
		}
	}
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d corpus files landed intact", len(files))
}
