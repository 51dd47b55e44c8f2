package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/shoebox-photos/shoebox/internal/check"
	"github.com/shoebox-photos/shoebox/internal/config"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

const checkHelp = `Usage: shoebox check [flags] DEST

Compares the library DEST with what shoebox recorded when it sorted files
into it, and lists what is wrong, one file a line: missing (recorded, not
there), changed (size or modification time moved since it landed: edited),
corrupt (size and time as recorded but the bytes are not: found only by
reading, with --read-data), unreadable, separated (a sidecar whose photo is
no longer beside it, or one half of a RAW+JPEG or Live Photo pair whose
other half is gone) and stray (a file no shoebox run put there: listed,
never touched). Read-only: nothing is written, locked or created
(unless --repair).

By default only the files' sizes and times are read (fast). --read-data
reads every file and compares its hash with the one recorded; a file with
no recorded hash is read but cannot be judged ("shoebox index DEST" records
every file's hash). --read-data-subset reads one slice per run, the same
slice every time for a file, so that a monthly "--read-data-subset N/12"
(N the month) reads the whole library once a year.

With a backup (--backup, or the library's recorded backup folder), each
file's backup copy is checked too, and files the backup holds that no run
put there are listed.

--repair heals what a recorded hash proves can be healed: a missing or
corrupt library file is restored from its backup copy, and a missing
backup copy is written again from the library file, each only when the
copy it comes from hashes to the hash recorded when the file landed (it is
read for that, with or without --read-data; corrupt files are found only
by reading, so use --repair --read-data to heal them). Changed (edited)
files, corrupt backup copies and files with no recorded hash are reported
and left as they are. Each file lands as sort lands one (temp file,
fsync, rename, verified); a corrupt library file is first moved to
DEST/.shoebox/displaced/RUN/, never overwritten. The repairs are one run:
shoebox log lists it and shoebox undo RUN reverses it (the damaged files
go back). --repair takes the library lock, as sort does.

Flags:
      --read-data             read every file and compare it with its recorded hash
      --read-data-subset S    read one slice: N/M (such as 3/12) or a percentage (5%)
      --backup DIR            check this backup folder too (default: the library's
                              backup, from DEST/.shoebox/config.toml)
      --repair                restore missing or corrupt files from a copy that
                              matches the recorded hash (journaled, undoable)
      --json                  one JSON object per problem and a summary on stdout
                              (see docs/json.md)

Exit codes: 0 intact (strays alone do not count; with --repair: every
problem found was repaired), 1 problems found (or left unrepaired, or the
check could not run), 2 bad command line, 130 interrupted.
`

func cmdCheck(ctx context.Context, env Env, args []string) error {
	fs := newFlags("check")
	readData := fs.Bool("read-data", false, "")
	subset := fs.String("read-data-subset", "", "")
	backup := fs.String("backup", "", "")
	repair := fs.Bool("repair", false, "")
	jsonOut := fs.Bool("json", false, "")
	ops, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(ops) != 1 {
		return usagef("check needs one library folder: shoebox check [flags] DEST")
	}
	opt := check.Options{Library: ops[0], ReadData: *readData || *subset != "", Repair: *repair,
		Args: append([]string{"check"}, args...)}
	if *subset != "" {
		if opt.Subset, err = check.ParseSubset(*subset); err != nil {
			return usagef("check: %v", err)
		}
	}
	if err := requireFolder("check", ops[0]); err != nil {
		return err
	}
	out := newCheckOutput(env, *jsonOut)
	if opt.Backup, err = checkBackup(ops[0], *backup, out); err != nil {
		return err
	}
	opt.Problem = out.problem
	opt.Repaired = out.repair
	if env.IsTerminal && !*jsonOut {
		opt.Progress = out.progress
	}
	st, err := check.Run(ctx, opt)
	out.summary(ops[0], opt, st, err)
	if err != nil {
		return err
	}
	if st.Problems() > 0 {
		return exitError{ExitFatal}
	}
	return nil
}

// checkRepair is a repair line of check --json (docs/json.md).
type checkRepair struct {
	Type      string `json:"type"`    // "repair"
	Outcome   string `json:"outcome"` // repaired, not-repaired
	Path      string `json:"path"`
	PathBytes []byte `json:"path_bytes,omitempty"`
	Copy      string `json:"copy"`           // the copy repaired: library or backup
	From      string `json:"from,omitempty"` // the copy it was restored from
	Kept      string `json:"kept,omitempty"` // where the damaged bytes it replaced are kept
	Reason    string `json:"reason,omitempty"`
}

