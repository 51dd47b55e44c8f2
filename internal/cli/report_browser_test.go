package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// layoutCheck, put at the end of a copy of the page, measures the laid-out
// page in the browser and writes what it found into the DOM for
// --dump-dom: the viewport's width, the page's scroll width, every
// element reaching past the viewport, and every word of the title that
// was broken across lines.
const layoutCheck = `<script>
addEventListener('load', function () {
  const vw = document.documentElement.clientWidth;
  const wide = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if ((r.width > 0 || r.height > 0) && (r.right > vw + 0.5 || r.left < -0.5)) {
      wide.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
    } else if (!(el instanceof SVGElement) && el.clientWidth > 0 && r.left + el.scrollWidth > vw + 0.5 && getComputedStyle(el).overflowX === 'visible') {
      // its box fits, but its text runs out of it past the viewport
      wide.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' holds ' + Math.round(r.left + el.scrollWidth) + ' px: ' + el.textContent.slice(0, 60));
    }
  }
  const broken = [];
  const h1 = document.querySelector('h1');
  // A word longer than the whole line (a long folder name) must break
  // somewhere; any other must not.
  const pen = document.createElement('canvas').getContext('2d');
  pen.font = getComputedStyle(h1).font;
  const fits = (w) => pen.measureText(w).width < h1.clientWidth;
  const walk = document.createTreeWalker(h1, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    for (const m of n.data.matchAll(/[^\s\/]+/g)) {
      const rg = document.createRange();
      rg.setStart(n, m.index);
      rg.setEnd(n, m.index + m[0].length);
      if (rg.getClientRects().length > 1 && fits(m[0])) broken.push(m[0]);
    }
  }
  // Every image, with the decoded width and the text beside it (the path).
  const imgs = [];
  for (const img of document.querySelectorAll('img')) {
    const box = img.closest('figure, td') || img.parentElement;
    imgs.push({w: img.naturalWidth, text: box.textContent.trim()});
  }
  const pre = document.createElement('pre');
  pre.id = 'layout-check';
  pre.textContent = JSON.stringify({vw: vw, scroll: document.documentElement.scrollWidth, wide: wide, broken: broken, imgs: imgs});
  document.body.appendChild(pre);
  if (window.parent !== window) window.parent.postMessage(pre.textContent, '*');
});
</script>`

// phoneFrame shows the probe in a frame of a phone's width (headless
// Chromium's window is at least 500 px wide) and copies the frame's
// findings into its own DOM.
const phoneFrame = `<!DOCTYPE html><html><body style="margin:0">
<pre id="layout-check"></pre>
<iframe src="probe.html" style="width:%dpx;height:900px;border:0"></iframe>
<script>addEventListener('message', (e) => { document.getElementById('layout-check').textContent = e.data; });</script>
</body></html>`

type layoutFacts struct {
	VW     int      `json:"vw"`
	Scroll int      `json:"scroll"`
	Wide   []string `json:"wide"`
	Broken []string `json:"broken"`
	Imgs   []struct {
		W    int    `json:"w"`
		Text string `json:"text"`
	} `json:"imgs"`
}

// previewFiles are real files whose embedded preview the report shows: a
// HEIF with an EXIF thumbnail, a Fujifilm RAW, an MP4 with cover art.
var previewFiles = map[string]string{
	"IMG_0300.HEIC": "preview/heif-exif-thumb.heif",
	"DSCF0001.RAF":  "FujiFilm.raf",
	"clip.mp4":      "preview/mp4-cover.mp4",
}

// addPreviews puts each preview file on both cards, so that each is a
// duplicate pair the report shows with thumbnails.
func (rt *reportTree) addPreviews(t *testing.T) {
	t.Helper()
	for name, rel := range previewFiles {
		b, err := os.ReadFile(filepath.Join("..", "meta", "testdata", rel))
		if err != nil {
			t.Fatal(err)
		}
		ext := filepath.Ext(name)
		writeFile(t, filepath.Join(rt.src1, name), b, 0o644)
		writeFile(t, filepath.Join(rt.src2, strings.TrimSuffix(name, ext)+" copy"+ext), b, 0o644)
	}
}

// checkPreviews: every image of the page decoded, and each preview file
// shows one.
func checkPreviews(t *testing.T, width int, f layoutFacts) {
	t.Helper()
	for _, img := range f.Imgs {
		if img.W <= 0 {
			t.Errorf("at %d px an image beside %q did not decode", width, img.Text)
		}
	}
	for name := range previewFiles {
		stem := strings.TrimSuffix(name, filepath.Ext(name))
		shown := 0
		for _, img := range f.Imgs {
			if img.W > 0 && strings.Contains(img.Text, stem) {
				shown++
			}
		}
		if shown < 2 {
			t.Errorf("at %d px %s and its copy show %d thumbnails, want 2", width, name, shown)
		}
	}
}

// TestReportLayoutAtDesktopAndPhoneWidths renders the report at a
// desktop's and a phone's width: nothing is wider than the viewport (the
// charts scale to their card), the title breaks only between words and
// folder names, the numbers still equal the summary, and the HEIC, RAW
// and video previews decode.
func TestReportLayoutAtDesktopAndPhoneWidths(t *testing.T) {
	bin := chromium(t)
	rt := newReportTree(t)
	rt.addPreviews(t)
	page := filepath.Join(rt.out, "report.html")
	r := rt.run("sort", "--no-mtime", "--json", "--report", page, rt.src1, rt.src2, rt.lib)
	if r.code != ExitIncomplete {
		t.Fatalf("want exit 3 (the tree has unreadable files):\n%s", r)
	}
	_, sum := jsonSummary(t, r.stdout)
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	probe := filepath.Join(t.TempDir(), "probe.html")
	if err := os.WriteFile(probe, []byte(strings.Replace(string(b), "</body>", layoutCheck+"</body>", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, width := range []int{1280, 400} {
		dom := string(headless(t, bin, probe, "--dump-dom", fmt.Sprintf("--window-size=%d,900", max(width, 500)), "--hide-scrollbars"))
		checkReport(t, readReport(t, dom), sum)
		if width < 500 {
			frame := filepath.Join(filepath.Dir(probe), "phone.html")
			if err := os.WriteFile(frame, []byte(fmt.Sprintf(phoneFrame, width)), 0o644); err != nil {
				t.Fatal(err)
			}
			dom = string(headless(t, bin, frame, "--dump-dom", "--window-size=800,1000", "--hide-scrollbars",
				"--virtual-time-budget=5000"))
		}
		_, rest, ok := strings.Cut(dom, `<pre id="layout-check">`)
		js, _, _ := strings.Cut(rest, "</pre>")
		var f layoutFacts
		if !ok || json.Unmarshal([]byte(html.UnescapeString(js)), &f) != nil {
			t.Fatalf("width %d: the layout check did not run:\n%.2000s", width, rest)
		}
		if f.VW != width {
			t.Errorf("viewport is %d px wide, asked for %d", f.VW, width)
		}
		if f.Scroll > f.VW || len(f.Wide) > 0 {
			t.Errorf("at %d px the page scrolls sideways (%d px wide); elements past the viewport: %v", width, f.Scroll, f.Wide)
		}
		if len(f.Broken) > 0 {
			t.Errorf("at %d px the title breaks inside the words %q", width, f.Broken)
		}
		checkPreviews(t, width, f)
	}
}
