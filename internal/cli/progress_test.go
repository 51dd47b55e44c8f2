package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/pipeline"
)

// fakeClock is a clock the test moves by hand, so no assertion depends on
// how fast the machine is.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func TestPlainProgressLinesAreSparse(t *testing.T) {
	var out bytes.Buffer
	clock := &fakeClock{t: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	p := newProgress(&out, false, true)
	p.now, p.since = clock.now, clock.now()
	for i := int64(1); i <= 40; i++ { // 40 events, 250 ms apart: 10 s of transfer
		clock.advance(250 * time.Millisecond)
		p.update(pipeline.Event{Type: "progress", Stage: "transfer", Count: i * 100, Total: 8000})
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("10 s of progress gave %d lines, want one per %v:\n%s", len(lines), plainEvery, out.String())
	}
	want := "transfer 2,000 of 8,000 files (25%), 400 files/s, about 15s left"
	if lines[0] != want {
		t.Errorf("line = %q\nwant   %q", lines[0], want)
	}
}

func TestPlainLineUnknownTotal(t *testing.T) {
	got := plainLine(pipeline.Event{Stage: "scan", Count: 12345}, 5*time.Second)
	if want := "scan     12,345 files so far, 2,469 files/s"; got != want {
		t.Errorf("plainLine = %q, want %q", got, want)
	}
}

func TestLiveProgressDrawsAndClears(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, true, true)
	p.update(pipeline.Event{Type: "progress", Stage: "meta", Count: 512, Total: 2048})
	if !strings.Contains(out.String(), "meta") || !strings.Contains(out.String(), "512/2048") {
		t.Fatalf("live bar does not show the stage and count: %q", out.String())
	}
	p.stageDone()
	if p.bar != nil {
		t.Fatal("bar still live after its stage ended")
	}
	if !strings.HasSuffix(out.String(), "\r") {
		t.Errorf("the bar was not cleared from the line: %q", out.String())
	}
}

// TestQuietShowsNoProgress: -q prints nothing but errors, progress included.
func TestQuietShowsNoProgress(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "card")
	card(t, src, 2, 1<<10)
	r := shoebox("sort", "-q", src, filepath.Join(base, "lib"))
	if r.code != ExitOK || r.stdout != "" || r.stderr != "" {
		t.Fatalf("-q run printed something:\n%s", r)
	}
}

// The copy's line shows bytes and MB/s beside files/s, and its time left
// comes from the bytes: here a quarter of the files but half the bytes
// are done in 10 s, so 10 s are left, not 30.
func TestPlainLineBytesAndTimeLeftFromBytes(t *testing.T) {
	ev := pipeline.Event{Stage: "transfer", What: "copying files into the library", Count: 500, Total: 2000,
		Bytes: 1_500_000_000, TotalBytes: 3_000_000_000}
	got := plainLine(ev, 10*time.Second)
	want := "transfer copying files into the library: 500 of 2,000 files (25%), 50 files/s, 1.5 GB of 3.0 GB, 150.0 MB/s, about 10s left"
	if got != want {
		t.Errorf("plainLine =\n%q\nwant\n%q", got, want)
	}
	hashing := plainLine(pipeline.Event{Stage: "plan", What: "hashing files of equal size to find duplicates", Count: 2820, Bytes: 40_000_000}, 4*time.Second)
	if want := "plan     hashing files of equal size to find duplicates: 2,820 files so far, 705 files/s, 40.0 MB, 10.0 MB/s"; hashing != want {
		t.Errorf("plainLine =\n%q\nwant\n%q", hashing, want)
	}
}

// A named step that lasts gets a log line naming it (no silent gap); one
// that ended before announceAfter does not clutter the log.
func TestStepsAreNamedInTheLogWhenTheyLast(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, false, true)
	var timers []func()
	p.later = func(d time.Duration, f func()) {
		if d != announceAfter {
			t.Errorf("announced after %v, want %v", d, announceAfter)
		}
		timers = append(timers, f)
	}
	p.update(pipeline.Event{Type: "progress", Stage: "plan", What: "listing the library's files to compare with"})
	p.update(pipeline.Event{Type: "progress", Stage: "plan", What: "hashing files of equal size to find duplicates"})
	for _, f := range timers { // the first step has ended, the second runs on
		f()
	}
	if want := "plan     hashing files of equal size to find duplicates\n"; out.String() != want {
		t.Errorf("log = %q, want only %q", out.String(), want)
	}
	out.Reset()
	timers = nil
	p.update(pipeline.Event{Type: "progress", Stage: "transfer", What: "copying files into the library", Total: 2040, TotalBytes: 3_100_000_000})
	p.done()
	timers[0]()
	if out.String() != "" {
		t.Errorf("a step announced after the run ended: %q", out.String())
	}
	if got, want := stepLine(pipeline.Event{Stage: "transfer", What: "copying files into the library", Total: 2040, TotalBytes: 3_100_000_000}),
		"transfer copying files into the library: 2,040 files, 3.1 GB"; got != want {
		t.Errorf("stepLine = %q, want %q", got, want)
	}
}

// On a terminal the copy's bar counts bytes, with the files beside it.
func TestLiveCopyBarCountsBytes(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, true, true)
	p.update(pipeline.Event{Type: "progress", Stage: "transfer", What: "copying files into the library", Total: 2040, TotalBytes: 3_000_000_000})
	p.update(pipeline.Event{Type: "progress", Stage: "transfer", Count: 1020, Total: 2040, Bytes: 1_500_000_000, TotalBytes: 3_000_000_000})
	s := out.String()
	for _, want := range []string{"copying files into the library", "1,020 of 2,040 files", "50%", "GB"} {
		if !strings.Contains(s, want) {
			t.Errorf("live line lacks %q: %q", want, s)
		}
	}
}

// The closing line of a stage counts as the summary does.
func TestStageLines(t *testing.T) {
	for _, c := range []struct {
		ev   pipeline.Event
		want string
	}{
		{pipeline.Event{Stage: "plan", Count: 27, Sidecars: 2, Elapsed: 0.5}, "plan           27 files    0.50s  (2 of them sidecars or pair halves, travelling with their photo)"},
		{pipeline.Event{Stage: "transfer", Count: 1020, Total: 2040, Elapsed: 3}, "transfer 1,020 of 2,040 files    3.00s  (1,020 not attempted)"},
		{pipeline.Event{Stage: "transfer", Count: 27, Total: 27, Elapsed: 1}, "transfer       27 files    1.00s"},
	} {
		if got := stageLine(c.ev); got != c.want {
			t.Errorf("stageLine =\n%q\nwant\n%q", got, c.want)
		}
	}
}
