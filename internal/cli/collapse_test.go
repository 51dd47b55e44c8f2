package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
)

// Many files with one same trouble: the first few of each kind are
// printed, the rest counted in one line at the end; every failed path is
// listed again after the summary. --verbose shows them all.
func TestRepeatedWarningsAndFailuresAreCollapsed(t *testing.T) {
	base := t.TempDir()
	src, lib := filepath.Join(base, "card"), filepath.Join(base, "lib")
	for i := 0; i < 12; i++ {
		writeFile(t, filepath.Join(src, fmt.Sprintf("BAD_%02d.JPG", i)), []byte(fmt.Sprintf("\x00not a jpeg %d", i)), 0o644)
	}
	card(t, src, 7, 0) // dated July 2019
	// lib/2019 is a link: the 7 dated photos fail, each with its path.
	if err := os.MkdirAll(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	fsxtest.Symlink(t, t.TempDir(), filepath.Join(lib, "2019"))
	r := shoebox("sort", src, lib)
	if r.code != ExitIncomplete {
		t.Fatalf("want exit 3:\n%s", r)
	}
	during, recap, ok := strings.Cut(r.stderr, "shoebox: 12 files: content does not look like jpeg; no date: it goes to the unknown folder (warning: first 5 shown")
	if !ok {
		t.Fatalf("no count of the collapsed warnings:\n%s", r.stderr)
	}
	if n := strings.Count(during, "does not look like jpeg"); n != 5 {
		t.Errorf("%d warnings of the kind printed as they happened, want 5:\n%s", n, r.stderr)
	}
	if n := strings.Count(during, "is a symbolic link inside the library"); n != 5 {
		t.Errorf("%d failures of the kind printed as they happened, want 5:\n%s", n, r.stderr)
	}
	if !strings.Contains(recap, "shoebox: 7 files: ") || !strings.Contains(recap, "(failure: first 5 shown") {
		t.Errorf("no count of the collapsed failures:\n%s", recap)
	}
	_, list, ok := strings.Cut(recap, "shoebox: 7 paths failed or unreadable:\n")
	if !ok {
		t.Fatalf("no list of failed paths:\n%s", r.stderr)
	}
	for i := 0; i < 7; i++ {
		if p := filepath.Join(src, fmt.Sprintf("IMG_%04d.JPG", i)); !strings.Contains(list, "  "+p+"\n") {
			t.Errorf("failed path %s not listed at the end:\n%s", p, list)
		}
	}

	r = shoebox("sort", "-v", "-n", src, filepath.Join(base, "lib2"))
	if n := strings.Count(r.stderr, "does not look like jpeg"); n != 12 {
		t.Errorf("--verbose printed %d of the 12 warnings:\n%s", n, r.stderr)
	}
}

// A kind whose messages are one same text once each file's own paths are
// out (a full drive, named with its path) is recapped as it is, digits
// and all; a kind whose messages differ otherwise (a byte offset) is
// recapped with its numbers as N.
func TestCollapsedKindKeepsItsSharedPathExact(t *testing.T) {
	c := newCollapser(false)
	for i := range 8 {
		src := fmt.Sprintf("/card/DCIM/IMG_%04d.JPG", i)
		c.show("failure", pipeline.Event{Stage: "transfer", Src: src,
			Reason: fmt.Sprintf("%s: create folder /media/disk2024/Photos/2019/2019-07-04: the destination is full", src)})
		c.show("warning", pipeline.Event{Stage: "meta", Src: src,
			Reason: fmt.Sprintf("%s: not a JPEG (at byte %d)", src, 10+i)})
	}
	var out strings.Builder
	c.recap(&out)
	if !strings.Contains(out.String(), "shoebox: 8 files: create folder /media/disk2024/Photos/2019/2019-07-04: the destination is full (failure") {
		t.Errorf("the shared path is not recapped exactly:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "shoebox: 8 files: not a JPEG (at byte N) (warning") {
		t.Errorf("differing numbers are not recapped as N:\n%s", out.String())
	}
}
