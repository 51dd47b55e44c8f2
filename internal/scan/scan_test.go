package scan

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/quote"
)

func TestWalkEmitsFilesWithMetadata(t *testing.T) {
	root := t.TempDir()
	buildTree(t, root, map[string]node{
		"a.jpg":           file("12345"),
		"2019/b.jpg":      file("xy"),
		"2019/07/c.mov":   file(""),
		"empty/":          dir(),
		"2019/07/d/e.JPG": file("e"),
	})
	mtime := time.Date(2019, 7, 4, 12, 30, 15, 123456700, time.UTC) // NTFS keeps 100 ns
	must(t, os.Chtimes(filepath.Join(root, "a.jpg"), mtime, mtime))

	r := walk(t, []string{root}, Options{})
	must(t, r.err)
	want := []string{"2019/07/c.mov", "2019/07/d/e.JPG", "2019/b.jpg", "a.jpg"}
	if got := r.rel(t, root); !slices.Equal(got, want) {
		t.Fatalf("files = %q, want %q", got, want)
	}
	a := r.files[len(r.files)-1]
	if a.Path != filepath.Join(root, "a.jpg") || a.Root != root || a.Size != 5 || !a.ModTime.Equal(mtime) {
		t.Errorf("a.jpg = %+v, want size 5, mtime %v, root %q", a, mtime, root)
	}
	if a.Ino == 0 || a.Nlink != 1 {
		t.Errorf("a.jpg identity = dev %d ino %d nlink %d", a.Dev, a.Ino, a.Nlink)
	}
	if r.stats.Files != 4 || r.stats.Dirs != 5 || len(r.problems) != 0 {
		t.Errorf("stats = %+v, problems %v", r.stats, r.problems)
	}
}

func TestWalkSkipsClutterUnlessHidden(t *testing.T) {
	root := t.TempDir()
	buildTree(t, root, map[string]node{
		"keep.jpg":                               file("k"),
		".DS_Store":                              file("x"),
		"._keep.jpg":                             file("x"),
		"Thumbs.db":                              file("x"),
		"thumbs.DB":                              file("x"),
		"desktop.ini":                            file("x"),
		"@eaDir/keep.jpg/SYNOPHOTO_THUMB_M.jpg":  file("x"),
		".Trashes/501/old.jpg":                   file("x"),
		".Spotlight-V100/store.db":               file("x"),
		".fseventsd/0001":                        file("x"),
		"$RECYCLE.BIN/S-1-5/$R1.jpg":             file("x"),
		"System Volume Information/tracking.log": file("x"),
		".hidden/inner.jpg":                      file("x"),
		"sub/.secret.jpg":                        file("x"),
		"sub/visible.jpg":                        file("v"),
	})
	clutter, files := int64(13), 15
	a, errA := os.Stat(filepath.Join(root, "Thumbs.db"))
	b, errB := os.Stat(filepath.Join(root, "thumbs.DB"))
	must(t, errors.Join(errA, errB))
	if os.SameFile(a, b) {
		clutter, files = 12, 14 // a case-insensitive filesystem (NTFS, APFS): one file
	}
	r := walk(t, []string{root}, Options{})
	must(t, r.err)
	if got, want := r.rel(t, root), []string{"keep.jpg", "sub/visible.jpg"}; !slices.Equal(got, want) {
		t.Fatalf("default walk = %q, want %q", got, want)
	}
	if r.stats.Skipped != clutter {
		t.Errorf("Skipped = %d, want %d (every clutter name at its top)", r.stats.Skipped, clutter)
	}

	all := walk(t, []string{root}, Options{Hidden: true})
	must(t, all.err)
	if len(all.files) != files {
		t.Errorf("Hidden walk found %d files, want %d: %q", len(all.files), files, all.rel(t, root))
	}
}

func TestWalkSymlinksSkippedByDefault(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	buildTree(t, outside, map[string]node{"x.jpg": file("x"), "d/y.jpg": file("y")})
	buildTree(t, root, map[string]node{
		"real.jpg":   file("r"),
		"tofile.jpg": link(filepath.Join(outside, "x.jpg")),
		"todir":      link(filepath.Join(outside, "d")),
		"dangling":   link("nowhere"),
	})
	r := walk(t, []string{root}, Options{})
	must(t, r.err)
	if got := r.rel(t, root); !slices.Equal(got, []string{"real.jpg"}) {
		t.Fatalf("files = %q, want only real.jpg", got)
	}
	if r.stats.Links != 3 || r.stats.Skipped != 3 || len(r.problems) != 0 {
		t.Errorf("stats = %+v problems = %v, want 3 links skipped silently", r.stats, r.problems)
	}
}

