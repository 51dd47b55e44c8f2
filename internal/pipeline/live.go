package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/store"
)

// joinLivePhotos moves the video of a Live Photo into its still's group
// when the two share a ContentIdentifier but not a name (IMG_1234.HEIC with
// IMG_1234_1.MOV after an export, say): its g/ record is re-filed under the
// still's stem, and planning then treats it like any same-name pair.
func (r *Run) joinLivePhotos(ctx context.Context) error {
	var members [][]byte // g/ keys of one content id
	err := r.scanRuns(ctx, keyLive, withoutSeq, func(_, v []byte, _ bool) error {
		if len(members) < maxLiveMembers {
			members = append(members, append([]byte(nil), v...))
		}
		return nil
	}, func(_ []byte, w *store.Writer) error {
		err := r.joinGroup(members, w)
		members = members[:0]
		return err
	})
	if err != nil {
		return fmt.Errorf("pair live photos: %w", err)
	}
	return r.st.DeletePrefix(keyLive)
}

// maxLiveMembers bounds one content id's files: a Live Photo has two; a
// hostile tree repeating one id does not get to grow this list.
const maxLiveMembers = 16

// liveWindow is how far apart a Live Photo's still and video may be dated
// and still be one shot when only their ContentIdentifier ties them. The
// video runs about 1.5 s either side of the still; an iPhone dates it with
// the still's own capture time (the corpus's IMG_3589.mov: CreationDate
// and mvhd agree to the second), and both times are whole seconds, so
// a true pair is at most a second or two apart. Three seconds keeps every
// such pair and parts what merely shares an identifier: an edited copy
// (IMG_E1234, a still like its original), a restored or re-exported file,
// a crafted one.
const liveWindow = 3 * time.Second

// liveMember is one file of a content id, with its g/ record.
type liveMember struct {
	key, value []byte
	fi         fileInfo
}

// joinGroup re-files each video under the still it is one shot with (see
// livePair), one video per still, the nearest pairs first. Stills are
// never re-filed: two photos that share an identifier stay two photos.
func (r *Run) joinGroup(keys [][]byte, w *store.Writer) error {
	if len(keys) < 2 {
		return nil
	}
	var stills, videos []liveMember
	for _, k := range keys {
		v, ok, err := r.st.Get(k)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		d := newDec(v)
		m := liveMember{key: k, value: append([]byte(nil), v...), fi: getInfo(0, d)}
		switch {
		case d.Err() != nil:
		case m.fi.Info.Kind == meta.KindVideo:
			videos = append(videos, m)
		case m.fi.Info.Kind == meta.KindPhoto && isStill(m.fi.Info.Format):
			stills = append(stills, m)
		}
	}
	for _, p := range livePairs(infos(stills), infos(videos)) {
		if err := r.refile(videos[p.video], groupOf(stills[p.still].key), w); err != nil {
			return err
		}
	}
	return nil
}

// livePairs matches videos to stills one to one, the pairs nearest in
// time first (ties in the order the files were found).
// Sort and explain (decide.go's joinLive) both pair through it.
func livePairs(stills, videos []fileInfo) []liveMatch {
	var all []liveMatch
	for i, s := range stills {
		for j, v := range videos {
			if livePair(s, v) {
				d := time.Duration(0)
				if fromHeader(s.Info.Date) && fromHeader(v.Info.Date) {
					d = apart(s.Info.Date, v.Info.Date)
				}
				all = append(all, liveMatch{still: i, video: j, apart: d})
			}
		}
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].apart < all[b].apart })
	stillTaken, videoTaken := make([]bool, len(stills)), make([]bool, len(videos))
	var out []liveMatch
	for _, m := range all {
		if !stillTaken[m.still] && !videoTaken[m.video] {
			stillTaken[m.still], videoTaken[m.video] = true, true
			out = append(out, m)
		}
	}
	return out
}

func infos(ms []liveMember) []fileInfo {
	out := make([]fileInfo, len(ms))
	for i, m := range ms {
		out[i] = m.fi
	}
	return out
}

// liveMatch is a still and a video of one content id that may be a pair.
type liveMatch struct {
	still, video int
	apart        time.Duration
}

// livePair reports whether a still and a video that share a
// ContentIdentifier are one Live Photo: the kinds of one shot, dated
// within liveWindow of each other (or one without a date of its own,
// which then takes its partner's, as in a same-name pair).
func livePair(still, video fileInfo) bool {
	if !pairKinds(still.Info, video.Info) {
		return false
	}
	if !fromHeader(still.Info.Date) || !fromHeader(video.Info.Date) {
		return true
	}
	return apart(still.Info.Date, video.Info.Date) <= liveWindow
}

// groupOf is a g/ key without its seq: the group it files under.
func groupOf(key []byte) []byte { return key[:len(key)-8] }

// refile moves m's g/ record into group, keeping its seq.
func (r *Run) refile(m liveMember, group []byte, w *store.Writer) error {
	if bytes.Equal(groupOf(m.key), group) {
		return nil
	}
	moved := append(append([]byte(nil), group...), m.key[len(m.key)-8:]...)
	if err := w.Put(moved, m.value); err != nil {
		return err
	}
	return w.Delete(m.key)
}