func (o *checkOutput) repair(r check.Repair) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.clearProgress()
	if o.enc != nil {
		outcome := "not-repaired"
		if r.Repaired {
			outcome = "repaired"
		}
		o.enc.Encode(checkRepair{Type: "repair", Outcome: outcome, Path: r.Path, PathBytes: rawBytes(r.Path), Copy: r.Copy, From: r.From, Kept: r.Kept, Reason: r.Reason})
		return
	}
	fmt.Fprintln(o.env.Stdout, shown(repairText(r)))
}

// repairText is a repair's line for people.
func repairText(r check.Repair) string {
	where := ""
	if r.Copy == check.InBackup {
		where = " (backup copy)"
	}
	if !r.Repaired {
		return fmt.Sprintf("%-10s %s%s: %s", "not repaired", r.Path, where, r.Reason)
	}
	from := "the backup copy"
	if r.From == check.InLibrary {
		from = "the library file"
	}
	line := fmt.Sprintf("%-10s %s%s from %s (hash verified)", "repaired", r.Path, where, from)
	if r.Kept != "" {
		line += "; the damaged file is kept at " + r.Kept + " (shoebox undo puts it back)"
	}
	return line
}

// checkBackup is the backup folder to check: --backup, else the one the
// library's config records. A recorded backup that is not there (a drive
// not connected) is said and skipped; one given on the command line must
// be there.
func checkBackup(lib, flag string, out *checkOutput) (string, error) {
	if flag != "" {
		return flag, nil
	}
	s, found, err := config.ReadFile(config.LibraryPath(lib))
	if err != nil || !found || s.Backup == nil {
		return "", err
	}
	if info, err := os.Stat(*s.Backup); err != nil || !info.IsDir() {
		out.warn(fmt.Sprintf("the library's backup %s is not there (is the backup drive connected?): only the library is checked", quote.Path(*s.Backup)))
		return "", nil
	}
	return *s.Backup, nil
}

// checkOutput writes a check's findings: a line each for people, or with
// --json one object each, and the summary; progress on a terminal.
type checkOutput struct {
	env   Env
	enc   *json.Encoder
	mu    sync.Mutex
	start time.Time
	live  bool // a progress line is on stderr
}

func newCheckOutput(env Env, jsonOut bool) *checkOutput {
	o := &checkOutput{env: env, start: time.Now()}
	if jsonOut {
		o.enc = json.NewEncoder(env.Stdout)
	}
	return o
}

// checkProblem is a problem line of check --json (docs/json.md).
type checkProblem struct {
	Type      string `json:"type"` // "problem"
	Problem   string `json:"problem"`
	Path      string `json:"path"`
	PathBytes []byte `json:"path_bytes,omitempty"`
	Copy      string `json:"copy"` // library or backup
	Reason    string `json:"reason"`
}

func (o *checkOutput) problem(p check.Problem) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.clearProgress()
	if o.enc != nil {
		o.enc.Encode(checkProblem{Type: "problem", Problem: string(p.Kind), Path: p.Path, PathBytes: rawBytes(p.Path), Copy: p.Copy, Reason: p.Reason})
		return
	}
	where := ""
	if p.Copy == check.InBackup {
		where = " (backup copy)"
	}
	fmt.Fprintf(o.env.Stdout, "%-10s %s%s: %s\n", p.Kind, shown(p.Path), where, shown(p.Reason))
}

func (o *checkOutput) warn(msg string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.clearProgress()
	if o.enc != nil {
		o.enc.Encode(map[string]string{"type": "warning", "reason": msg})
		return
	}
	fmt.Fprintf(o.env.Stderr, "shoebox: %s\n", shown(msg))
}

// progress redraws the live line: files, bytes and time left.
func (o *checkOutput) progress(p check.Progress) {
	o.mu.Lock()
	defer o.mu.Unlock()
	fmt.Fprintf(o.env.Stderr, "\r\033[Kcheck: %s", progressText(p, time.Since(o.start)))
	o.live = true
}

func progressText(p check.Progress, elapsed time.Duration) string {
	s := fmt.Sprintf("%d/%d files", p.Files, p.FilesTotal)
	if p.BytesTotal == 0 {
		return s
	}
	s += fmt.Sprintf(", %s of %s read", size(p.Bytes), size(p.BytesTotal))
	if secs := elapsed.Seconds(); p.Bytes > 0 && secs > 1 {
		rate := float64(p.Bytes) / secs
		left := time.Duration(float64(p.BytesTotal-p.Bytes)/rate) * time.Second
		s += fmt.Sprintf(", %s/s, %s left", size(int64(rate)), left.Round(time.Second))
	}
	return s
}

