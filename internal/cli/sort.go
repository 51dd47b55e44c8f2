package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/shoebox-photos/shoebox/internal/eject"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/shift"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// DefaultTemplate is the library layout when none is given.
const DefaultTemplate = "{year}/{year}-{month}-{day}/{name}{ext}"

type sortFlags struct {
	template, mode, unknown, videoTZ, tz, report string
	logFile                                      string
	dateTags                                     string // --date-tags: which date fields win
	backup                                       string // --backup DIR: a second copy of every file transferred
	backupFrom                                   string // the library config that set backup; "" when typed or unset
	noBackup                                     bool   // --no-backup: none this run, whatever the library's config says
	workers                                      int
	dryRun, dedup, verify, follow, hidden        bool
	noMtime, jsonOut, quiet, deleteDups, verbose bool
	checksum, reimport, trustMtime               bool
	eject                                        bool   // --eject: unmount the sources' volumes after a clean run
	oneOff                                       bool   // --one-off: -t is meant for this run, though the library records another
	modeFrom                                     string // "command line", the config file that set mode, or "" for the default
	filters                                      filterFlags
	shifts                                       []string
}

func (f *sortFlags) register(fs *pflag.FlagSet) {
	fs.StringVarP(&f.template, "template", "t", DefaultTemplate, "")
	fs.BoolVar(&f.oneOff, "one-off", false, "")
	fs.StringVar(&f.mode, "mode", "copy", "")
	fs.IntVar(&f.workers, "workers", 0, "") // 0: chosen from the storage under SRC and DEST
	fs.BoolVarP(&f.dryRun, "dry-run", "n", false, "")
	f.dedup = true
	fs.Var(onOff{&f.dedup}, "dedup", "")
	fs.BoolVar(&f.verify, "verify", false, "")
	fs.BoolVar(&f.deleteDups, "delete-duplicates", false, "")
	fs.BoolVar(&f.follow, "follow-links", false, "")
	fs.BoolVar(&f.hidden, "hidden", false, "")
	fs.StringVar(&f.unknown, "unknown-dir", "unknown", "")
	fs.BoolVar(&f.noMtime, "no-mtime", false, "")
	fs.BoolVar(&f.trustMtime, "mtime", false, "")
	fs.BoolVar(&f.eject, "eject", false, "")
	fs.StringVar(&f.backup, "backup", "", "")
	fs.BoolVar(&f.noBackup, "no-backup", false, "")
	fs.StringVar(&f.videoTZ, "video-tz", "local", "")
	fs.StringVar(&f.tz, "tz", "", "")
	fs.StringVar(&f.dateTags, "date-tags", "", "")
	fs.BoolVar(&f.jsonOut, "json", false, "")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "")
	fs.BoolVarP(&f.verbose, "verbose", "v", false, "")
	fs.StringVar(&f.report, "report", "", "")
	fs.StringVar(&f.logFile, "log-file", "", "")
	fs.BoolVar(&f.checksum, "checksum", false, "")
	fs.BoolVar(&f.reimport, "reimport", false, "")
	fs.StringArrayVar(&f.shifts, "shift", nil, "") // repeatable
	f.filters.register(fs)
}

func cmdSort(ctx context.Context, env Env, args []string) error {
	f := sortFlags{filters: filterFlags{now: env.now(), stdin: env.Stdin}}
	fs := newFlags("sort")
	f.register(fs)
	operands, err := parseFlags(fs, args)
	if errors.Is(err, pflag.ErrHelp) {
		fmt.Fprint(env.Stdout, sortHelp)
		return nil
	}
	if err != nil {
		return err
	}
	fs.Visit(func(fl *pflag.Flag) {
		if fl.Name == "mode" {
			f.modeFrom = "command line"
		}
	})
	if len(operands) >= 2 {
		if err := checkDestination(operands[len(operands)-1]); err != nil {
			return err
		}
		if err := applyConfig(env, fs, &f, operands[len(operands)-1]); err != nil {
			return err
		}
	}
	if err := checkConfiguredBackup(f); err != nil {
		return err
	}
	if err := checkTemplateChange(fs, f, operands); err != nil {
		return err
	}
	cfg, err := f.config(operands)
	if err != nil {
		return err
	}
	cfg.Args = append([]string{"sort"}, args...)
	return runSort(ctx, env, f, cfg)
}

