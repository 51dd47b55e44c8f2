package transfer

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/digest"
	"github.com/shoebox-photos/shoebox/internal/fsx"
)

// With Options.Hash every copy reports the BLAKE3 of the bytes it put in
// place, whatever its size (under and over one copy buffer: the small go
// by one read and write, the large by the kernel's copy without hashing),
// with a backup copy too; a same-device move (a rename) reads nothing and
// reports none; without Hash no copy reports one.
func TestHashAtCopy(t *testing.T) {
	for _, size := range []int{5, copyBufSize + 12345, 3*copyBufSize + 7} {
		for _, backup := range []bool{false, true} {
			f := newFixture(t)
			content := strings.Repeat("x", size-1) + "!"
			src := f.file("a.jpg", content)
			o := op(t, Copy, src, filepath.Join(f.lib, "2019", "a.jpg"))
			opt := Options{Hash: true, Library: f.lib}
			if backup {
				opt.Backup = filepath.Join(filepath.Dir(f.lib), "bak")
				o.Backup = filepath.Join(opt.Backup, "2019", "a.jpg")
			}
			res := New(opt).Do(context.Background(), o)
			mustSucceed(t, res)
			want, _, err := digest.File(fsx.OS, o.Dst)
			if err != nil {
				t.Fatal(err)
			}
			if res.Sum == nil || *res.Sum != want {
				t.Errorf("size %d, backup %v: Sum %v, want the library copy's %v", size, backup, res.Sum, want)
			}
		}
	}
	f := newFixture(t)
	res := do(t, Options{Library: f.lib}, op(t, Copy, f.file("b.jpg", "bytes"), filepath.Join(f.lib, "b.jpg")))
	mustSucceed(t, res)
	if res.Sum != nil {
		t.Errorf("without Hash a copy reports a sum: %v", res.Sum)
	}
	res = do(t, Options{Hash: true, Library: f.lib}, op(t, Move, f.file("c.jpg", "bytes"), filepath.Join(f.lib, "c.jpg")))
	mustSucceed(t, res)
	if res.Sum != nil {
		t.Errorf("a rename reports a sum it never read: %v", res.Sum)
	}
}
