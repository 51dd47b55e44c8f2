package pipeline

import (
	"fmt"

	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/storage"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// warnReflinkFallback says once per run, as a warning, that --mode reflink
// is copying in full: the files still land whole, but each takes its own
// space, which is what the user asked reflink to avoid. (In reflink mode
// the executor's only fallback is this one.)
func (r *Run) warnReflinkFallback(fallback string) {
	if r.cfg.Mode != transfer.Reflink || fallback == "" || r.reflinkWarned {
		return
	}
	r.reflinkWarned = true // account runs in the one collecting goroutine
	fs := "its filesystem"
	if in, err := storage.Probe(r.dest); err == nil && in.FSType != "" {
		fs = in.FSType
	}
	r.emit(Event{Type: "warning", Stage: "transfer", Reason: fmt.Sprintf(
		"--mode reflink: the library %s (%s) cannot share file contents with the sources, so files are copied in full, each taking its own space "+
			"(reflinks need the sources and the library on one copy-on-write filesystem: btrfs, XFS made with reflink=1, bcachefs, APFS)",
		quote.Path(r.dest), fs)})
}