// config turns flags and operands into a pipeline configuration.
func (f sortFlags) config(operands []string) (pipeline.Config, error) {
	if f.verbose && f.quiet {
		return pipeline.Config{}, usagef("--verbose and --quiet ask for opposite things; give one")
	}
	if len(operands) < 2 {
		return pipeline.Config{}, usagef("sort needs at least one source and a destination: shoebox sort SRC... DEST")
	}
	tmpl, err := layout.Parse(f.template)
	if err != nil {
		return pipeline.Config{}, usagef("--template: %s", err)
	}
	mode, err := transfer.ParseMode(f.mode)
	if err != nil {
		return pipeline.Config{}, usagef("--mode: %s%s", err, suggestWord(f.mode, flagValues()["--mode"]))
	}
	if f.workers < 0 || f.workers > 256 {
		return pipeline.Config{}, usagef("--workers: want 1 to 256 (or 0 to choose from the storage), not %d", f.workers)
	}
	tz, err := parseZone(f.videoTZ)
	if err != nil {
		return pipeline.Config{}, usagef("--video-tz: %s", err)
	}
	photoTZ, err := cameraZone(f.tz)
	if err != nil {
		return pipeline.Config{}, usagef("--tz: %s", err)
	}
	dateTags, err := meta.ParseDateTags(f.dateTags)
	if err != nil {
		return pipeline.Config{}, usagef("--date-tags: %s", err)
	}
	flt, err := f.filters.filter()
	if err != nil {
		return pipeline.Config{}, err
	}
	if f.noBackup && f.backup != "" {
		return pipeline.Config{}, usagef("--backup and --no-backup contradict each other: give one")
	}
	if f.noMtime && f.trustMtime {
		return pipeline.Config{}, usagef("--mtime and --no-mtime contradict each other: give one")
	}
	shifts, err := shift.Parse(f.shifts)
	if err != nil {
		return pipeline.Config{}, usagef("%s", err)
	}
	if err := checkUnknownDir(f.unknown); err != nil {
		return pipeline.Config{}, err
	}
	unknown, reserved := layout.SafeSegment(f.unknown)
	if reserved {
		return pipeline.Config{}, usagef("--unknown-dir %q: that is a name shoebox keeps for its own files (its state folder %s and its temp files); pick another folder name", f.unknown, layout.StateDirName)
	}
	return pipeline.Config{
		Filter:  flt,
		Sources: operands[:len(operands)-1], Dest: operands[len(operands)-1],
		Template: tmpl, UnknownDir: unknown, NoModTime: f.noMtime, TrustModTime: f.trustMtime,
		Mode: mode, Workers: f.workers, DryRun: f.dryRun, Dedup: f.dedup, Verify: f.verify,
		FollowLinks: f.follow, Hidden: f.hidden, VideoTZ: tz, DeleteDuplicates: f.deleteDups,
		PhotoTZ: photoTZ, DateTags: dateTags, Checksum: f.checksum, Reimport: f.reimport, Shift: shifts, Backup: f.backup,
	}, nil
}

