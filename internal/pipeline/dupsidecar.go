package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/shoebox-photos/shoebox/internal/archive"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/scan"
	"github.com/shoebox-photos/shoebox/internal/store"
)

// A sidecar follows its photo's bytes. When every photo and video of a
// group is a duplicate of a source kept elsewhere in the run, its sidecars
// (an .xmp, a Takeout JSON) join the kept copy's group and travel with it
// under its name, as they join a copy already in the library (putBeside).
// Left behind, a sidecar was "without its photo" although its photo's
// bytes were imported; the next run then found the photo in the library
// and imported the sidecar after all, and with move --delete-duplicates
// the photo left the card while its sidecar stayed. When the kept copy
// has a different sidecar of that name, plan.Resolve keeps this one in
// place (Blocked) and says why, as the next run says.

// joinDuplicateSidecars re-files such sidecars under the kept copy's group
// before the groups are planned; nothing to do when no source was kept
// for another.
func (r *Run) joinDuplicateSidecars(ctx context.Context) error {
	if r.keptForOthers == 0 {
		return nil
	}
	var (
		members []fileInfo
		keys    [][]byte
		vals    [][]byte
	)
	err := r.scanRuns(ctx, keyGroup, withoutSeq, func(k, v []byte, _ bool) error {
		d := newDec(v)
		members = append(members, getInfo(store.Uint64(k[len(k)-8:]), d))
		keys = append(keys, append([]byte(nil), k...))
		vals = append(vals, append([]byte(nil), v...))
		return d.Err()
	}, func(_ []byte, w *store.Writer) error {
		err := r.refileSidecars(members, keys, vals, w)
		members, keys, vals = members[:0], keys[:0], vals[:0]
		return err
	})
	if err != nil {
		return fmt.Errorf("join sidecars to kept copies: %w", err)
	}
	return nil
}

// refileSidecars moves one group's sidecars to the group of the copy kept
// for its leading photo, when each of its photos and videos is a duplicate
// of a source. A photo of the group that stays, is in the library, was
// imported before or is left out by a filter keeps them: planGroup decides.
func (r *Run) refileSidecars(members []fileInfo, keys, vals [][]byte, w *store.Writer) error {
	var sidecars, media []int
	for i, m := range members {
		switch {
		case m.File.Size <= 0:
		case isMedia(m.Info.Kind):
			media = append(media, i)
		case m.Known == 0 && m.Info.Kind == meta.KindSidecar:
			sidecars = append(sidecars, i)
		}
	}
	if len(sidecars) == 0 || len(media) == 0 {
		return nil
	}
	kept := map[uint64]string{} // a duplicate's seq → the source kept for it
	var group []fileInfo
	for _, i := range media {
		m := members[i]
		if m.Known != 0 || m.LeftOut != "" {
			return nil
		}
		dup, ok, err := r.duplicateOf(m.Seq)
		if err != nil || !ok || dup.InLibrary {
			return err
		}
		kept[m.Seq] = dup.Path
		group = append(group, m)
	}
	for _, i := range sidecars {
		group = append(group, members[i])
	}
	keeper := kept[arrange(group, r.dating(), r.cfg.Shift).primary.Seq]
	for _, i := range sidecars {
		k := groupKey(fileInfo{Seq: members[i].Seq, File: r.keptFile(keeper)})
		if err := w.Put(k, vals[i]); err != nil {
			return err
		}
		if err := w.Delete(keys[i]); err != nil {
			return err
		}
	}
	return nil
}

// keptFile is what groupKey needs of the copy kept at path: its path,
// and for an archive member its archive (a part of a series groups with
// the other parts, seriesDir).
func (r *Run) keptFile(path string) scan.File {
	f := scan.File{Path: path}
	if m, _ := r.archives.Lookup(path); m != nil {
		f.Root, f.Dev = m.Archive, archive.Dev
	}
	return f
}

// ownFirst orders a leader's companions so that its own (from its folder)
// claim their names before sidecars that joined it from a duplicate's.
func ownFirst(primary fileInfo, companions []fileInfo) {
	dir := filepath.Dir(primary.File.Path)
	slices.SortStableFunc(companions, func(a, b fileInfo) int {
		ao, bo := filepath.Dir(a.File.Path) == dir, filepath.Dir(b.File.Path) == dir
		switch {
		case ao && !bo:
			return -1
		case bo && !ao:
			return 1
		case ao:
			return 0
		}
		return cmpFold(a.File.Path, b.File.Path)
	})
}

func cmpFold(a, b string) int {
	if fa, fb := layout.FoldKey(a), layout.FoldKey(b); fa != fb {
		if fa < fb {
			return -1
		}
		return 1
	}
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
