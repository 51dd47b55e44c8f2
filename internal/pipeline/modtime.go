package pipeline

import (
	"fmt"
	"time"

	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/scan"
)

// A file dated only by its modification time is dated by whatever last
// wrote it: a copy made today of an old backup has today's mtime (cp
// without -p, a file manager, a download), and would land in today's
// folder. So by default an mtime is trusted only when something set it
// apart from the write itself and it is not recent:
//
//   - it is older than the file's change time (ctime) by more than
//     modTimeSlack: the time was carried over from elsewhere (cp -p,
//     rsync -t, an unzip, an import tool), not stamped by this copy. A
//     fresh copy has mtime == ctime == the copy's date. (On Linux ctime is
//     the inode change time, which no program can set back.)
//   - it is older than recentModTime: a time set within the last days is
//     as likely a copy's as a capture's.
//
// --mtime trusts every mtime (the old behaviour), --no-mtime none.
const (
	modTimeSlack  = time.Minute
	recentModTime = 7 * 24 * time.Hour
)

// modTimeVerdict says why a file's date, when it is only its modification
// time, is not used ("" when it is used, or the date is not an mtime).
// noFlag is false when the reason is --no-mtime (the user's choice, not
// a doubt about this file).
func (r *Run) modTimeVerdict(f scan.File, d meta.Date) (why string, doubted bool) {
	return modTimePolicy{r.cfg.NoModTime, r.cfg.TrustModTime}.verdict(f, d, r.now)
}

// modTimePolicy is what --no-mtime and --mtime say.
type modTimePolicy struct{ never, always bool }

func (p modTimePolicy) verdict(f scan.File, d meta.Date, now time.Time) (why string, doubted bool) {
	if d.IsZero() || d.Source != meta.SourceModTime {
		return "", false
	}
	if p.never {
		return "the modification time is not used (--no-mtime)", false
	}
	// An impossible time is no date whatever --mtime says: a clock that
	// was never set, or a tool that wrote no time, gives 1970-01-01; a
	// wrong clock gives a time to come. No folder named 1970 or 2090 is
	// ever right for it.
	if why := impossibleModTime(f.ModTime, now); why != "" {
		return why, true
	}
	if p.always {
		return "", false
	}
	if why := distrustModTime(f, now); why != "" {
		return why, true
	}
	return "", false
}

// earliestModTime: no photo file was written before the FAT epoch (1980,
// itself the zero of a DOS clock); an earlier mtime is a zero or a
// wrapped clock. futureModTime is the slack given to clocks of other
// machines (a network share) before a time counts as to come.
var earliestModTime = time.Date(1980, 1, 1, 0, 0, 1, 0, time.UTC)

const futureModTime = 24 * time.Hour

// impossibleModTime says why an mtime cannot be a capture date at all,
// "" when it can.
func impossibleModTime(mt, now time.Time) string {
	switch {
	case mt.Before(earliestModTime):
		return fmt.Sprintf("only its modification time (%s) dates it, and that is before 1980: the zero of a clock never set, or no time written; not used",
			mt.UTC().Format("2006-01-02 15:04"))
	case mt.After(now.Add(futureModTime)):
		return fmt.Sprintf("only its modification time (%s) dates it, and that is in the future: a wrong clock; not used",
			mt.Local().Format("2006-01-02 15:04"))
	}
	return ""
}

// distrustModTime says why a file's mtime is not taken for its capture
// date by default, "" when it is.
func distrustModTime(f scan.File, now time.Time) string {
	mt := f.ModTime
	switch {
	case !f.CTime.IsZero() && !mt.Before(f.CTime.Add(-modTimeSlack)):
		return fmt.Sprintf("only its modification time (%s) dates it, and that is when the file was written here (its change time is the same), as a copy's is: not trusted; give --mtime to use it",
			mt.Local().Format("2006-01-02 15:04"))
	case now.Sub(mt) < recentModTime:
		return fmt.Sprintf("only its modification time (%s) dates it, and that is within the last %d days, as a fresh copy's is: not trusted; give --mtime to use it",
			mt.Local().Format("2006-01-02 15:04"), int(recentModTime/(24*time.Hour)))
	}
	return ""
}