// checkUnknownDir refuses, as a bad template is refused, an unknown-date
// folder that would not be one folder inside the library.
func checkUnknownDir(d string) error {
	switch {
	case strings.TrimSpace(d) == "":
		return usagef("--unknown-dir: give a folder name, such as unknown")
	case filepath.IsAbs(d) || filepath.VolumeName(d) != "" || strings.HasPrefix(d, "/") || strings.HasPrefix(d, `\`):
		return usagef("--unknown-dir %s: an absolute path; give a folder name inside the library, such as unknown", quote.Path(d))
	case strings.ContainsAny(d, `/\`):
		return usagef("--unknown-dir %q: give one folder name, without / or \\", d)
	case d == "." || d == "..":
		return usagef("--unknown-dir %q: give a folder name inside the library, such as unknown", d)
	}
	return nil
}

// cameraZone reads --tz, the zone the camera's clock was set to; unset
// ("") means none is assumed, so photos without an offset keep none.
func cameraZone(s string) (*time.Location, error) {
	if s == "" {
		return nil, nil
	}
	return parseZone(s)
}

func runSort(ctx context.Context, env Env, f sortFlags, cfg pipeline.Config) error {
	if err := distinctOutputs(f.report, f.logFile); err != nil {
		return err
	}
	rep, err := newHTMLReport(f.report, cfg.Sources, cfg.Dest, cfg.Backup)
	if err != nil {
		return err
	}
	lf, err := openLogFile(f.logFile, cfg.Sources, cfg.Dest, cfg.Backup)
	if err != nil {
		return err
	}
	defer closeLog(env, lf)
	out := newPrinter(env, f)
	out.rep, out.log = rep, lf
	out.start(cfg)
	cfg.Events = out.event
	run, err := pipeline.Open(cfg)
	if err != nil {
		return err
	}
	rep.begin(run.Dest())
	runErr := run.All(ctx)
	closeErr := run.Close()
	sum := run.Summary()
	sum.DryRun = cfg.DryRun
	out.finish(sum, run.Dest())
	repErr := rep.write(cfg, run.Dest(), sum, runErr)
	if repErr == nil {
		rep.announce(out)
	}
	if f.eject {
		ejectSources(env, f, cfg, sum, runErr, out.left)
	}
	if err := errors.Join(runErr, closeErr, repErr); err != nil {
		return err
	}
	if !cfg.DryRun {
		if err := rememberLayout(run.Dest(), f.template); err != nil {
			fmt.Fprintf(env.Stderr, "shoebox: warning: could not record the layout in the library: %s\n", shown(err.Error()))
		}
	}
	if sum.Incomplete() {
		return exitError{ExitIncomplete}
	}
	return nil
}

// printer turns pipeline events into the user's output: failures and
// problems on stderr as they happen, progress while a stage runs, a summary
// at the end, or JSON lines; and it feeds the --report page.
type printer struct {
	env   Env
	f     sortFlags
	mu    sync.Mutex
	enc   *json.Encoder
	human io.Writer
	prog  *progress // nil with --quiet
	rep   *htmlReport
	log   *logFile // --log-file; nil without
	seen  *collapser
	began time.Time // the summary's elapsed time counts from here
	// Files dated only by their modification time, and those sent to the
	// unknown folder because it looked like a copy's: the summary names them.
	byModTime, doubted namesList
	// Files the import history left out (culled or edited in the
	// library since).
	before namesList
	// With --eject: the photos and videos the run left on the sources,
	// whose card is then not unmounted.
	left []eject.Left
}

func newPrinter(env Env, f sortFlags) *printer {
	p := &printer{env: env, f: f, human: env.Stdout, seen: newCollapser(f.verbose), began: time.Now()}
	if f.jsonOut {
		p.enc = json.NewEncoder(env.Stdout)
		p.human = env.Stderr
	}
	if !f.quiet {
		// With --json, stdout is for a program; plain progress lines would
		// only clutter its log, but a live bar on a terminal does no harm.
		p.prog = newProgress(env.Stderr, env.IsTerminal, !f.jsonOut)
		p.prog.lock = &p.mu
	}
	return p
}

func (p *printer) event(ev pipeline.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rep.add(ev)
	p.logEvent(ev)
	p.noteModTime(ev)
	if ev.Outcome == pipeline.OutImportedBefore {
		p.before.add(ev.Src)
	}
	if p.f.eject {
		if why := ev.LeftOnSource(); why != "" {
			p.left = append(p.left, eject.Left{Path: ev.Src, Why: why})
		}
	}
	if p.enc != nil && ev.Type != "stage" && ev.Type != "progress" {
		_ = p.enc.Encode(newJSONEvent(ev))
	}
	switch {
	case ev.Type == "progress":
		if p.prog != nil {
			p.prog.update(ev)
		}
	case ev.Type == "stage":
		if p.prog != nil {
			p.prog.stageDone()
		}
		if !p.f.quiet && p.enc == nil {
			fmt.Fprintln(p.env.Stderr, stageLine(ev))
		}
	case ev.Type == "problem":
		p.seen.failedPath(ev)
		p.say("problem", ev, "shoebox: %s\n")
	case ev.Type == "warning" && !p.f.quiet:
		p.say("warning", ev, "shoebox: warning: %s\n")
	case ev.Type == "info" && !p.f.quiet && p.enc == nil:
		p.pause()
		fmt.Fprintf(p.env.Stderr, "shoebox: %s\n", shown(ev.Reason))
	case ev.Outcome == pipeline.OutFailed:
		p.seen.failedPath(ev)
		p.say("failure", ev, "shoebox: %s\n")
	case p.f.verbose && ev.Type == "op":
		p.pause()
		printVerbose(p.human, ev)
	case p.f.dryRun && p.enc == nil && !p.f.quiet && ev.Type == "op":
		p.pause()
		printPlanned(p.human, ev)
	}
}

// stageLine is a stage's closing line. Its count is the summary's: the
// plan stage counts every file handed to the transfer, sidecars and pair
// halves included, and says how many those are; the transfer counts the
// files it attempted, of those planned.
func stageLine(ev pipeline.Event) string {
	count := group(ev.Count)
	if ev.Stage == "transfer" && ev.Total != ev.Count {
		count += " of " + group(ev.Total)
	}
	line := fmt.Sprintf("%-8s %8s files  %6.2fs", ev.Stage, count, ev.Elapsed)
	switch {
	case ev.Sidecars > 0:
		line += fmt.Sprintf("  (%s of them sidecars or pair halves, travelling with their photo)", group(ev.Sidecars))
	case ev.Stage == "transfer" && ev.Total > ev.Count:
		line += fmt.Sprintf("  (%s not attempted)", group(ev.Total-ev.Count))
	}
	return line
}

// say prints a message on stderr unless more than a few of its kind were
// printed already (all of them with --verbose): the rest are counted and
// summed up at the end.
func (p *printer) say(what string, ev pipeline.Event, format string) {
	if !p.seen.show(what, ev) {
		return
	}
	p.pause()
	fmt.Fprintf(p.env.Stderr, format, shown(ev.Reason))
}

// pause clears the live progress line before a message takes its place.
func (p *printer) pause() {
	if p.prog != nil {
		p.prog.pause()
	}
}

func printPlanned(w io.Writer, ev pipeline.Event) {
	switch ev.Outcome {
	case pipeline.OutPlanned, pipeline.OutPlannedAs:
		fmt.Fprintf(w, "%-14s %s -> %s\n", ev.Outcome, shown(ev.Src), shown(ev.Dst))
		if ev.Backup != "" {
			fmt.Fprintf(w, "%-14s %s -> %s\n", "  and backup", shown(ev.Src), shown(ev.Backup))
		}
	case pipeline.OutIdentical, pipeline.OutDuplicate, pipeline.OutDupPlanned, pipeline.OutImportedBefore:
		fmt.Fprintf(w, "%-14s %s = %s\n", ev.Outcome, shown(ev.Src), shown(ev.SameAs))
	}
}

func (p *printer) finish(sum pipeline.Summary, dest string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.prog != nil {
		p.prog.done()
	}
	if p.enc != nil {
		_ = p.enc.Encode(struct {
			Type string `json:"type"`
			pipeline.Summary
		}{"summary", sum})
	}
	if p.log != nil {
		var b bytes.Buffer
		printSummary(&b, sum, dest, time.Since(p.began))
		p.log.say(time.Now(), b.String())
	}
	if !p.f.quiet {
		printSummary(p.human, sum, dest, time.Since(p.began))
		p.byModTime.print(p.human, "dated by their modification time (check these)")
		p.doubted.print(p.human, "sent to unknown: their modification time is not trusted (explain FILE says why; --mtime trusts a copy's)")
		p.before.print(p.human, "imported before and since deleted or edited in the library, left out (--reimport brings them back)")
	}
	p.seen.recap(p.env.Stderr)
}

// noteModTime keeps the names of files dated by their modification time.
func (p *printer) noteModTime(ev pipeline.Event) {
	switch ev.Outcome {
	case pipeline.OutTransferred, pipeline.OutRenamed, pipeline.OutPlanned, pipeline.OutPlannedAs:
	default:
		return
	}
	switch {
	case ev.DateNote != "":
		p.doubted.add(ev.Src)
	case ev.DateSource == "mtime":
		p.byModTime.add(ev.Src)
	}
}

// namesList keeps the first names of a list and counts the rest.
type namesList struct {
	names []string
	total int
}

// namesShown is how many names the summary lists; --json and --report list all.
const namesShown = 20

func (l *namesList) add(name string) {
	l.total++
	if len(l.names) < namesShown {
		l.names = append(l.names, name)
	}
}

func (l *namesList) print(w io.Writer, title string) {
	if l.total == 0 {
		return
	}
	fmt.Fprintf(w, "%s:\n", title)
	for _, n := range l.names {
		fmt.Fprintf(w, "  %s\n", shown(n))
	}
	if more := l.total - len(l.names); more > 0 {
		fmt.Fprintf(w, "  … and %d more (--json and --report list them all)\n", more)
	}
}

// start opens the output: in --json a "start" line with the settings that
// decide what happens to the sources; on stderr, before any file is
// touched, a line for every mode that is not a plain copy and what it
// means for the sources (a move removes them; links leave the library
// depending on them): whatever --quiet says when the mode came from a
// config file (a library's mode = "symlink" would otherwise turn a plain
// sort into links in silence, dangling once the card is wiped), and
// unless --quiet when it was typed.
func (p *printer) start(cfg pipeline.Config) {
	from := p.f.modeFrom
	p.log.say(time.Now(), fmt.Sprintf("start: shoebox %s (mode %s from %s%s)", shown(strings.Join(cfg.Args, " ")),
		cfg.Mode, shown(originName(from)), map[bool]string{true: ", dry run"}[cfg.DryRun]))
	if p.enc != nil {
		_ = p.enc.Encode(startLine{Type: "start", Mode: cfg.Mode.String(), ModeFrom: originName(from), ModeNote: modeNote(cfg.Mode, cfg.DryRun),
			DryRun: cfg.DryRun, DeleteDuplicates: cfg.DeleteDuplicates, Dest: cfg.Dest, DestBytes: rawBytes(cfg.Dest)})
	}
	if p.f.verbose {
		fmt.Fprintf(p.human, "layout: %s (under %s; files with no date: %s)\n", shown(p.f.template), shown(cfg.Dest), shown(cfg.UnknownDir))
	}
	note := modeNote(cfg.Mode, cfg.DryRun)
	if note == "" || from == "command line" && p.f.quiet {
		return
	}
	fmt.Fprintf(p.env.Stderr, "shoebox: mode: %s (from %s) — %s\n", cfg.Mode, shown(originName(from)), note)
}

// modeNote says what a mode other than a plain copy means for the
// sources and the library; "" for a copy.
func modeNote(m transfer.Mode, dryRun bool) string {
	switch m {
	case transfer.Move:
		if dryRun {
			return "the sources would be removed (dry run: nothing is changed); give --mode copy to keep them"
		}
		return "the sources will be removed once each file is safely in the library; give --mode copy to keep them"
	case transfer.Symlink:
		return "the library will hold symbolic links to the sources, not copies: a link points nowhere once its source is deleted or its card wiped; give --mode copy for copies"
	case transfer.Hardlink:
		return "the library will share each source's bytes (a hard link), not copy them: one copy of each photo, and a change to either name changes both; give --mode copy for copies"
	case transfer.Reflink:
		return "the copies will share their disk blocks with the sources until either changes (a clone): one damaged block damages both; give --mode copy for copies of their own"
	}
	return ""
}

// startLine is the first line of --json output.
type startLine struct {
	Type             string `json:"type"`
	Mode             string `json:"mode"`
	ModeFrom         string `json:"mode_from"`           // "command line", "default", or the config file's path
	ModeNote         string `json:"mode_note,omitempty"` // what a mode other than a plain copy means for the sources (as said on stderr)
	DryRun           bool   `json:"dry_run"`
	DeleteDuplicates bool   `json:"delete_duplicates,omitempty"`
	Dest             string `json:"dest"`
	DestBytes        []byte `json:"dest_bytes,omitempty"` // see jsonEvent
}

func originName(from string) string {
	if from == "" {
		return "default"
	}
	return from
}

// logEvent appends to --log-file what -v prints for a file, and every
// problem, warning, note and stage line, whatever -q says.
func (p *printer) logEvent(ev pipeline.Event) {
	if p.log == nil {
		return
	}
	var b bytes.Buffer
	switch {
	case ev.Type == "op":
		printVerbose(&b, ev)
	case ev.Type == "stage":
		b.WriteString(stageLine(ev))
	case ev.Type == "problem", ev.Type == "warning", ev.Type == "info":
		fmt.Fprintf(&b, "%s: %s", ev.Type, shown(ev.Reason))
	}
	if ev.Outcome == pipeline.OutFailed {
		fmt.Fprintf(&b, "failed: %s", shown(ev.Reason))
	}
	p.log.say(time.Now(), b.String())
}

// closeLog closes --log-file; a log that could not be written is said
// on stderr, and does not change how the run ended.
func closeLog(env Env, l *logFile) {
	if err := l.close(); err != nil {
		fmt.Fprintf(env.Stderr, "shoebox: warning: %s; the log misses lines from there on\n", shown(sentence(err)))
	}
}
