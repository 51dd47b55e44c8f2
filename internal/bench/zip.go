package bench

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// zipRuns times the first sort of the tree from a zip of it (issue 29: a
// Google Takeout export is read from its zips, never extracted) against
// the first sort of the tree itself, each into an empty library, in the
// same run and in the order folder, zip, folder, zip; each row has the
// peak RSS of its own sort. The zip is written untimed, deflated as
// Takeout's are.
func zipRuns(ctx context.Context, cfg Config, work, src string, log io.Writer) ([]RunRow, error) {
	archive := filepath.Join(work, "src.zip")
	fmt.Fprintf(log, "zipping %s into %s ...\n", src, archive)
	if err := zipTree(src, archive); err != nil {
		return nil, err
	}
	defer os.Remove(archive)
	var rows []RunRow
	for round := 1; round <= 2; round++ {
		for _, from := range []struct{ path, name string }{
			{src, fmt.Sprintf("first sort from the folder (round %d)", round)},
			{archive, fmt.Sprintf("first sort from a zip of it (round %d)", round)},
		} {
			dst := filepath.Join(work, "dst-zip-bench")
			os.RemoveAll(dst)
			prepareCache(cfg, from.path, log)
			resetPeakRSS()
			r, err := wholeSort(ctx, cfg, from.path, dst, from.name, cfg.Count, nil)
			os.RemoveAll(dst)
			if err == nil && r.Transferred != int64(cfg.Count) {
				err = fmt.Errorf("bench: %s: transferred %d files, want %d", from.name, r.Transferred, cfg.Count)
			}
			if err != nil {
				return rows, err
			}
			r.PeakRSS = peakRSS()
			rows = append(rows, r)
		}
	}
	return rows, nil
}

// zipTree writes every file under dir into a new zip at path, deflated,
// names relative to dir.
func zipTree(dir, path string) (err error) {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}()
	zw := zip.NewWriter(out)
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		return addToZip(zw, p, filepath.ToSlash(rel))
	})
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	return err
}

func addToZip(zw *zip.Writer, p, name string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	h, err := zip.FileInfoHeader(info)
	if err != nil {
		return err
	}
	h.Name, h.Method = name, zip.Deflate
	w, err := zw.CreateHeader(h)
	if err != nil {
		return err
	}
	_, err = io.Copy(w, f)
	return err
}
