package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
)

// A stop must leave a summary that accounts for every planned file exactly
// once: transferred + failed + not attempted = planned, sidecars included;
// every file reported transferred is in the library, whole; every file
// reported failed or not attempted is not.

// smallCard writes n tiny photos over 28 days, every fifth with an XMP
// sidecar, and returns every file's content by path.
func smallCard(t *testing.T, dir string, n int) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for i := 0; i < n; i++ {
		when := time.Date(2019, 7, 1+i%28, 12, 0, i%60, 0, time.UTC)
		name := filepath.Join(dir, fmt.Sprintf("d%02d", i%50), fmt.Sprintf("IMG_%05d", i))
		files[name+".JPG"] = fixture.JPEG(fixture.EXIF{When: when, Comment: fmt.Sprint("photo ", i)})
		if i%5 == 0 {
			files[name+".xmp"] = []byte(fmt.Sprintf(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><!-- sidecar %d --></x:xmpmeta>`, i))
		}
	}
	for p, b := range files {
		writeFile(t, p, b, 0o644)
	}
	return files
}

// watchOps is the --json stdout of a run; it calls hook once, from the
// run's own output, when the afterth file has been transferred.
type watchOps struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	seen  int
	after int
	hook  func()
}

func (w *watchOps) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.hook != nil && bytes.Contains(p, []byte(`"outcome":"transferred"`)) {
		if w.seen++; w.seen == w.after {
			w.hook()
		}
	}
	return w.buf.Write(p)
}

type jsonLine struct {
	Type         string `json:"type"`
	Outcome      string `json:"outcome"`
	Src, Dst     string
	Planned      int64 `json:"planned"`
	Transferred  int64 `json:"transferred"`
	Failed       int64 `json:"failed"`
	NotAttempted int64 `json:"not_attempted"`
	Identical    int64 `json:"skipped_identical"`
}

// checkAccounting parses the --json output and checks the equation and
// the library against it; it returns the summary.
func checkAccounting(t *testing.T, out string, sources map[string][]byte, mode string) jsonLine {
	t.Helper()
	var sum *jsonLine
	outcome := map[string]jsonLine{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var l jsonLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("bad JSON line %q: %v", sc.Text(), err)
		}
		switch {
		case l.Type == "summary":
			sum = &l
		case l.Type == "op":
			switch l.Outcome {
			case "transferred", "renamed", "failed", "not-attempted":
				if prev, dup := outcome[l.Src]; dup {
					t.Errorf("%s reported twice: %s and %s", l.Src, prev.Outcome, l.Outcome)
				}
				outcome[l.Src] = l
			}
		}
	}
	if sum == nil {
		t.Fatalf("no summary in the output:\n%s", tail(out))
	}
	if got := sum.Transferred + sum.Failed + sum.NotAttempted; got != sum.Planned || sum.Planned == 0 {
		t.Errorf("transferred %d + failed %d + not attempted %d = %d, planned %d",
			sum.Transferred, sum.Failed, sum.NotAttempted, got, sum.Planned)
	}
	if int64(len(outcome)) != sum.Planned {
		t.Errorf("%d files have an outcome, %d were planned", len(outcome), sum.Planned)
	}
	if int64(len(outcome))+sum.Identical != int64(len(sources)) {
		t.Errorf("%d outcomes + %d already there, but %d files in the sources", len(outcome), sum.Identical, len(sources))
	}
	for src, l := range outcome {
		want := sources[src]
		got, err := readThrough(l.Dst)
		switch l.Outcome {
		case "transferred", "renamed":
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s reported transferred, but %s is not its whole copy (%v)", src, l.Dst, err)
			}
		default:
			if _, err := os.Lstat(l.Dst); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s reported %s, but %s exists (%v)", src, l.Outcome, l.Dst, err)
			}
			if b, err := os.ReadFile(src); err != nil || !bytes.Equal(b, want) {
				t.Errorf("source %s, reported %s, changed or lost (%v)", src, l.Outcome, err)
			}
		}
	}
	return *sum
}

func readThrough(p string) ([]byte, error) { return os.ReadFile(p) } // follows a symlink-mode link

func tail(s string) string {
	if len(s) > 3000 {
		return "…" + s[len(s)-3000:]
	}
	return s
}

func TestEveryPlannedFileIsAccountedForOnEveryStop(t *testing.T) {
	if testing.Short() {
		t.Skip("sorts a few thousand files")
	}
	const photos = 2500 // + 500 sidecars
	cases := []struct {
		name, mode, mount string
		stop              func(ctx context.CancelFunc) func() // the hook called once 300 files are in
	}{
		{name: "disk full, copy", mode: "copy", mount: "size=2m"},
		{name: "disk full, move", mode: "move", mount: "size=2m"},
		{name: "out of inodes, symlink", mode: "symlink", mount: "size=16m,nr_inodes=400"},
		{name: "Ctrl-C, copy", mode: "copy", mount: "size=64m", stop: func(cancel context.CancelFunc) func() { return cancel }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lib := tinyTmpfs(t, tc.mount)
			src := filepath.Join(filepath.Dir(lib), "card")
			sources := smallCard(t, src, photos)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			out := &watchOps{after: 300}
			if tc.stop != nil {
				out.hook = tc.stop(cancel)
			}
			var errOut bytes.Buffer
			code := Run(ctx, Env{Stdout: out, Stderr: &errOut, Stdin: strings.NewReader("")},
				[]string{"sort", "--json", "--workers", "4", "--mode", tc.mode, src, lib})
			if code == ExitOK {
				t.Fatalf("the run was not stopped:\n%s", tail(errOut.String()))
			}
			sum := checkAccounting(t, out.buf.String(), sources, tc.mode)
			if sum.NotAttempted == 0 {
				t.Errorf("nothing left not attempted: the stop did not stop (summary %+v)", sum)
			}
			if sum.Failed > 8 {
				t.Errorf("%d files failed: the run went on failing file after file instead of stopping\n%s", sum.Failed, tail(errOut.String()))
			}
			t.Logf("planned %d: transferred %d, failed %d, not attempted %d; exit %d",
				sum.Planned, sum.Transferred, sum.Failed, sum.NotAttempted, code)
		})
	}
}
