package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/shoebox-photos/shoebox/internal/archive"
	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/scan"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// Sources that are archives (a .zip file named as a SRC) are opened here,
// and their members are files to every stage: a member's path is the
// archive's path joined with its name, and r.cfg.FS is wrapped so that
// opening or statting such a path reads the member (internal/archive).
// The only other places that know of archives are the ones that open a
// file outside r.cfg.FS: the header reader (readHeader) and a sidecar's
// date (fileInfo.sidecarDate).

// openArchives opens the sources that are archive files and wraps the
// run's FS over them. A mode that would change or link to the source is
// refused: a member cannot be removed from its archive, nor linked to.
func (r *Run) openArchives() error {
	var paths []string
	for _, s := range r.sources {
		if info, err := os.Stat(s); err == nil && info.Mode().IsRegular() && archive.Is(s) {
			paths = append(paths, s)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	if err := r.archiveModeAllowed(paths[0]); err != nil {
		return err
	}
	set := archive.OpenEach(paths)
	r.archives = set
	r.cfg.FS = set.FS(r.cfg.FS)
	if r.renumbering == nil {
		r.renumbering = map[string]bool{}
	}
	for _, p := range paths {
		r.renumbering[p] = true // the history knows members by place (memberFile)
	}
	return nil
}

// memberFile is a member as scanned. Its identity for the import history
// is made of what names its content in the archive: the device is
// archive.Dev (no disk's), the inode and the change time hold the CRC and
// the size, and since archive roots are recalled by place (the rule for
// filesystems that number inodes afresh), a member is recognised by its
// name in the archive, size, mtime and CRC, wherever the archive lies now:
// a re-run over the same archive reads nothing, and a photo culled from
// the library stays out.
func memberFile(a *archive.Archive, m *archive.Member) scan.File {
	return scan.File{Path: m.Path(), Root: a.Path, Size: m.Size, ModTime: m.ModTime,
		Dev: archive.Dev, Ino: uint64(m.CRC)<<32 | uint64(uint32(m.Size)), CTime: time.Unix(0, int64(m.CRC)),
		Nlink: 1}
}

func (r *Run) archiveModeAllowed(first string) error {
	switch {
	case r.cfg.DeleteDuplicates:
		return fmt.Errorf("%w: --delete-duplicates cannot apply to the archive %s: a member cannot be removed from an archive safely; sort it with --mode copy", ErrConfig, quote.Path(first))
	case r.cfg.Mode == transfer.Move:
		return fmt.Errorf("%w: --mode move cannot apply to the archive %s: a member cannot be removed from an archive safely; sort it with --mode copy (the archive is left as it is)", ErrConfig, quote.Path(first))
	case r.cfg.Mode == transfer.Hardlink || r.cfg.Mode == transfer.Symlink:
		return fmt.Errorf("%w: --mode %s cannot apply to the archive %s: a library file cannot link to a member of an archive; sort it with --mode copy", ErrConfig, r.cfg.Mode, quote.Path(first))
	}
	return nil
}

// plainSources are the sources the directory walk reads: all but the
// archives.
func (r *Run) plainSources() []string {
	if r.archives == nil {
		return r.sources
	}
	var plain []string
	for _, s := range r.sources {
		if !r.isArchive(s) {
			plain = append(plain, s)
		}
	}
	return plain
}

func (r *Run) isArchive(path string) bool { return r.archives.Holds(path) }

// scanArchives emits every member of the archives as a scanned file, and
// reports each member refused (its name, encryption, sizes) as a problem
// naming the archive and the member.
func (r *Run) scanArchives(ctx context.Context, emit func(scan.File) error, report func(scan.Problem)) error {
	if r.archives == nil {
		return nil
	}
	for _, p := range r.archives.Failed() {
		report(scan.Problem{Path: p.Archive, Op: "read archive", Err: p.Err})
	}
	r.warnMissingParts()
	for _, a := range r.archives.Archives() {
		for _, p := range a.Problems() {
			// Named as its members are (ARCHIVE/MEMBER), so that the list
			// of failed paths says which member to look at. The name is
			// joined as stored, never cleaned: "../x.jpg" cleaned would
			// name a file outside the archive that is not the one refused.
			path := a.Path + string(filepath.Separator) + p.Member
			report(scan.Problem{Path: path, Op: "read archive member", Err: p.Err})
		}
		for _, m := range a.Members() {
			if err := ctx.Err(); err != nil {
				return err
			}
			if !r.cfg.Hidden && clutterMember(m.Name) {
				continue
			}
			if err := emit(memberFile(a, m)); err != nil {
				return err
			}
		}
	}
	return nil
}

// readHeader reads a scanned file's metadata, from its archive when it is
// a member.
func (r *Run) readHeader(rd *meta.Reader, f scan.File) meta.Info {
	if m, inside := r.archives.Lookup(f.Path); inside && m != nil {
		src := m.OpenReaderAt()
		defer src.Close()
		return rd.ReaderAt(f.Path, src, f.Size, f.ModTime)
	}
	return rd.File(f.Path, f.Size, f.ModTime)
}

// sidecarDate is a sidecar's date from its content (see companionDate).
func (fi fileInfo) sidecarDate(dt dating) (meta.Date, bool, error) {
	rd := meta.NewReader(meta.Options{VideoTZ: dt.loc, DateTags: dt.tags})
	if m, inside := fi.archives.Lookup(fi.File.Path); inside && m != nil {
		src := m.OpenReaderAt()
		defer src.Close()
		return rd.SidecarAt(fi.File.Path, src, fi.File.Size)
	}
	return rd.Sidecar(fi.File.Path, fi.File.Size)
}

// clutterMember reports a member the walk would skip without --hidden: a
// hidden or clutter name anywhere in its path, and macOS's __MACOSX folder
// of AppleDouble files, which its archiver adds to every zip.
func clutterMember(name string) bool {
	for _, seg := range strings.Split(name, "/") {
		if scan.IsClutter(seg) || seg == "__MACOSX" {
			return true
		}
	}
	return false
}

// warnMissingParts says which parts of an export series (Takeout's
// takeout-…-001.zip, -002.zip …) are not among the sources, below the
// highest one given: a photo in one part may have its JSON in another,
// and one that is missing leaves its photos undated or its JSONs alone.
func (r *Run) warnMissingParts() {
	var paths []string
	for _, a := range r.archives.Archives() {
		paths = append(paths, a.Path)
	}
	for _, f := range r.archives.Failed() {
		paths = append(paths, f.Archive)
	}
	for _, why := range missingParts(paths, "not among the sources", "; add the missing parts to the same command to sort them together") {
		r.emit(Event{Type: "warning", Stage: "scan", Reason: why})
	}
}

// missingParts words, a sentence per series, the parts of export series
// missing from paths (archive.MissingParts), saying where they are not
// and what to do.
func missingParts(paths []string, where, advice string) []string {
	missing := archive.MissingParts(paths)
	series := make([]string, 0, len(missing))
	for s := range missing {
		series = append(series, s)
	}
	sort.Strings(series)
	var out []string
	for _, s := range series {
		var nums []string
		for _, n := range missing[s] {
			nums = append(nums, strconv.Itoa(n))
		}
		out = append(out, fmt.Sprintf(
			"the export %s is given without part %s of its series (%s): a photo whose JSON is in a missing part goes undated, and a JSON whose photo is there stays behind%s",
			quote.Path(s+"-…"), strings.Join(nums, ", "), where, advice))
	}
	return out
}