func TestWalkFollowLinks(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	buildTree(t, outside, map[string]node{"x.jpg": file("xx"), "d/y.jpg": file("y"), "d/z/w.jpg": file("w")})
	buildTree(t, root, map[string]node{
		"real/a.jpg":   file("a"),
		"tofile.jpg":   link(filepath.Join(outside, "x.jpg")),
		"tofile2.jpg":  link(filepath.Join(outside, "x.jpg")), // same target again
		"todir":        link(filepath.Join(outside, "d")),
		"todir2":       link("../" + filepath.Base(outside) + "/d"), // same directory again
		"inside.jpg":   link("real/a.jpg"),                          // reached anyway
		"insidedir":    link("real"),                                // reached anyway
		"dangling.jpg": link("nowhere.jpg"),
	})
	r := walk(t, []string{root}, Options{FollowLinks: true})
	must(t, r.err)
	got := r.rel(t, root)
	// The second links to the same outside targets are deduplicated; which
	// of the two names wins depends on timing, so check the shape.
	if len(got) != 4 || !slices.Contains(got, "real/a.jpg") {
		t.Fatalf("files = %q, want real/a.jpg, one x.jpg link, y.jpg and z/w.jpg through one dir link", got)
	}
	var sawX, sawY, sawW int
	for _, f := range r.files {
		switch filepath.Base(f.Path) {
		case "tofile.jpg", "tofile2.jpg":
			sawX++
			if f.Size != 2 {
				t.Errorf("%s size = %d, want the target's 2", f.Path, f.Size)
			}
		case "y.jpg":
			sawY++
		case "w.jpg":
			sawW++
		}
		if !strings.HasPrefix(f.Path, root+"/") {
			t.Errorf("%s is not under the root as given", f.Path)
		}
	}
	if sawX != 1 || sawY != 1 || sawW != 1 {
		t.Errorf("x=%d y=%d w=%d, want each once: %q", sawX, sawY, sawW, got)
	}
	if ops := r.ops(); !slices.Equal(ops, []string{"stat"}) {
		t.Errorf("problems = %v, want one stat problem for the dangling link", r.problems)
	}
	if r.stats.Links != 7 {
		t.Errorf("Links = %d, want 7", r.stats.Links)
	}
}

func TestWalkSymlinkLoops(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	buildTree(t, outside, map[string]node{
		"loop/p.jpg": file("p"),
		"loop/self":  link("."),
		"loop/up":    link(".."),
	})
	buildTree(t, root, map[string]node{
		"a/b/c.jpg": file("c"),
		"a/b/back":  link("../.."), // root itself: an ancestor
		"out":       link(filepath.Join(outside, "loop")),
	})
	done := make(chan result, 1)
	go func() { done <- walk(t, []string{root}, Options{FollowLinks: true}) }()
	var r result
	select {
	case r = <-done:
	case <-time.After(time.Minute):
		t.Fatal("walk did not finish: loop not detected")
	}
	must(t, r.err)
	got := r.rel(t, root)
	// out/up leads to outside, which is not a root and not yet seen: it is
	// followed once, and its own link back to loop is a loop.
	if !slices.Contains(got, "a/b/c.jpg") || !slices.Contains(got, "out/p.jpg") {
		t.Fatalf("files = %q, want a/b/c.jpg and out/p.jpg", got)
	}
	loops := 0
	for _, p := range r.problems {
		if p.Op == "loop" {
			loops++
			if !errors.Is(p, ErrLoop) {
				t.Errorf("loop problem %v does not wrap ErrLoop", p)
			}
		}
	}
	if loops < 2 {
		t.Errorf("problems = %v, want loops for a/b/back and out/self", r.problems)
	}
	if n := len(got); n > 3 {
		t.Errorf("files = %q: something was walked twice", got)
	}
}

func TestWalkRootIsFile(t *testing.T) {
	root := t.TempDir()
	buildTree(t, root, map[string]node{"one.jpg": file("abc")})
	p := filepath.Join(root, "one.jpg")
	r := walk(t, []string{p}, Options{})
	must(t, r.err)
	if len(r.files) != 1 || r.files[0].Path != p || r.files[0].Root != p || r.files[0].Size != 3 {
		t.Fatalf("files = %+v, want one.jpg itself", r.files)
	}
}

