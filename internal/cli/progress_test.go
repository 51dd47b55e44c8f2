package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"shoebox/internal/pipeline"
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
