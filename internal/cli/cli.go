// Package cli is shoebox's command line: it parses arguments, runs the
// pipeline and turns outcomes into messages and exit codes. main only calls
// Main, so tests (and testscript) run the real command in-process.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/spell"
)

// Exit codes, documented in docs/usage.md and in `shoebox help`.
const (
	ExitOK          = 0   // everything done
	ExitFatal       = 1   // the run could not start or had to stop
	ExitUsage       = 2   // the command line was wrong
	ExitIncomplete  = 3   // the run finished, but some files failed or could not be read
	ExitInterrupted = 130 // stopped by Ctrl-C / SIGTERM after the files in flight
)

// Version is set by release builds with
// -ldflags "-X github.com/shoebox-photos/shoebox/internal/cli.Version=v1.2.3"; other builds print
// what the Go toolchain stamped into the binary (see version.go).
var Version = ""

// Env is what a command sees of the world.
type Env struct {
	Stdout, Stderr io.Writer
	Stdin          io.Reader
	IsTerminal     bool             // stderr is a terminal: show live progress
	Now            func() time.Time // the local clock, for --since 7d; nil: time.Now (tests fix it)
}

// now reads the environment's clock.
func (e Env) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

// usageError is a command-line mistake: exit code 2 with the usage hint.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// exitError carries an exit code for an outcome that is not an error message.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// Main runs shoebox with args (without the program name) and returns the exit code.
func Main(args []string) int {
	env := Env{Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin, IsTerminal: isTerminal(os.Stderr)}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Run(ctx, env, args)
}

// Run is Main with its environment given.
func Run(ctx context.Context, env Env, args []string) int {
	err := dispatch(ctx, env, args)
	return report(env, err)
}

func dispatch(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, mainHelp)
		return exitError{ExitUsage}
	}
	err := runCommand(ctx, env, args)
	if errors.Is(err, pflag.ErrHelp) {
		// -h or --help anywhere among a command's arguments.
		fmt.Fprint(env.Stdout, helps[args[0]])
		return nil
	}
	return err
}

func runCommand(ctx context.Context, env Env, args []string) error {
	switch args[0] {
	case "sort":
		return cmdSort(ctx, env, args[1:])
	case "explain":
		return cmdExplain(env, args[1:])
	case "log":
		return cmdLog(env, args[1:])
	case "undo":
		return cmdUndo(ctx, env, args[1:])
	case "index":
		return cmdIndex(ctx, env, args[1:])
	case "check":
		return cmdCheck(ctx, env, args[1:])
	case "relayout":
		return cmdRelayout(ctx, env, args[1:])
	case "completion":
		return cmdCompletion(env, args[1:])
	case "version", "--version", "-version", "-V":
		if len(args) > 1 && (args[1] == "-h" || args[1] == "--help") {
			return cmdHelp(env, args[:1])
		}
		fmt.Fprintf(env.Stdout, "shoebox %s\n", version())
		return nil
	case "help", "--help", "-help", "-h":
		return cmdHelp(env, args[1:])
	}
	return usagef("unknown command %q%s (try: shoebox help)", args[0], suggestCommand(args[0]))
}

// commands are the names dispatch knows, for "did you mean".
var commands = []string{"sort", "explain", "log", "undo", "index", "check", "relayout", "completion", "version", "help"}

func suggestCommand(typed string) string {
	best, dist := spell.Closest(strings.ToLower(typed), commands)
	if best == "" || dist > 2 {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}

func report(env Env, err error) int {
	var ue usageError
	var ee exitError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ue):
		fmt.Fprintf(env.Stderr, "shoebox: %s\n", shown(ue.msg))
		return ExitUsage
	case errors.Is(err, pipeline.ErrConfig):
		fmt.Fprintf(env.Stderr, "shoebox: %s\n", shown(strings.TrimPrefix(err.Error(), pipeline.ErrConfig.Error()+": ")))
		return ExitUsage
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(env.Stderr, "shoebox: interrupted; run the same command again to finish the job")
		return ExitInterrupted
	}
	for _, e := range joined(err) {
		fmt.Fprintf(env.Stderr, "shoebox: %s\n", shown(sentence(e)))
	}
	return ExitFatal
}

// joined splits errors.Join's list, whose message is its members' joined
// by newlines, so each is printed on its own line and a newline inside a
// name can still be escaped.
func joined(err error) []error {
	multi, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{err}
	}
	var msgs []string
	var out []error
	for _, e := range multi.Unwrap() {
		if e != nil {
			msgs = append(msgs, e.Error())
			out = append(out, joined(e)...)
		}
	}
	if strings.Join(msgs, "\n") != err.Error() {
		return []error{err} // wrapped by fmt.Errorf with several %w: one message
	}
	return out
}

// sentence adds a hint to an error message where one helps.
func sentence(err error) string {
	msg := err.Error()
	if h := fsx.Hint(err); h != "" && !strings.Contains(msg, h) {
		msg += " (" + h + ")"
	}
	return msg
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
