package cli

import (
	"fmt"
	"io"
	"sync"
	"time"

	// progressbar/v3 rather than mpb/v8: the stages run one after another,
	// so one bar at a time is all we draw, and progressbar does that with
	// count, rate and ETA built in, without mpb's container goroutine and
	// its Wait/abort lifecycle around every bar.
	"github.com/schollz/progressbar/v3"

	"github.com/shoebox-photos/shoebox/internal/pipeline"
)

// plainEvery is how often, at most, a stage's count is written when stderr
// is not a terminal (a log file, CI): often enough to see the run is alive,
// rarely enough that a long run's log stays readable.
const plainEvery = 5 * time.Second

// announceAfter is how long a named step runs before a log gets a line
// naming it: a step that ends sooner would only clutter the log, one that
// lasts longer would otherwise be a silent gap.
const announceAfter = time.Second

// progress shows how far the current stage is: a live bar redrawn in place
// on a terminal, a plain line every few seconds anywhere else. Each step of
// a stage that the pipeline names ("hashing files of equal size to find
// duplicates") gets its own line, at once, so no step is a silent gap.
type progress struct {
	w     io.Writer
	live  bool // stderr is a terminal
	plain bool // write plain lines when not live
	now   func() time.Time

	stage     string
	what      string    // the step of the stage, in words ("" when not named)
	since     time.Time // when the current step started
	lastPlain time.Time
	bar       *progressbar.ProgressBar // the live line of the current step

	// A log line naming a step is written by a timer, announceAfter after
	// the step began, if it is still the current one (gen unchanged).
	later func(time.Duration, func())
	lock  sync.Locker // held by whoever else writes to w; nil when none
	gen   int
}

func newProgress(w io.Writer, live, plain bool) *progress {
	return &progress{w: w, live: live, plain: plain, now: time.Now, since: time.Now(),
		later: func(d time.Duration, f func()) { time.AfterFunc(d, f) }}
}

// update takes a "progress" event.
func (p *progress) update(ev pipeline.Event) {
	if ev.Stage != p.stage || (ev.What != "" && ev.What != p.what) {
		p.step(ev)
	}
	switch {
	case p.live:
		p.drawBar(ev)
	case p.plain && p.now().Sub(p.lastPlain) >= plainEvery:
		p.lastPlain = p.now()
		fmt.Fprintln(p.w, plainLine(ev, p.now().Sub(p.since)))
	}
}

// step starts the line of a new stage or step. A plain log gets one line
// naming it at once.
func (p *progress) step(ev pipeline.Event) {
	named := ev.What != "" && ev.What != p.what
	p.clear()
	if named {
		p.since = p.now() // rates and time left are of this step alone
	}
	p.stage, p.what = ev.Stage, ev.What
	p.lastPlain = p.since
	p.gen++
	if named && !p.live && p.plain {
		p.announce(p.gen, stepLine(ev))
	}
}

// announce writes line once the step of generation gen has run for
// announceAfter, unless it ended (or a plain progress line was written).
func (p *progress) announce(gen int, line string) {
	p.later(announceAfter, func() {
		if p.lock != nil {
			p.lock.Lock()
			defer p.lock.Unlock()
		}
		if p.gen == gen && p.lastPlain == p.since {
			fmt.Fprintln(p.w, line)
			p.lastPlain = p.now()
		}
	})
}

// stepLine announces a step: "transfer copying files into the library:
// 2,040 files, 3.1 GB".
func stepLine(ev pipeline.Event) string {
	line := fmt.Sprintf("%-8s %s", ev.Stage, ev.What)
	switch {
	case ev.Total > 0 && ev.TotalBytes > 0:
		line += fmt.Sprintf(": %s files, %s", group(ev.Total), size(ev.TotalBytes))
	case ev.Total > 0:
		line += fmt.Sprintf(": %s files", group(ev.Total))
	}
	return line
}

// stageDone takes a "stage" event: the live line makes way for the stage's
// own summary line, and the next stage's clock starts.
func (p *progress) stageDone() {
	p.clear()
	p.stage, p.what = "", ""
	p.since = p.now()
	p.gen++
}

// done ends the progress: the run is over, nothing more is announced.
func (p *progress) done() {
	p.clear()
	p.gen++
}

// clear removes the live line, so that a message can be printed in its
// place; the bar is drawn again on the next update.
func (p *progress) clear() {
	if p.bar == nil {
		return
	}
	_ = p.bar.Clear()
	_ = p.bar.Exit()
	p.bar = nil
}