func TestWalkMissingRoot(t *testing.T) {
	root := t.TempDir()
	buildTree(t, root, map[string]node{"a.jpg": file("a")})
	missing := filepath.Join(root, "nope")

	r := walk(t, []string{missing, root}, Options{})
	if r.err != nil {
		t.Fatalf("one good root: err = %v, want nil", r.err)
	}
	if len(r.files) != 1 || len(r.problems) != 1 || r.problems[0].Op != "root" || r.problems[0].Path != missing {
		t.Fatalf("files %v problems %v, want a.jpg and one root problem", r.files, r.problems)
	}
	if !errors.Is(r.problems[0], fs.ErrNotExist) {
		t.Errorf("problem %v does not wrap fs.ErrNotExist", r.problems[0])
	}
	_, notFound := os.Lstat(missing) // the system's own words: "File not found." on Windows
	want := fmt.Sprintf("root %s: %v", quote.Path(missing), errors.Unwrap(notFound))
	if r.problems[0].Error() != want {
		t.Errorf("Error() = %q, want %q", r.problems[0].Error(), want)
	}

	none := walk(t, []string{missing, missing + "2"}, Options{})
	if !errors.Is(none.err, ErrNoSource) || !errors.Is(none.err, fs.ErrNotExist) {
		t.Errorf("no good root: err = %v, want ErrNoSource wrapping fs.ErrNotExist", none.err)
	}
	if len(none.problems) != 2 {
		t.Errorf("problems = %v, want two", none.problems)
	}
	if _, err := Walk(context.Background(), nil, Options{}, func(File) error { return nil }, nil); !errors.Is(err, ErrNoSource) {
		t.Errorf("no roots: err = %v", err)
	}
}

func TestWalkExclude(t *testing.T) {
	root := t.TempDir()
	buildTree(t, root, map[string]node{
		"src/a.jpg":           file("a"),
		"dest/2019/a.jpg":     file("a"),
		"dest/.shoebox/j.log": file("j"),
		"src/todest":          link("../dest"),
		"other/b.jpg":         file("b"),
	})
	dest := filepath.Join(root, "dest")
	r := walk(t, []string{root}, Options{Exclude: []string{dest}, FollowLinks: true})
	must(t, r.err)
	if got, want := r.rel(t, root), []string{"other/b.jpg", "src/a.jpg"}; !slices.Equal(got, want) {
		t.Fatalf("files = %q, want %q (dest never entered, not even through a link)", got, want)
	}
	// Excluding a directory that is also a root walks nothing there.
	r = walk(t, []string{dest}, Options{Exclude: []string{dest}})
	must(t, r.err)
	if len(r.files) != 0 {
		t.Errorf("excluded root emitted %q", r.rel(t, root))
	}
}

func TestWalkHardLinksEmittedEach(t *testing.T) {
	root := t.TempDir()
	buildTree(t, root, map[string]node{"a.jpg": file("a"), "b/a-copy.jpg": hard("a.jpg")})
	r := walk(t, []string{root}, Options{})
	must(t, r.err)
	if len(r.files) != 2 {
		t.Fatalf("files = %q, want both names", r.rel(t, root))
	}
	a, b := r.files[0], r.files[1]
	if a.Dev != b.Dev || a.Ino != b.Ino || a.Nlink != 2 || b.Nlink != 2 {
		t.Errorf("hard links: %+v %+v, want same dev+ino and nlink 2", a, b)
	}
}

func TestWalkNonUTF8Name(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows names are UTF-16: a name that is no valid UTF-8 cannot be made")
	}
	root := t.TempDir()
	name := "caf\xe9-\xff\xfe.jpg" // Latin-1 é and bytes valid in no encoding
	dirName := "dir-\x80"
	must(t, os.Mkdir(filepath.Join(root, dirName), 0o755))
	must(t, os.WriteFile(filepath.Join(root, dirName, name), []byte("x"), 0o644))
	r := walk(t, []string{root}, Options{})
	must(t, r.err)
	want := root + "/" + dirName + "/" + name
	if len(r.files) != 1 || r.files[0].Path != want {
		t.Fatalf("files = %v, want %q with raw bytes", r.files, want)
	}
	if _, err := os.Lstat(r.files[0].Path); err != nil {
		t.Errorf("emitted path does not name the file: %v", err)
	}
}

