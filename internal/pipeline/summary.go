package pipeline

import (
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/shoebox-photos/shoebox/internal/meta"
)

// Outcome is what became of one file, as counted in the summary and written
// by --json.
type Outcome string

const (
	OutTransferred    Outcome = "transferred"       // copied, moved or linked under its template name
	OutRenamed        Outcome = "renamed"           // transferred under a conflict-free name
	OutIdentical      Outcome = "skip-identical"    // an identical file already sits at the target
	OutDuplicate      Outcome = "duplicate"         // same bytes as another file that is kept
	OutIgnored        Outcome = "ignored"           // not a photo or video
	OutFiltered       Outcome = "filtered"          // left out by a filter (--include, --since …); the reason says which
	OutFailed         Outcome = "failed"            // could not be done; the reason is given
	OutPlanned        Outcome = "planned"           // dry run: would be transferred
	OutPlannedAs      Outcome = "planned-rename"    // dry run: would be transferred under a new name
	OutDupRemoved     Outcome = "duplicate-removed" // --delete-duplicates: a duplicate source removed, its content kept in the library
	OutDupPlanned     Outcome = "planned-removal"   // dry run: would be removed as a duplicate
	OutNotAttempted   Outcome = "not-attempted"     // planned, but the run stopped first (full disk, Ctrl-C): the next run does it
	OutImportedBefore Outcome = "imported-before"   // imported by an earlier run, since deleted or changed in the library: left out (--reimport)
)

// Event is one line of machine output: an operation planned or performed, or a problem.
type Event struct {
	Type       string    `json:"type"`              // "op", "warning", "problem", "stage", "progress"
	Outcome    Outcome   `json:"outcome,omitempty"` // for "op"
	Action     string    `json:"action,omitempty"`  // copy, move, hardlink, symlink, reflink
	Src        string    `json:"src,omitempty"`
	Dst        string    `json:"dst,omitempty"`
	SameAs     string    `json:"same_as,omitempty"` // skip-identical / duplicate: the file it matches
	Size       int64     `json:"size,omitempty"`
	Date       string    `json:"date,omitempty"`        // capture time used, wall clock, RFC 3339 without zone
	DateSource string    `json:"date_source,omitempty"` // exif, quicktime, xmp, filename, mtime, none
	DateTag    string    `json:"date_tag,omitempty"`
	Shift      string    `json:"shift,omitempty"`     // --shift applied to the date: "+1h30m (EOS=+1h30m)"
	Backup     string    `json:"backup,omitempty"`    // --backup: the second copy's path
	DateNote   string    `json:"date_note,omitempty"` // why a file dated only by its modification time went to the unknown folder
	Reason     string    `json:"reason,omitempty"`    // failures, ignored files, problems, fallbacks
	Stage      string    `json:"stage,omitempty"`     // for "stage" and "problem"
	Count      int64     `json:"count,omitempty"`     // for "stage" and "progress": files handled by the stage so far
	Total      int64     `json:"total,omitempty"`     // for "progress": files the stage will handle, 0 when unknown; for the transfer "stage": files planned
	Bytes      int64     `json:"bytes,omitempty"`     // for "progress": bytes handled so far (transfer, hashing)
	TotalBytes int64     `json:"total_bytes,omitempty"`
	What       string    `json:"what,omitempty"`     // for "progress": what the stage is doing, in words
	Sidecars   int64     `json:"sidecars,omitempty"` // for the plan "stage": how many of Count travel with a photo (sidecars, pair halves)
	Elapsed    float64   `json:"elapsed_s,omitempty"`
	Time       time.Time `json:"-"`
}

