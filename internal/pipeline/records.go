package pipeline

import (
	"time"

	"github.com/shoebox-photos/shoebox/internal/archive"
	"github.com/shoebox-photos/shoebox/internal/importlog"
	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/scan"
	"github.com/shoebox-photos/shoebox/internal/store"
)

// Key spaces of the run store. Every key starts with one letter and a slash
// so DeletePrefix can drop a stage's output in one call.
var (
	keyFile = []byte("f/") // f/<seq>                 scanned file
	keySize = []byte("s/") // s/<size><seq> → member    photos and videos by size, for dedup
	keyLib  = []byte("l/") // l/<size><path>           library files by size, for dedup
	keyDup  = []byte("u/") // u/<seq>                  duplicate: what it duplicates
	keyDest = []byte("d/") // d/<dir>\0<fold>\0<src>   planned file, sorted by target dir
	keyOp   = []byte("o/") // o/<n>                    operation to perform, in target-dir order
	// keyGroup (g/…, file + metadata by source folder and stem) is in group.go
)

func seqKey(prefix []byte, seq uint64) []byte {
	return store.AppendUint64(append([]byte(nil), prefix...), seq)
}

func sizeKey(prefix []byte, size int64, tail []byte) []byte {
	k := store.AppendUint64(append([]byte(nil), prefix...), uint64(size))
	return append(k, tail...)
}

func putFile(e *enc, f scan.File) {
	e.s(f.Path)
	e.s(f.Root)
	e.i(f.Size)
	e.t(f.ModTime)
	e.u(f.Dev)
	e.u(f.Ino)
	e.u(f.Nlink)
	e.t(f.CTime)
}

func getFile(d *dec) scan.File {
	return scan.File{Path: d.s(), Root: d.s(), Size: d.i(), ModTime: d.t(), Dev: d.u(), Ino: d.u(), Nlink: d.u(), CTime: d.t()}
}

// fileInfo is a scanned file with what the metadata stage learned.
type fileInfo struct {
	Seq  uint64
	File scan.File
	Info meta.Info
	// Known is set when the import history recognised this file by its
	// stat data alone (recall.go): its header was not read, and KnownPath
	// is its library copy.
	Known     importlog.State
	KnownPath string
	KnownRun  string
	// LeftOut is why a filter leaves this photo or video out, decided
	// once for its whole group before duplicates are looked for
	// (judgeFilters): a file left out is never a duplicate, nor the copy
	// of one that is kept. "" when admitted.
	LeftOut string
	// archives is the run's archive set, when the file may be one's
	// member; not stored, set by whoever reads the file's content.
	archives *archive.Set
	// albumTitle is, for a Takeout album's metadata.json, the album's
	// title (albums.go); not stored: the meta stage hands it to the run.
	albumTitle string
}

func putInfo(e *enc, fi fileInfo) {
	putFile(e, fi.File)
	in := fi.Info
	e.u(uint64(in.Kind))
	e.s(in.Format)
	e.t(in.Date.Wall)
	e.i(int64(in.Date.Offset))
	e.bool(in.Date.HasOffset)
	e.u(uint64(in.Date.Source))
	e.s(in.Date.Tag)
	e.i(int64(in.Date.Shift))
	e.s(in.Date.ShiftRule)
	e.s(in.Make)
	e.s(in.Model)
	e.s(in.ContentID)
	e.s(in.Warning)
	e.u(uint64(fi.Known))
	e.s(fi.KnownPath)
	e.s(fi.KnownRun)
	e.s(fi.LeftOut)
}

func getInfo(seq uint64, d *dec) fileInfo {
	fi := fileInfo{Seq: seq, File: getFile(d)}
	in := &fi.Info
	in.Kind = meta.Kind(d.u())
	in.Format = d.s()
	in.Date.Wall = d.t()
	in.Date.Offset = int(d.i())
	in.Date.HasOffset = d.bool()
	in.Date.Source = meta.Source(d.u())
	in.Date.Tag = d.s()
	in.Date.Shift = time.Duration(d.i())
	in.Date.ShiftRule = d.s()
	in.Make = d.s()
	in.Model = d.s()
	in.ContentID = d.s()
	in.Warning = d.s()
	fi.Known = importlog.State(d.u())
	fi.KnownPath = d.s()
	fi.KnownRun = d.s()
	fi.LeftOut = d.s()
	return fi
}

