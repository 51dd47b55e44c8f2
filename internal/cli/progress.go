package cli

import (
	"fmt"
	"io"
	"time"

	// progressbar/v3 rather than mpb/v8: the stages run one after another,
	// so one bar at a time is all we draw, and progressbar does that with
	// count, rate and ETA built in, without mpb's container goroutine and
	// its Wait/abort lifecycle around every bar.
	"github.com/schollz/progressbar/v3"

	"shoebox/internal/pipeline"
)

// plainEvery is how often, at most, a stage's count is written when stderr
// is not a terminal (a log file, CI): often enough to see the run is alive,
// rarely enough that a long run's log stays readable.
const plainEvery = 5 * time.Second

// progress shows how far the current stage is: a live bar redrawn in place
// on a terminal, a plain line every few seconds anywhere else.
type progress struct {
	w     io.Writer
	live  bool // stderr is a terminal
	plain bool // write plain lines when not live
	now   func() time.Time

	stage     string
	since     time.Time // when the current stage started: the previous one's end
	lastPlain time.Time
	bar       *progressbar.ProgressBar // the live line, once the stage reported
	next      *progressbar.ProgressBar // started, not yet drawn: the next stage's line
}

func newProgress(w io.Writer, live, plain bool) *progress {
	p := &progress{w: w, live: live, plain: plain, now: time.Now, since: time.Now()}
	p.startNext()
	return p
}

// startNext starts the clock of the next stage's bar now, when the stage
// begins: its first report comes only after a few hundred files, and a bar
// started then would show those as done in no time at a silly rate.
func (p *progress) startNext() {
	if p.live {
		p.next = newBar(p.w)
		p.next.StartWithoutRender()
	}
}

// update takes a "progress" event.
func (p *progress) update(ev pipeline.Event) {
	if ev.Stage != p.stage {
		p.clear()
		p.stage = ev.Stage
		p.lastPlain = p.since
	}
	switch {
	case p.live:
		p.drawBar(ev)
	case p.plain && p.now().Sub(p.lastPlain) >= plainEvery:
		p.lastPlain = p.now()
		fmt.Fprintln(p.w, plainLine(ev, p.now().Sub(p.since)))
	}
}

// stageDone takes a "stage" event: the live line makes way for the stage's
// own summary line, and the next stage's clock starts.
func (p *progress) stageDone() {
	p.clear()
	p.stage = ""
	p.since = p.now()
	p.startNext()
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

func (p *progress) drawBar(ev pipeline.Event) {
	if p.bar == nil {
		if p.bar, p.next = p.next, nil; p.bar == nil {
			p.bar = newBar(p.w) // a second stage without a "stage" event between
		}
		p.bar.Describe(fmt.Sprintf("%-8s", ev.Stage))
	}
	if ev.Total > 0 && ev.Total != p.bar.GetMax64() {
		p.bar.ChangeMax64(ev.Total)
	}
	_ = p.bar.Set64(ev.Count)
}

// newBar makes a bar of unknown length, a spinner, until a total is known:
// the scan cannot know how many files remain.
func newBar(w io.Writer) *progressbar.ProgressBar {
	return progressbar.NewOptions64(-1,
		progressbar.OptionSetWriter(w),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("files"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetWidth(30),
		// no throttle: the pipeline reports at most every 250 ms already
		// no ticker goroutine: it would draw while the printer writes other lines
		progressbar.OptionSetSpinnerChangeInterval(0),
		progressbar.OptionClearOnFinish(),
	)
}

// plainLine is one progress line for a log: "transfer  12,000 of 50,000
// files (24%), 800 files/s, about 48s left".
func plainLine(ev pipeline.Event, elapsed time.Duration) string {
	rate := 0.0
	if s := elapsed.Seconds(); s > 0 {
		rate = float64(ev.Count) / s
	}
	if ev.Total <= 0 {
		return fmt.Sprintf("%-8s %s files so far, %s files/s", ev.Stage, group(ev.Count), group(int64(rate)))
	}
	line := fmt.Sprintf("%-8s %s of %s files (%d%%), %s files/s", ev.Stage, group(ev.Count), group(ev.Total),
		ev.Count*100/ev.Total, group(int64(rate)))
	if rate > 0 && ev.Count < ev.Total {
		left := time.Duration(float64(ev.Total-ev.Count) / rate * float64(time.Second))
		line += ", about " + left.Round(time.Second).String() + " left"
	}
	return line
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
