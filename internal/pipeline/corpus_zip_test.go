package pipeline

import (
	"archive/zip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// TestCorpusZippedLandsAsExtracted sorts the real camera corpus twice: from
// its folders, and from one zip of the same folders (members stored with
// their modification times), and holds the two libraries to each other:
// the same names in the same folders, the same sizes. The extracted run is
// held to ExifTool by TestCorpusLandsInExifToolsDateFolder; so, through it,
// is the zip. Every difference is listed.
func TestCorpusZippedLandsAsExtracted(t *testing.T) {
	fsxtest.SkipSlowUnderWine(t, "two sorts of the shared corpus")
	if testing.Short() {
		t.Skip("sorts the corpus twice: not in -short")
	}
	corpus := fixture.CorpusDir(t)
	root := t.TempDir()
	folders := []string{"digicam", "exif-samples", "exiftool-images"}
	var srcs []string
	for _, f := range folders {
		srcs = append(srcs, filepath.Join(corpus, f))
	}
	zp := filepath.Join(root, "corpus.zip")
	zipFolders(t, zp, corpus, folders)

	fromFolders, fromZip := filepath.Join(root, "from-folders"), filepath.Join(root, "from-zip")
	sumF, _ := sortTree(t, srcs, fromFolders, func(c *Config) { c.Dedup = false })
	sumZ, _ := sortTree(t, []string{zp}, fromZip, func(c *Config) { c.Dedup = false })
	want, got := sizesUnder(t, fromFolders), sizesUnder(t, fromZip)
	if len(want) < 100 {
		t.Fatalf("the extracted corpus gave only %d library files; the corpus looks incomplete", len(want))
	}
	var diffs []string
	for name, size := range want {
		if gs, ok := got[name]; !ok {
			diffs = append(diffs, "only from the folders: "+name)
		} else if gs != size {
			diffs = append(diffs, "another size from the zip: "+name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			diffs = append(diffs, "only from the zip: "+name)
		}
	}
	sort.Strings(diffs)
	for _, d := range diffs {
		t.Error(d)
	}
	t.Logf("%d library files from the folders, %d from the zip, %d differences (scanned %d and %d, dated by nothing %d and %d)",
		len(want), len(got), len(diffs), sumF.Scanned, sumZ.Scanned, sumF.UnknownDate, sumZ.UnknownDate)
}

// zipFolders writes a zip of the named folders under root, each member
// stored (not deflated: the photos do not shrink) with its file's
// modification time.
func zipFolders(t *testing.T, zp, root string, folders []string) {
	t.Helper()
	out, err := os.Create(zp)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(out)
	for _, folder := range folders {
		err := filepath.WalkDir(filepath.Join(root, folder), func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			w, err := zw.CreateHeader(&zip.FileHeader{Name: filepath.ToSlash(rel), Method: zip.Store, Modified: info.ModTime()})
			if err != nil {
				return err
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = io.Copy(w, f)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// sizesUnder maps every regular file under root, the state folder left
// out, to its size.
func sizesUnder(t *testing.T, root string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".shoebox" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			out[filepath.ToSlash(rel)] = info.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