// dupOf records that a source file is byte-identical to a file that is kept.
type dupOf struct {
	Path      string // the kept copy
	InLibrary bool   // the kept copy is already in the library
	Why       string // which of plan.Keeper's rules kept it ("the camera's own name")
}

// planned is a file with its wanted destination, sorted by directory.
type planned struct {
	Seq       uint64
	Src       string
	Size      int64
	ModTime   time.Time
	Dir       string // relative to DEST, slash-separated
	Name      string
	Year      int // capture year, 0 when unknown
	Unknown   bool
	Source    meta.Source
	Taken     time.Time     // the capture wall clock used, zero when unknown
	Tag       string        // the field it came from
	Shift     time.Duration // how far --shift moved Taken
	ShiftRule string        // the --shift rule applied, "" when none
	Note      string        // why an Unknown file\'s modification time was not trusted
	// Make, Model, Kind and Root (the source root) are kept only for a
	// {counter} template, whose file name is expanded again once its
	// folder's sequence is known.
	Make, Model, Kind, Root string
	// Present: this file is in the library already (at Dir/Name) and only
	// leads its companions there; it is not transferred.
	Present bool
	// The source's identity and kind, for the import history.
	Dev, Ino uint64
	CTime    time.Time
	KindCode meta.Kind
	// Companions travel under this file's stem (sidecars, the other half of a pair).
	Companions []companion
}

// companion is a file that follows its group's primary.
type companion struct {
	Src      string
	Size     int64
	ModTime  time.Time
	Suffix   string
	Dev, Ino uint64
	CTime    time.Time
	KindCode meta.Kind
}

func putPlanned(e *enc, p planned) {
	e.u(p.Seq)
	e.s(p.Src)
	e.i(p.Size)
	e.t(p.ModTime)
	e.s(p.Dir)
	e.s(p.Name)
	e.i(int64(p.Year))
	e.bool(p.Unknown)
	e.u(uint64(p.Source))
	e.t(p.Taken)
	e.s(p.Tag)
	e.i(int64(p.Shift))
	e.s(p.ShiftRule)
	e.s(p.Note)
	e.s(p.Make)
	e.s(p.Model)
	e.s(p.Kind)
	e.s(p.Root)
	e.bool(p.Present)
	e.u(p.Dev)
	e.u(p.Ino)
	e.t(p.CTime)
	e.u(uint64(p.KindCode))
	e.u(uint64(len(p.Companions)))
	for _, c := range p.Companions {
		e.s(c.Src)
		e.i(c.Size)
		e.t(c.ModTime)
		e.s(c.Suffix)
		e.u(c.Dev)
		e.u(c.Ino)
		e.t(c.CTime)
		e.u(uint64(c.KindCode))
	}
}

func getPlanned(d *dec) planned {
	p := planned{Seq: d.u(), Src: d.s(), Size: d.i(), ModTime: d.t(), Dir: d.s(), Name: d.s(),
		Year: int(d.i()), Unknown: d.bool(), Source: meta.Source(d.u()), Taken: d.t(), Tag: d.s(),
		Shift: time.Duration(d.i()), ShiftRule: d.s(), Note: d.s(), Make: d.s(), Model: d.s(), Kind: d.s(), Root: d.s(), Present: d.bool(),
		Dev: d.u(), Ino: d.u(), CTime: d.t(), KindCode: meta.Kind(d.u())}
	n := d.u()
	if n > maxCompanions {
		d.fail()
		return p
	}
	for i := uint64(0); i < n && d.Err() == nil; i++ {
		p.Companions = append(p.Companions, companion{Src: d.s(), Size: d.i(), ModTime: d.t(), Suffix: d.s(),
			Dev: d.u(), Ino: d.u(), CTime: d.t(), KindCode: meta.Kind(d.u())})
	}
	return p
}

// maxCompanions bounds a group read back from the store.
const maxCompanions = 1 << 16
