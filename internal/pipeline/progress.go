package pipeline

import "time"

// progressEvery is how often, at most, a stage reports its count.
const progressEvery = 250 * time.Millisecond

// progress emits a "progress" event for stage at most every progressEvery.
// The clock is read on every call: a read costs tens of nanoseconds, far
// below the stat or read each call stands for, and the count shown then
// moves smoothly instead of in steps of a few hundred files.
// total is 0 when unknown (the scan cannot know how many files remain).
func (r *Run) progress(stage string, count, total int64) {
	r.tick(Event{Type: "progress", Stage: stage, Count: count, Total: total})
}

// tick emits ev (a "progress" event, maybe with bytes) if progressEvery
// has passed since the last one; What is filled in from the current
// activity.
func (r *Run) tick(ev Event) {
	if r.cfg.Events == nil {
		return
	}
	now := time.Now()
	if now.Sub(r.lastProgress) < progressEvery {
		return
	}
	r.lastProgress = now
	ev.What = r.doing
	r.emit(ev)
}

// begin names what a stage does next ("hashing files of equal size to
// find duplicates") and says so at once, with whatever count and total
// are known, so that no step of a run is a silent gap on the terminal.
func (r *Run) begin(stage, what string, total, totalBytes int64) {
	r.doing = what
	r.lastProgress = time.Now()
	r.emit(Event{Type: "progress", Stage: stage, What: what, Total: total, TotalBytes: totalBytes})
}