// pause clears the live line before another line is written to the same
// terminal, so messages and the bar do not run into each other.
func (p *progress) pause() {
	if p.bar != nil {
		_ = p.bar.Clear()
	}
}

// drawBar draws the live line: for a copy, a bar of bytes (its rate in
// MB/s and its time left come from the bytes, since one video weighs as
// much as a thousand photos) with the file count beside it; elsewhere a
// bar of files.
func (p *progress) drawBar(ev pipeline.Event) {
	byBytes := ev.TotalBytes > 0
	if p.bar == nil {
		p.bar = newBar(p.w, byBytes)
	}
	desc := fmt.Sprintf("%-8s", ev.Stage)
	if p.what != "" {
		desc += " " + p.what
	}
	switch {
	case byBytes:
		desc += fmt.Sprintf(" (%s of %s files)", group(ev.Count), group(ev.Total))
	case ev.Bytes > 0:
		desc += fmt.Sprintf(" (%s)", size(ev.Bytes))
	}
	p.bar.Describe(desc)
	max, at := ev.Total, ev.Count
	if byBytes {
		max, at = ev.TotalBytes, ev.Bytes
	}
	if max > 0 && max != p.bar.GetMax64() {
		p.bar.ChangeMax64(max)
	}
	if at == 0 {
		_ = p.bar.RenderBlank() // a step just begun: name it now
		return
	}
	_ = p.bar.Set64(at)
}

// newBar makes a bar of unknown length, a spinner, until a total is known:
// the scan cannot know how many files remain.
func newBar(w io.Writer, bytes bool) *progressbar.ProgressBar {
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetWidth(30),
		// no throttle: the pipeline reports at most every 250 ms already
		// no ticker goroutine: it would draw while the printer writes other lines
		progressbar.OptionSetSpinnerChangeInterval(0),
		progressbar.OptionClearOnFinish(),
	}
	if bytes {
		opts = append(opts, progressbar.OptionShowBytes(true))
	} else {
		opts = append(opts, progressbar.OptionShowIts(), progressbar.OptionSetItsString("files"))
	}
	return progressbar.NewOptions64(-1, opts...)
}

// plainLine is one progress line for a log: "transfer 12,000 of 50,000
// files (24%), 800 files/s, 3.1 GB of 9.8 GB, 85.2 MB/s, about 1m19s
// left". The time left comes from the bytes when they are known.
func plainLine(ev pipeline.Event, elapsed time.Duration) string {
	secs := elapsed.Seconds()
	rate, byteRate := 0.0, 0.0
	if secs > 0 {
		rate, byteRate = float64(ev.Count)/secs, float64(ev.Bytes)/secs
	}
	line := fmt.Sprintf("%-8s ", ev.Stage)
	if ev.What != "" {
		line += ev.What + ": "
	}
	if ev.Total <= 0 {
		line += fmt.Sprintf("%s files so far, %s files/s", group(ev.Count), group(int64(rate)))
		if ev.Bytes > 0 {
			line += fmt.Sprintf(", %s, %s/s", size(ev.Bytes), size(int64(byteRate)))
		}
		return line
	}
	line += fmt.Sprintf("%s of %s files (%d%%), %s files/s", group(ev.Count), group(ev.Total),
		ev.Count*100/ev.Total, group(int64(rate)))
	var left time.Duration
	switch {
	case ev.TotalBytes > 0:
		line += fmt.Sprintf(", %s of %s, %s/s", size(ev.Bytes), size(ev.TotalBytes), size(int64(byteRate)))
		if byteRate > 0 && ev.Bytes < ev.TotalBytes {
			left = time.Duration(float64(ev.TotalBytes-ev.Bytes) / byteRate * float64(time.Second))
		}
	case rate > 0 && ev.Count < ev.Total:
		left = time.Duration(float64(ev.Total-ev.Count) / rate * float64(time.Second))
	}
	if left > 0 {
		line += ", about " + left.Round(time.Second).String() + " left"
	}
	return line
}

// size writes a byte count in decimal units, as disks and rates are sold:
// 950 B, 12.3 MB, 1.2 GB.
func size(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, i := float64(n), -1
	for v >= unit && i < 4 {
		v /= unit
		i++
	}
	return fmt.Sprintf("%.1f %cB", v, "kMGTP"[i])
}

// group writes n with thousands separators: 1,234,567.
func group(n int64) string {
	if n < 0 {
		return "-" + group(-n)
	}
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
