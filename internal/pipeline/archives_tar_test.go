package pipeline

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// writeTestTar writes files (name → content, in name order) as a tar, or
// a gzip'd one when path ends in .tgz or .tar.gz. links are symbolic
// links to add (name → target).
func writeTestTar(t *testing.T, path string, files map[string][]byte, links map[string]string) {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	mtime := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		hdr := &tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(files[name])), ModTime: mtime}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(files[name]); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range links {
		if err := tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeSymlink, Linkname: target, ModTime: mtime}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if !strings.HasSuffix(path, ".tar") {
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(data)
		zw.Close()
		data = gz.Bytes()
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// takeoutFiles are photos, a video, a JSON-dated scan and a duplicate
// under two names, as a Takeout export holds them.
func takeoutFiles() map[string][]byte {
	same := photo(2019, 7, 4, 15, "same")
	files := map[string][]byte{
		"Takeout/Google Photos/Trip/IMG_1.JPG":                            same,
		"Takeout/Google Photos/Photos from 2019/IMG_1(1).JPG":             same,
		"Takeout/Google Photos/Trip/clip.mov":                             fixture.MOV(time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC)),
		"Takeout/Google Photos/Trip/beach.jpg":                            undated("beach"),
		"Takeout/Google Photos/Trip/beach.jpg.supplemental-metadata.json": []byte(`{"title":"beach.jpg","photoTakenTime":{"timestamp":"1562252400"}}`),
		"Takeout/Google Photos/Photos from 2020/IMG_2.JPG":                photo(2020, 1, 2, 10, "two"),
	}
	for i := range 20 {
		files[fmt.Sprintf("Takeout/Google Photos/Photos from 2018/IMG_%03d.JPG", i)] = photo(2018, time.Month(1+i%12), 1+i, 12, fmt.Sprint(i))
	}
	return files
}

// A tar or tgz sorts into the library the very folders and files its
// extracted copy does, and a re-run over it reads nothing.
func TestArchiveTarSortsAsItsExtractedFiles(t *testing.T) {
	root := t.TempDir()
	files := takeoutFiles()
	extracted := filepath.Join(root, "extracted")
	tree(t, extracted, files)
	want, _ := sortTree(t, []string{extracted}, filepath.Join(root, "lib-extracted"))
	wantLib := snapshot(t, filepath.Join(root, "lib-extracted"))
	wantAgain, _ := sortTree(t, []string{extracted}, filepath.Join(root, "lib-extracted"))
	for _, base := range []string{"takeout.tar", "takeout.tgz", "takeout.tar.gz"} {
		t.Run(base, func(t *testing.T) {
			src, lib := filepath.Join(root, base), filepath.Join(root, "lib-"+base)
			writeTestTar(t, src, files, nil)
			sum, _ := sortTree(t, []string{src}, lib)
			if sum.Transferred != want.Transferred || sum.Duplicates != want.Duplicates {
				t.Errorf("transferred %d, duplicates %d; extracted: %d, %d", sum.Transferred, sum.Duplicates, want.Transferred, want.Duplicates)
			}
			if got := snapshot(t, lib); !maps.Equal(got, wantLib) {
				t.Fatalf("library = %v\nwant %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(wantLib)))
			}
			again, _ := sortTree(t, []string{src}, lib)
			if again.Transferred != 0 || again.Recalled != wantAgain.Recalled || again.Duplicates != wantAgain.Duplicates {
				t.Errorf("re-run: transferred %d, recognised unread %d, duplicates %d; extracted: 0, %d, %d",
					again.Transferred, again.Recalled, again.Duplicates, wantAgain.Recalled, wantAgain.Duplicates)
			}
		})
	}
}

// A link in a tar is never followed: it is reported naming the archive
// and the member, and the rest is sorted.
func TestArchiveTarLinkIsReportedNotFollowed(t *testing.T) {
	root := t.TempDir()
	tp, lib := filepath.Join(root, "t.tgz"), filepath.Join(root, "lib")
	secret := filepath.Join(root, "secret.jpg")
	os.WriteFile(secret, photo(2019, 1, 1, 1, "secret"), 0o644)
	writeTestTar(t, tp, map[string][]byte{"a.jpg": photo(2019, 7, 4, 15, "a")}, map[string]string{"link.jpg": secret})
	sum, rec := sortTree(t, []string{tp}, lib)
	if sum.Transferred != 1 || sum.Problems != 1 {
		t.Fatalf("transferred %d, problems %d; want 1 and 1", sum.Transferred, sum.Problems)
	}
	if !rec.reportedWith(tp, "link.jpg", "symbolic link", "never followed") {
		t.Errorf("the link is not reported naming it: %v", rec.events)
	}
	if _, ok := snapshot(t, lib)["2019/2019-01-01/secret.jpg"]; ok {
		t.Error("the link's target was sorted")
	}
}

func TestArchiveTarRefusesModesThatChangeOrLinkTheSource(t *testing.T) {
	root := t.TempDir()
	for _, base := range []string{"t.tar", "t.tgz"} {
		tp := filepath.Join(root, base)
		writeTestTar(t, tp, map[string][]byte{"a.jpg": photo(2019, 7, 4, 15, "a")}, nil)
		for _, c := range []Config{
			{Mode: transfer.Move},
			{Mode: transfer.Hardlink},
			{Mode: transfer.Symlink},
			{Mode: transfer.Move, DeleteDuplicates: true, Dedup: true},
		} {
			c.Sources, c.Dest, c.Template = []string{tp}, filepath.Join(root, "lib"), mustTemplate(t)
			r, err := Open(c)
			if err == nil {
				r.Close()
				t.Fatalf("%s, mode %s: opened", base, c.Mode)
			}
			if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), base) {
				t.Errorf("%s, mode %s: %v; want ErrConfig naming the archive", base, c.Mode, err)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(root, "lib")); !os.IsNotExist(err) {
		t.Errorf("a refused run made the library: %v", err)
	}
}

// Three hundred photos in a tgz, dated out of archive order, cost a few
// passes over the archive in all, not one per photo: copies are made in
// the archive's order, not the plan's. Measured: 8 (headers 1, dedup 1,
// copies 3 and --verify 3, one per worker); copied in plan order it was
// about 100, growing with the members.
func TestArchiveTgzIsInflatedAFewTimesNotOncePerMember(t *testing.T) {
	root := t.TempDir()
	files := map[string][]byte{}
	for i := range 300 {
		files[fmt.Sprintf("Takeout/Photos/IMG_%04d.JPG", i)] = photo(2010+i%15, time.Month(1+i%12), 1+i%28, i%24, fmt.Sprint(i))
	}
	tp := filepath.Join(root, "many.tgz")
	writeTestTar(t, tp, files, nil)
	cfg := Config{Sources: []string{tp}, Dest: filepath.Join(root, "lib"), Template: mustTemplate(t), Workers: 3,
		Dedup: true, Verify: true, VideoTZ: time.UTC}
	r, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.All(context.Background()); err != nil {
		t.Fatal(err)
	}
	passes := r.archives.Archives()[0].Passes()
	if passes > 24 {
		t.Errorf("sorting %d members inflated the tgz %d times", len(files), passes)
	}
	if got := len(snapshot(t, cfg.Dest)); got != len(files) {
		t.Errorf("%d files in the library, want %d", got, len(files))
	}
	t.Logf("%d members: %d passes besides the index's", len(files), passes)
}
