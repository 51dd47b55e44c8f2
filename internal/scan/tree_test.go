package scan

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// node is one entry of a declarative test tree. Exactly one kind applies:
// a file with Body, a symlink to Link, a hard link to HardLink (a path in
// the same tree), or a directory (Dir). Mode, when Chmod is set, is
// applied after the whole tree is built, so a 000 directory can be filled.
type node struct {
	Body     string
	Link     string
	HardLink string
	Dir      bool
	Chmod    bool
	Mode     fs.FileMode
}

func withMode(n node, m fs.FileMode) node { n.Chmod, n.Mode = true, m; return n }

func file(body string) node { return node{Body: body} }
func link(to string) node   { return node{Link: to} }
func hard(to string) node   { return node{HardLink: to} }
func dir() node             { return node{Dir: true} }

// buildTree creates spec under root. Keys are slash-separated paths; parent
// directories are made as needed. Hard links are made last so their
// targets exist.
func buildTree(t testing.TB, root string, spec map[string]node) {
	t.Helper()
	keys := make([]string, 0, len(spec))
	for k := range spec {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var hardLinks, moded []string
	for _, k := range keys {
		n := spec[k]
		p := filepath.Join(root, filepath.FromSlash(k))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		switch {
		case n.Dir:
			must(t, os.MkdirAll(p, 0o755))
		case n.Link != "":
			fsxtest.Symlink(t, n.Link, p) // or skip where links cannot be made
		case n.HardLink != "":
			hardLinks = append(hardLinks, k)
		default:
			must(t, os.WriteFile(p, []byte(n.Body), 0o644))
		}
		if n.Chmod {
			moded = append(moded, k)
		}
	}
	for _, k := range hardLinks {
		must(t, os.Link(filepath.Join(root, spec[k].HardLink), filepath.Join(root, k)))
	}
	// Deepest first, so restricting a parent does not block its children.
	slices.Reverse(moded)
	for _, k := range moded {
		p := filepath.Join(root, filepath.FromSlash(k))
		must(t, os.Chmod(p, spec[k].Mode))
		t.Cleanup(func() { os.Chmod(p, 0o755) })
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// result is everything one Walk produced, in a comparable form.
type result struct {
	files    []File
	problems []Problem
	stats    Stats
	err      error
}

func walk(t testing.TB, roots []string, opt Options) result {
	t.Helper()
	var r result
	r.stats, r.err = Walk(context.Background(), roots, opt,
		func(f File) error { r.files = append(r.files, f); return nil },
		func(p Problem) { r.problems = append(r.problems, p) })
	slices.SortFunc(r.files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return r
}

// rel lists the emitted paths relative to base, sorted, slash-separated.
func (r result) rel(t testing.TB, base string) []string {
	t.Helper()
	var out []string
	for _, f := range r.files {
		p, err := filepath.Rel(base, f.Path)
		must(t, err)
		out = append(out, filepath.ToSlash(p))
	}
	slices.Sort(out)
	return out
}

func (r result) ops() []string {
	var out []string
	for _, p := range r.problems {
		out = append(out, p.Op)
	}
	slices.Sort(out)
	return out
}