func (o *checkOutput) clearProgress() {
	if o.live {
		fmt.Fprint(o.env.Stderr, "\r\033[K")
		o.live = false
	}
}

// checkSummary is the last line of check --json (docs/json.md).
type checkSummary struct {
	Type     string        `json:"type"` // "summary"
	Library  string        `json:"library"`
	LibBytes []byte        `json:"library_bytes,omitempty"` // see jsonEvent
	Backup   string        `json:"backup,omitempty"`
	BakBytes []byte        `json:"backup_bytes,omitempty"`
	ReadData bool          `json:"read_data"`
	Subset   string        `json:"read_data_subset,omitempty"`
	Files    int64         `json:"files"`
	Read     int64         `json:"read"`
	Bytes    int64         `json:"bytes_read"`
	NoRecord int64         `json:"no_recorded_hash"`
	Problems int64         `json:"problems"`
	InLib    check.Counts  `json:"in_library"`
	InBackup *check.Counts `json:"in_backup,omitempty"`
	Differs  int64         `json:"differs,omitempty"`
	Repair   bool          `json:"repair,omitempty"`
	Repaired int64         `json:"repaired,omitempty"`
	Run      string        `json:"repair_run,omitempty"` // the run shoebox undo reverses
	Seconds  float64       `json:"seconds"`
	Error    string        `json:"error,omitempty"`
}

func (o *checkOutput) summary(lib string, opt check.Options, st check.Stats, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.clearProgress()
	if o.enc != nil {
		s := checkSummary{Type: "summary", Library: lib, LibBytes: rawBytes(lib), Backup: opt.Backup, BakBytes: rawBytes(opt.Backup), ReadData: opt.ReadData, Subset: opt.Subset.String(),
			Files: st.Files, Read: st.Read, Bytes: st.Bytes, NoRecord: st.NoRecord, Problems: st.Problems(),
			InLib: st.Library, InBackup: st.Backup, Differs: st.Differs, Repair: opt.Repair, Repaired: repairedCount(st), Run: st.RepairRun,
			Seconds: time.Since(o.start).Seconds()}
		if err != nil && !errors.Is(err, context.Canceled) {
			s.Error = err.Error()
		}
		o.enc.Encode(s)
		return
	}
	if err != nil {
		return // the error is the message
	}
	fmt.Fprintln(o.env.Stdout, shown(summaryText(lib, opt, st)))
}

// summaryText is the closing line for people.
func summaryText(lib string, opt check.Options, st check.Stats) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d recorded files checked", lib, st.Files)
	switch {
	case opt.ReadData && opt.Subset.String() != "":
		fmt.Fprintf(&b, ", %d read (slice %s, %s)", st.Read, opt.Subset, size(st.Bytes))
	case opt.ReadData:
		fmt.Fprintf(&b, ", %d read (%s)", st.Read, size(st.Bytes))
	default:
		b.WriteString(" by size and time (--read-data reads them)")
	}
	if st.NoRecord > 0 {
		fmt.Fprintf(&b, ", %d with no recorded hash to compare with (shoebox index records them)", st.NoRecord)
	}
	b.WriteString("; library: " + countsText(st.Library))
	if st.Backup != nil {
		b.WriteString("; backup: " + countsText(*st.Backup))
	}
	if st.Differs > 0 {
		fmt.Fprintf(&b, "; %d differ between library and backup", st.Differs)
	}
	if opt.Repair {
		fmt.Fprintf(&b, "; %d repaired, %d problems left", repairedCount(st), st.Problems())
		if st.RepairRun != "" {
			fmt.Fprintf(&b, " (repair run %s: shoebox undo %s reverses it)", st.RepairRun, st.RepairRun)
		}
	}
	return b.String()
}

func repairedCount(st check.Stats) int64 {
	n := st.Library.Repaired
	if st.Backup != nil {
		n += st.Backup.Repaired
	}
	return n
}

func countsText(c check.Counts) string {
	var parts []string
	for _, x := range []struct {
		n    int64
		what string
	}{{c.Missing, "missing"}, {c.Changed, "changed"}, {c.Corrupt, "corrupt"}, {c.Unreadable, "unreadable"}, {c.Separated, "separated"}, {c.Strays, "strays"}, {c.Repaired, "repaired"}} {
		if x.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", x.n, x.what))
		}
	}
	if len(parts) == 0 {
		return "intact"
	}
	return strings.Join(parts, ", ")
}
