package pipeline

import (
	"bytes"
	"context"
	"fmt"

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

// joinGroup re-files every member whose group is not the still's.
func (r *Run) joinGroup(keys [][]byte, w *store.Writer) error {
	if len(keys) < 2 {
		return nil
	}
	lead, err := r.stillOf(keys)
	if err != nil || lead == nil {
		return err
	}
	leadGroup := lead[:len(lead)-8]
	for _, k := range keys {
		if bytes.Equal(k[:len(k)-8], leadGroup) {
			continue
		}
		v, ok, err := r.st.Get(k)
		if err != nil || !ok {
			return err
		}
		moved := append(append([]byte(nil), leadGroup...), k[len(k)-8:]...)
		if err := w.Put(moved, v); err != nil {
			return err
		}
		if err := w.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// stillOf picks the photo among a content id's files (nil if none).
func (r *Run) stillOf(keys [][]byte) ([]byte, error) {
	for _, k := range keys {
		v, ok, err := r.st.Get(k)
		if err != nil || !ok {
			return nil, err
		}
		d := newDec(v)
		if fi := getInfo(0, d); d.Err() == nil && fi.Info.Kind == meta.KindPhoto {
			return k, nil
		}
	}
	return nil, nil
}