// LeftOnSource says why the photo or video an op event reports stays on
// its source with its bytes in no library ("" when none does): left out
// by a filter ("left out by --since"), imported by an earlier run and
// since deleted or changed in the library, a pair's half left in place
// beside its photo's copy, failed or not attempted. A sidecar, an empty
// file and a file the run found no photo or video (text under a .JPG
// name) never stay: what is not a photo or video is not waited for.
// Whatever is transferred, already in the library or a duplicate of a
// kept file is in the library. sort --eject lists these.
func (ev Event) LeftOnSource() string {
	if ev.Type != "op" || ev.Size <= 0 || meta.KindByName(ev.Src) == meta.KindSidecar {
		return ""
	}
	switch ev.Outcome {
	case OutFiltered:
		if flag := filterFlag.FindString(ev.Reason); flag != "" {
			return "left out by " + flag
		}
		return "left out by a filter"
	case OutImportedBefore:
		return "imported before and since deleted or changed in the library: --reimport brings it back"
	case OutIgnored:
		if !isMedia(meta.KindByName(ev.Src)) || strings.HasPrefix(ev.Reason, reasonNotMedia) {
			return ""
		}
		return "left in place beside its photo's copy: see the warning"
	case OutFailed:
		return "failed"
	case OutNotAttempted:
		return "not attempted"
	}
	return ""
}

// filterFlag finds the option a filter's reason names: "--since",
// "--exclude", "--since/--until".
var filterFlag = regexp.MustCompile(`--[a-z][a-z-]*(/--[a-z][a-z-]*)?`)

// Summary counts the run's outcomes.
type Summary struct {
	Scanned           int64            `json:"scanned"`
	Problems          int64            `json:"problems"` // paths the scan could not read
	Media             int64            `json:"media"`
	Ignored           int64            `json:"ignored"`
	Filtered          int64            `json:"filtered"` // photos, videos and their sidecars left out by a filter
	Sidecars          int64            `json:"sidecars"` // XMP, AAE, THM, Takeout JSON beside their photos (they travel with them)
	Planned           int64            `json:"planned"`  // files (sidecars included) handed to the transfer stage: planned = transferred + failed + not_attempted
	Transferred       int64            `json:"transferred"`
	Renamed           int64            `json:"renamed"`
	Identical         int64            `json:"skipped_identical"`
	ImportedBefore    int64            `json:"imported_before"`   // imported by an earlier run, since deleted or edited in the library: not brought back
	Recalled          int64            `json:"recognised_unread"` // recognised by the import history from stat data alone, neither file read
	Duplicates        int64            `json:"duplicates"`
	DuplicatesRemoved int64            `json:"duplicates_removed"` // --delete-duplicates: duplicate sources removed (dry run: would be)
	UnknownDate       int64            `json:"unknown_date"`
	ModTimeOnly       int64            `json:"dated_by_mtime"`
	BackupCopies      int64            `json:"backup_copies,omitempty"`             // --backup: second copies in place (or planned), identical ones found there included
	OldBackupsRemoved int64            `json:"old_backup_copies_removed,omitempty"` // --backup: copies at the old places of files moved within the library, removed
	ModTimeDistrusted int64            `json:"mtime_not_trusted"`                   // dated only by a modification time that looks like a copy's: sent to the unknown folder (also counted in unknown_date)
	Failed            int64            `json:"failed"`
	NotAttempted      int64            `json:"not_attempted"` // left for the next run after a stop (destination full)
	Bytes             int64            `json:"bytes"`
	PerYear           map[int]int64    `json:"per_year"` // files planned into each capture year (0 = unknown)
	Sources           map[string]int64 `json:"date_sources"`
	DryRun            bool             `json:"dry_run"`
}

func newSummary() Summary {
	return Summary{PerYear: map[int]int64{}, Sources: map[string]int64{}}
}

// Years lists the years present, ascending.
func (s Summary) Years() []int {
	ys := make([]int, 0, len(s.PerYear))
	for y := range s.PerYear {
		ys = append(ys, y)
	}
	sort.Ints(ys)
	return ys
}

// Incomplete reports whether some file was not handled: the exit code 3 case.
func (s Summary) Incomplete() bool { return s.Failed > 0 || s.Problems > 0 || s.NotAttempted > 0 }
