package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// logHead begins every file --log-file writes. An existing file is
// appended to only when it begins so (or is empty): a typo can never
// append text to a photo, a document or someone else's log.
const logHead = "# shoebox log: each line stamped with its time; runs appended, newest last\n"

// logFile is --log-file, for unattended runs (cron, a udev rule, Task
// Scheduler): what -v prints, and the warnings, failures and summary,
// each line stamped with the time, appended to FILE.
type logFile struct {
	f      *os.File
	path   string
	failed error // the first write error: logging stops, the run goes on
}

// openLogFile checks --log-file's path and opens it for appending before
// the run starts. It returns nil when no log was asked for.
func openLogFile(path string, sources []string, dest, backup string) (*logFile, error) {
	if path == "" {
		return nil, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, usagef("--log-file %s: %s", quote.Path(path), err)
	}
	if err := outsideSortedFiles("--log-file", path, abs, sources, dest, backup); err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		return createLogFile(path, abs)
	case err != nil:
		return nil, usagef("--log-file %s: %s", quote.Path(path), sentence(err))
	case !st.Mode().IsRegular():
		return nil, usagef("--log-file %s is not a regular file (%s); give a file name", quote.Path(path), nonFileKind(st))
	}
	return appendLogFile(path, abs, st)
}

// outsideSortedFiles is the one rule for where a file shoebox writes
// beside a run (a log, a report) may go: a file, in a folder that exists,
// never in a source or in the library (it would be sorted, or sit among
// the photos), nor inside any library's state folder (whose stores delete
// what they take for theirs).
func outsideSortedFiles(flag, typed, abs string, sources []string, dest, backup string) error {
	if st, err := os.Stat(abs); err == nil && st.IsDir() {
		return usagef("%s %s is a folder; give a file name such as %s", flag, quote.Path(typed), quote.Path(filepath.Join(typed, flagExample[flag])))
	}
	if st, err := os.Stat(filepath.Dir(abs)); err != nil || !st.IsDir() {
		return usagef("%s %s: folder %s does not exist; create it or pick another place", flag, quote.Path(typed), quote.Path(filepath.Dir(abs)))
	}
	for _, root := range sources {
		if fsx.Within(abs, root) {
			return usagef("%s %s is inside the source %s: shoebox never writes among the files being sorted; put it elsewhere", flag, quote.Path(typed), quote.Path(root))
		}
	}
	if fsx.Within(abs, dest) {
		return usagef("%s %s is inside the library %s: shoebox never writes its own files among its photos or its state; put it beside the library instead", flag, quote.Path(typed), quote.Path(dest))
	}
	if backup != "" && fsx.Within(abs, backup) {
		return usagef("%s %s is inside the backup folder %s, which holds the library's second copy path for path; put it elsewhere", flag, quote.Path(typed), quote.Path(backup))
	}
	if err := fsx.OutsideState(flag, typed); err != nil {
		return usagef("%s", err)
	}
	return nil
}

// flagExample names the kind of file each flag writes, for the hint.
var flagExample = map[string]string{"--report": "plan.html", "--log-file": "run.log"}

func createLogFile(typed, abs string) (*logFile, error) {
	f, err := os.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
	if err != nil {
		return nil, usagef("--log-file %s: %s", quote.Path(typed), sentence(err))
	}
	l := &logFile{f: f, path: abs}
	l.write([]byte(logHead))
	return l, l.failed
}

// appendLogFile opens an existing log for appending: only one that
// shoebox began (or an empty file), with no other name (a hard link could
// be a source's file or a library's lock), and only the file that was
// checked.
func appendLogFile(typed, abs string, checked os.FileInfo) (*logFile, error) {
	if n := fsx.Nlink(abs, checked); n > 1 {
		return nil, usagef("--log-file %s has %d names (hard links): one of them may be a photo or a file of a library; give a file of its own", quote.Path(typed), n)
	}
	if checked.Size() > 0 && !beginsWithLogHead(abs) {
		return nil, usagef("--log-file %s exists and is not a shoebox log; shoebox appends only to a log it began (or an empty file): give another file name", quote.Path(typed))
	}
	f, err := os.OpenFile(abs, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, usagef("--log-file %s: %s", quote.Path(typed), sentence(err))
	}
	if st, err := f.Stat(); err != nil || !os.SameFile(st, checked) {
		f.Close()
		return nil, usagef("--log-file %s changed while it was opened; run again", quote.Path(typed))
	}
	l := &logFile{f: f, path: abs}
	if checked.Size() == 0 {
		l.write([]byte(logHead))
	}
	return l, l.failed
}

func beginsWithLogHead(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(logHead))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == logHead
}

// nonFileKind names what a path that is not a regular file is.
func nonFileKind(st os.FileInfo) string {
	switch m := st.Mode(); {
	case m&iofs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&iofs.ModeDevice != 0, m&iofs.ModeCharDevice != 0:
		return "a device"
	case m&iofs.ModeSocket != 0:
		return "a socket"
	}
	return "not a file"
}

// say stamps each line of text with now and appends them in one write,
// so that the lines of two runs sharing a log never interleave mid-line.
func (l *logFile) say(now time.Time, text string) {
	if l == nil || l.failed != nil || text == "" {
		return
	}
	stamp := now.Format(time.RFC3339) + " "
	var b bytes.Buffer
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		b.WriteString(stamp)
		b.WriteString(line)
		b.WriteByte('\n')
	}
	l.write(b.Bytes())
}

func (l *logFile) write(p []byte) {
	if _, err := l.f.Write(p); err != nil {
		l.failed = fmt.Errorf("--log-file %s: %w", quote.Path(l.path), fsx.Bare(err))
	}
}

// close syncs and closes the log; the error says why lines are missing.
func (l *logFile) close() error {
	if l == nil {
		return nil
	}
	err := errors.Join(l.f.Sync(), l.f.Close())
	if l.failed != nil {
		return l.failed
	}
	if err != nil {
		return fmt.Errorf("--log-file %s: %w", quote.Path(l.path), err)
	}
	return nil
}

// distinctOutputs refuses --report and --log-file naming one file: the
// log would be made first, then refused as "not a report" after the run.
func distinctOutputs(report, log string) error {
	if report == "" || log == "" {
		return nil
	}
	a, errA := filepath.Abs(report)
	b, errB := filepath.Abs(log)
	same := errA == nil && errB == nil && a == b
	if sa, err := os.Stat(report); err == nil {
		if sb, err := os.Stat(log); err == nil && os.SameFile(sa, sb) {
			same = true
		}
	}
	if same {
		return usagef("--report %s and --log-file %s name one file; give each its own", quote.Path(report), quote.Path(log))
	}
	return nil
}
