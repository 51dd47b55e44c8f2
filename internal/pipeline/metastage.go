package pipeline

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/store"
)

// Meta reads the header of every scanned file with a pool of workers and
// records file + metadata. Queues between the store reader, the workers and
// the store writer are bounded, so memory does not grow with the file count.
func (r *Run) Meta(ctx context.Context) error {
	start := time.Now()
	if err := r.recall(ctx); err != nil {
		return err
	}
	r.begin("meta", "reading each file's kind and date from its header", r.sum.Scanned, 0)
	jobs := make(chan fileInfo, queueLen)
	done := make(chan fileInfo, queueLen)
	var wg sync.WaitGroup
	for i := 0; i < r.metaWorkers(); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rd := meta.NewReader(meta.Options{VideoTZ: r.cfg.VideoTZ, PhotoTZ: r.cfg.PhotoTZ, DateTags: r.cfg.DateTags})
			for fi := range jobs {
				fi.Info = r.readHeader(rd, fi.File)
				fi.albumTitle = albumTitleOf(fi.File, r.archives)
				done <- fi
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()

	readErr := make(chan error, 1)
	go func() {
		defer close(jobs)
		readErr <- r.st.Scan(keyFile, func(k, v []byte) error {
			d := newDec(v)
			fi := fileInfo{Seq: store.Uint64(k[len(keyFile):]), File: getFile(d)}
			if d.Err() != nil {
				return d.Err()
			}
			select {
			case jobs <- fi:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()

	n, werr := r.writeInfos(done)
	rerr := <-readErr
	r.emit(Event{Type: "stage", Stage: "meta", Count: n, Elapsed: time.Since(start).Seconds()})
	if rerr != nil {
		return fmt.Errorf("read scanned files: %w", rerr)
	}
	if werr != nil {
		return werr
	}
	return r.st.DeletePrefix(keyFile)
}

func isMedia(k meta.Kind) bool { return k == meta.KindPhoto || k == meta.KindVideo }

// queueLen bounds each inter-stage queue.
const queueLen = 1024

func (r *Run) writeInfos(done <-chan fileInfo) (int64, error) {
	w := r.st.Writer(writeBatch)
	var e enc
	var n int64
	var err error
	albumsFull := false
	for fi := range done {
		n++
		r.progress("meta", n, r.sum.Scanned)
		if !r.albums.note(fi) && !albumsFull {
			albumsFull = true
			r.emit(Event{Type: "warning", Stage: "meta", Reason: fmt.Sprintf(
				"over %d Takeout albums have a title: the others are named by their folders in {album}", maxAlbums)})
		}
		if err != nil {
			continue // drain so the workers can finish
		}
		e.reset()
		putInfo(&e, fi)
		gk := groupKey(fi)
		err = w.Put(gk, e.bytes())
		if err == nil && fi.Info.ContentID != "" && isMedia(fi.Info.Kind) {
			err = w.Put(liveKey(fi), gk)
		}
		// With a filter, judgeFilters files the photos and videos it
		// admits for dedup, once their groups' dates are known.
		if err == nil && r.cfg.Dedup && isMedia(fi.Info.Kind) && fi.File.Size > 0 && !r.cfg.Filter.Active() {
			err = w.Put(sizeKey(keySize, fi.File.Size, seqKey(nil, fi.Seq)), encodeMember(sourceMemberOf(fi)))
		}
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return n, fmt.Errorf("record metadata: %w", err)
	}
	return n, nil
}
