package pipeline

import (
	"os"
	"path/filepath"
	"sort"

	"github.com/shoebox-photos/shoebox/internal/archive"
	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/scan"
)

// Decider makes DecideWith's decision for one file after another (explain
// decides one; relayout decides every file of a library). Its two header
// readers are made once, and the folder of the files it decides is listed,
// and each file in it read, once while the files it decides come from that
// folder: decided one at a time, a folder of n files was listed and sorted
// n times and each decision made a new 64 KB header buffer, which at 100k
// files is gigabytes of garbage. The decisions are DecideWith's.
type Decider struct {
	opt   meta.Options
	o     DecideOptions
	self  *meta.Reader // reads the file decided (its candidates collected when opt.Explain)
	peers *meta.Reader // reads the files beside it (no candidates)
	last  *listing     // the folder of the last file decided, outside any archive
}

// NewDecider returns a Decider with sort's meta options and flags.
func NewDecider(opt meta.Options, o DecideOptions) *Decider {
	peerOpt := opt
	peerOpt.Explain = false // the companions' candidates are not shown
	return &Decider{opt: opt, o: o, self: meta.NewReader(opt), peers: meta.NewReader(peerOpt)}
}

// folder is the files beside the one decided, each read only when needed.
type folder interface {
	// others lists the folder's files (the decided one among them or not),
	// sorted by stem key, in name order within a key.
	others() ([]peer, error)
	read(path string) (fileInfo, error)
}

type peer struct{ path, key string }

// folderOf is the folder of path: the one listed for the last file when
// it is the same folder on disk, else listed anew. A member of an archive
// is listed from its archive each time (the archive is opened per file).
func (d *Decider) folderOf(path string, set *archive.Set) folder {
	if m, inside := set.Lookup(path); inside && m != nil {
		return newListing(path, d.o.Hidden, set, d.peers)
	}
	if d.last == nil || d.last.dir != filepath.Dir(path) {
		d.last = newListing(path, d.o.Hidden, nil, d.peers)
	}
	return d.last
}

// listing is one folder's files: listed at the first others, read at the
// first read of each.
type listing struct {
	dir    string
	path   string // the file the listing was made for (in an archive, folderFiles leaves it out)
	hidden bool
	set    *archive.Set
	rd     *meta.Reader

	listed bool
	peers  []peer
	err    error
	infos  map[string]readInfo
}

type readInfo struct {
	fi  fileInfo
	err error
}

func newListing(path string, hidden bool, set *archive.Set, rd *meta.Reader) *listing {
	return &listing{dir: filepath.Dir(path), path: path, hidden: hidden, set: set, rd: rd, infos: map[string]readInfo{}}
}

func (l *listing) others() ([]peer, error) {
	if !l.listed {
		l.listed = true
		l.peers, l.err = l.list()
	}
	return l.peers, l.err
}

// list is the folder's files with their stem keys, sorted by key (the
// decided file among them, outside an archive: the next file decided from
// the listing is another of the folder's).
func (l *listing) list() ([]peer, error) {
	var paths []string
	if l.set != nil {
		var err error
		if paths, err = folderFiles(l.path, l.hidden, l.set); err != nil {
			return nil, err
		}
	} else {
		ents, err := os.ReadDir(l.dir)
		if err != nil {
			return nil, err
		}
		for _, e := range ents {
			if e.Type().IsRegular() && (l.hidden || !scan.IsClutter(e.Name())) {
				paths = append(paths, filepath.Join(l.dir, e.Name()))
			}
		}
	}
	peers := make([]peer, len(paths))
	for i, p := range paths {
		peers[i] = peer{path: p, key: stemKey(p)}
	}
	sort.SliceStable(peers, func(i, j int) bool { return peers[i].key < peers[j].key })
	return peers, nil
}

func (l *listing) read(path string) (fileInfo, error) {
	if r, ok := l.infos[path]; ok {
		return r.fi, r.err
	}
	fi, err := readFileInfo(l.rd, path, l.set)
	l.infos[path] = readInfo{fi, err}
	return fi, err
}
