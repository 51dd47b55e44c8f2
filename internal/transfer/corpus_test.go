package transfer

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/digest"
	sample "github.com/shoebox-photos/shoebox/internal/fixture" // not the tests' own fixture type
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// Real camera files, every mode, verified by content digest.
func TestCorpusFilesLandIntact(t *testing.T) {
	root := sample.CorpusDir(t)
	samples := filepath.Join(root, "digicam")
	if _, err := os.Stat(samples); err != nil {
		t.Skipf("sample corpus not found at %s (set SHOEBOX_CORPUS): %v", quote.Path(samples), err)
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