func TestWalkDeepNesting(t *testing.T) {
	root := t.TempDir()
	const depth = 300
	p := root
	for i := range depth {
		p = filepath.Join(p, fmt.Sprintf("d%d", i%10))
	}
	must(t, os.MkdirAll(p, 0o755))
	must(t, os.WriteFile(filepath.Join(p, "deep.jpg"), []byte("d"), 0o644))
	r := walk(t, []string{root}, Options{FollowLinks: true})
	must(t, r.err)
	if len(r.files) != 1 || r.files[0].Path != filepath.Join(p, "deep.jpg") {
		t.Fatalf("files = %v, want the one deep file", r.files)
	}
	if r.stats.Dirs != depth+1 {
		t.Errorf("Dirs = %d, want %d", r.stats.Dirs, depth+1)
	}
}

func TestWalkRootGivenTwice(t *testing.T) {
	root := t.TempDir()
	buildTree(t, root, map[string]node{"a.jpg": file("a"), "sub/b.jpg": file("b"), "sub/.h/c.jpg": file("c")})
	t.Chdir(root)
	cases := []struct {
		name  string
		roots []string
		want  []string
	}{
		{"same twice", []string{root, root}, []string{"a.jpg", "sub/b.jpg"}},
		{"relative and absolute", []string{".", root + "/"}, []string{"a.jpg", "sub/b.jpg"}},
		{"child after parent", []string{root, filepath.Join(root, "sub")}, []string{"a.jpg", "sub/b.jpg"}},
		{"child before parent", []string{filepath.Join(root, "sub"), root}, []string{"a.jpg", "sub/b.jpg"}},
		{"file inside a root", []string{filepath.Join(root, "a.jpg"), root}, []string{"a.jpg", "sub/b.jpg"}},
		{"hidden dir given explicitly", []string{root, filepath.Join(root, "sub/.h")}, []string{"a.jpg", "sub/.h/c.jpg", "sub/b.jpg"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := walk(t, c.roots, Options{})
			must(t, r.err)
			var got []string
			for _, f := range r.files {
				rel := f.Path // relative under the root "."
				if filepath.IsAbs(rel) {
					var err error
					rel, err = filepath.Rel(root, rel)
					must(t, err)
				}
				got = append(got, filepath.ToSlash(rel))
			}
			slices.Sort(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("files = %q, want %q", got, c.want)
			}
		})
	}
}

func TestWalkRelativeRootKeepsPathsRelative(t *testing.T) {
	root := t.TempDir()
	buildTree(t, root, map[string]node{"p/a.jpg": file("a")})
	t.Chdir(root)
	for _, given := range []string{".", "p", "./p/"} {
		r := walk(t, []string{given}, Options{})
		must(t, r.err)
		want := filepath.Join(given, strings.TrimPrefix("p/a.jpg", filepath.Clean(given)+"/"))
		if len(r.files) != 1 || r.files[0].Path != want || r.files[0].Root != given {
			t.Errorf("root %q: files = %+v, want path %q", given, r.files, want)
		}
	}
}

func TestWalkLargeFlatDirectoryAndManyDirs(t *testing.T) {
	root := t.TempDir()
	spec := map[string]node{}
	for i := range 3*readChunk + 7 {
		spec[fmt.Sprintf("flat/f%05d.jpg", i)] = file("")
	}
	for i := range 64 {
		spec[fmt.Sprintf("tree/%02d/%02d/x.jpg", i/8, i%8)] = file("")
	}
	buildTree(t, root, spec)
	for _, workers := range []int{1, 2, 8} {
		r := walk(t, []string{root}, Options{Workers: workers})
		must(t, r.err)
		got := r.rel(t, root)
		if len(got) != len(spec) || len(slices.Compact(got)) != len(spec) {
			t.Errorf("workers=%d: %d files (%d distinct), want %d", workers, len(got), len(slices.Compact(got)), len(spec))
		}
	}
}

func TestWalkStopsOnEmitError(t *testing.T) {
	root := t.TempDir()
	spec := map[string]node{}
	for i := range 2000 {
		spec[fmt.Sprintf("d%d/f%d.jpg", i%20, i)] = file("")
	}
	buildTree(t, root, spec)
	stop := errors.New("enough")
	calls := 0
	_, err := Walk(context.Background(), []string{root}, Options{}, func(File) error {
		calls++
		if calls == 10 {
			return stop
		}
		return nil
	}, nil)
	if !errors.Is(err, stop) || calls != 10 {
		t.Errorf("err = %v after %d calls, want %v after 10", err, calls, stop)
	}
}

func TestWalkHonoursCancelledContext(t *testing.T) {
	root := t.TempDir()
	buildTree(t, root, map[string]node{"a/b.jpg": file("b")})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Walk(ctx, []string{root}, Options{}, func(File) error { return nil }, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
