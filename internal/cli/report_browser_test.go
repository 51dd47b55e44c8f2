package cli

import (
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// screenshotEnv names a file to keep the browser's screenshot in, e.g.
// SHOEBOX_REPORT_PNG=$PWD/docs/report.png to refresh the docs' picture.
const screenshotEnv = "SHOEBOX_REPORT_PNG"

// chromium finds a headless-capable Chromium, skipping the test without one.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("chromium is not installed (test.sh installs it with apt-get when online): skipping the browser check of the report")
	return ""
}

// headless runs Chromium on page with the flags that keep it off the
// network and out of the user's profile, plus extra.
func headless(t *testing.T, bin, page string, extra ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir()}, extra...)
	cmd := exec.CommandContext(ctx, bin, append(args, "file://"+page)...)
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", extra, err, stderr.String())
	}
	return out
}

// limitedBuffer keeps the first 16 KB of Chromium's chatty stderr.
type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := 16<<10 - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string { return string(l.b) }

// TestReportInBrowser renders the report in headless Chromium: the numbers
// in the rendered DOM equal the run's summary, and the page draws.
func TestReportInBrowser(t *testing.T) {
	bin := chromium(t)
	rt := newReportTree(t)
	page := filepath.Join(rt.out, "report.html")
	r := rt.run("sort", "--no-mtime", "--json", "--report", page, rt.src1, rt.src2, rt.lib)
	if r.code != ExitIncomplete {
		t.Fatalf("want exit 3 (the tree has unreadable files):\n%s", r)
	}
	_, sum := jsonSummary(t, r.stdout)

	dom := headless(t, bin, page, "--dump-dom")
	facts := readReport(t, string(dom))
	checkReport(t, facts, sum)

	shot := filepath.Join(t.TempDir(), "r.png")
	headless(t, bin, page, "--screenshot="+shot, "--window-size=1200,1600", "--hide-scrollbars")
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 1600 {
		t.Errorf("screenshot is %v, want 1200x1600", b)
	}
	if keep := os.Getenv(screenshotEnv); keep != "" {
		b, err := os.ReadFile(shot)
		if err == nil {
			err = os.WriteFile(keep, b, 0o644)
		}
		if err != nil {
			t.Fatalf("keep the screenshot in %s: %v", keep, err)
		}
	}
}
