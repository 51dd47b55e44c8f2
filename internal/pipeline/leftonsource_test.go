package pipeline

import "testing"

// TestLeftOnSource: which op events leave a photo or video on its source
// with its bytes in no library (sort --eject keeps the card for them).
func TestLeftOnSource(t *testing.T) {
	op := func(out Outcome, src string, size int64, reason string) Event {
		return Event{Type: "op", Outcome: out, Src: src, Size: size, Reason: reason}
	}
	for _, c := range []struct {
		ev   Event
		want string
	}{
		{op(OutFiltered, "c/IMG_1.JPG", 9, "left out: taken before --since 2020-01-01 00:00:00"), "left out by --since"},
		{op(OutFiltered, "c/IMG_1.JPG", 9, `left out: matches --exclude "*/101*"`), "left out by --exclude"},
		{op(OutFiltered, "c/IMG_1.JPG", 9, "left out: no capture date, so a date filter (--since/--until) cannot admit it"), "left out by --since/--until"},
		{op(OutFiltered, "c/IMG_1.DAT", 9, "left out: something new"), "left out by a filter"}, // a JPEG by content: still a photo
		{op(OutFiltered, "c/IMG_1.xmp", 9, "left out: the photo or video it belongs to is left out"), ""},
		{op(OutImportedBefore, "c/IMG_1.JPG", 9, "imported before as x, deleted from the library since"), "imported before and since deleted or changed in the library: --reimport brings it back"},
		{op(OutIgnored, "c/IMG_1.JPG", 9, "left in place: a different file has its name beside its photo's copy in the library"), "left in place beside its photo's copy: see the warning"},
		{op(OutIgnored, "c/IMG_1.JPG", 9, reasonNotMedia+": its content is text, not jpeg"), ""},
		{op(OutIgnored, "c/IMG_1.JPG", 0, "empty file (0 bytes): nothing to sort"), ""},
		{op(OutIgnored, "c/notes.txt", 9, reasonNotMedia), ""},
		{op(OutIgnored, "c/IMG_1.THM", 9, "sidecar without its photo or video in the same folder: left in place"), ""},
		{op(OutFailed, "c/IMG_1.JPG", 9, "disk full"), "failed"},
		{op(OutNotAttempted, "c/IMG_1.JPG", 9, ""), "not attempted"},
		{op(OutTransferred, "c/IMG_1.JPG", 9, ""), ""},
		{op(OutIdentical, "c/IMG_1.JPG", 9, ""), ""},
		{op(OutDuplicate, "c/IMG_1.JPG", 9, ""), ""},
		{op(OutDupRemoved, "c/IMG_1.JPG", 9, ""), ""},
		{Event{Type: "warning", Src: "c/IMG_1.JPG", Size: 9, Reason: "left out"}, ""},
	} {
		if got := c.ev.LeftOnSource(); got != c.want {
			t.Errorf("%s %s (%q): %q, want %q", c.ev.Outcome, c.ev.Src, c.ev.Reason, got, c.want)
		}
	}
}
