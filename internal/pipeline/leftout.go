package pipeline

import (
	"context"
	"fmt"

	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/store"
)

// Filters (--since, --exclude, --kind …) are decided before anything is
// compared with the library or with other sources: a file a filter leaves
// out is left out whether or not its bytes are there already, is never
// called a duplicate (so --delete-duplicates never touches it), and is
// never the kept copy of a duplicate set (which would then land nowhere).
// The date rules need the date each file is filed under, which its group
// decides (a video dated by its THM, a Takeout photo by its JSON, --shift),
// so the filter pass arranges each group as the plan stage does, records
// every verdict in the file's own record (fileInfo.LeftOut), and files
// only the admitted photos and videos for dedup. Everything that reports
// a file left out reads that one verdict.

// judgeFilters walks the groups once, before dedup, when a filter is set.
func (r *Run) judgeFilters(ctx context.Context) error {
	if !r.cfg.Filter.Active() {
		return nil
	}
	var (
		members []fileInfo
		keys    [][]byte
	)
	err := r.scanRuns(ctx, keyGroup, withoutSeq, func(k, v []byte, _ bool) error {
		d := newDec(v)
		members = append(members, getInfo(store.Uint64(k[len(k)-8:]), d))
		keys = append(keys, append([]byte(nil), k...))
		return d.Err()
	}, func(_ []byte, w *store.Writer) error {
		err := r.judgeGroup(members, keys, w)
		members, keys = members[:0], keys[:0]
		return err
	})
	if err != nil {
		return fmt.Errorf("apply filters: %w", err)
	}
	return nil
}

// judgeGroup records the filter's verdict on each photo and video of one
// group, and files the admitted ones by size for dedup.
func (r *Run) judgeGroup(members []fileInfo, keys [][]byte, w opWriter) error {
	why := r.filterVerdicts(members)
	var e enc
	for i, m := range members {
		if m.Known != 0 || !isMedia(m.Info.Kind) || m.File.Size <= 0 {
			continue
		}
		if reason, out := why[m.Seq]; out {
			m.LeftOut = reason
			e.reset()
			putInfo(&e, m)
			if err := w.Put(keys[i], e.bytes()); err != nil {
				return err
			}
			continue
		}
		if r.cfg.Dedup {
			if err := w.Put(sizeKey(keySize, m.File.Size, seqKey(nil, m.Seq)), encodeMember(sourceMemberOf(m))); err != nil {
				return err
			}
		}
	}
	return nil
}

// filterVerdicts says why the filter leaves out each photo or video of a
// group that it does, judged on the date each is filed under (groupDates).
func (r *Run) filterVerdicts(members []fileInfo) map[uint64]string {
	out := map[uint64]string{}
	for _, fi := range r.groupDates(members) {
		if !isMedia(fi.Info.Kind) {
			continue
		}
		if why := r.cfg.Filter.Reject(r.filterView(fi)); why != "" {
			out[fi.Seq] = why
		}
	}
	return out
}

// groupDates is each photo, video and sidecar of a group that is not
// known from the history, with the date it is filed under whatever dedup
// finds: a group's leader on the date it may borrow from its companions,
// a separate shot on its own, both after --shift; a pair's other half (the
// JPEG of a RAW, a Live Photo's video) and a sidecar on its own date, an
// undated half on its leader's (it lands beside it).
func (r *Run) groupDates(members []fileInfo) []fileInfo {
	var cands []fileInfo
	for _, m := range members {
		if m.Known == 0 && m.File.Size > 0 && (isMedia(m.Info.Kind) || m.Info.Kind == meta.KindSidecar) {
			cands = append(cands, m)
		}
	}
	if len(cands) == 1 {
		fi := cands[0]
		fi.Info.Date = shiftDate(fi.Info.Date, fi.File.Path, fi.Info.Model, r.cfg.Shift)
		return []fileInfo{fi}
	}
	g := arrange(cands, r.dating(), r.cfg.Shift)
	dated := make([]fileInfo, 0, len(cands))
	if g.primary.File.Path != "" {
		dated = append(dated, g.primary)
	}
	for _, c := range g.companions {
		// The undated half of a pair lands beside its leader, on the
		// leader's day: judged on its own no date, --skip-unknown or
		// --since would part it from the half it is one shot with.
		if isMedia(c.Info.Kind) && (c.Info.Date.IsZero() || !r.modTimeUsed(c)) {
			c.Info.Date = g.primary.Info.Date
		}
		dated = append(dated, c)
	}
	return append(append(dated, g.singles...), g.orphans...)
}

// datedAsFiled gives each of files the date its group files it under.
func (r *Run) datedAsFiled(members, files []fileInfo) {
	dates := map[uint64]meta.Date{}
	for _, fi := range r.groupDates(members) {
		dates[fi.Seq] = fi.Info.Date
	}
	for i := range files {
		if d, ok := dates[files[i].Seq]; ok {
			files[i].Info.Date = d
		}
	}
}
