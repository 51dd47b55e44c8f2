package pipeline

import "time"

// progressEvery is how often, at most, a stage reports its count.
const progressEvery = 250 * time.Millisecond

// progress emits a "progress" event for stage at most every progressEvery;
// the clock is read only every 256 calls, so the hot loops stay cheap.
// total is 0 when unknown (the scan cannot know how many files remain).
func (r *Run) progress(stage string, count, total int64) {
	if r.cfg.Events == nil || count&255 != 0 {
		return
	}
	now := time.Now()
	if now.Sub(r.lastProgress) < progressEvery {
		return
	}
	r.lastProgress = now
	r.emit(Event{Type: "progress", Stage: stage, Count: count, Total: total})
}
