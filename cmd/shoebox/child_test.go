package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/shoebox-photos/shoebox/internal/cli"
	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// The crash test re-executes this test binary as the shoebox command: with
// envChild set, TestMain runs cli.Main on the arguments instead of the
// tests. With envCrashAt=<point>:<n> as well, the child runs the same sort
// through the pipeline with a fault-injecting filesystem and dies, as if
// SIGKILLed, at the nth time any worker reaches that crash point.
const (
	envChild      = "SHOEBOX_TEST_AS_COMMAND"
	envCrashAt    = "SHOEBOX_TEST_CRASH_AT"
	crashExitCode = fsxtest.CrashExitCode
)

// runChild is the child's whole life; it returns the exit code.
func runChild(args []string) int {
	spec := os.Getenv(envCrashAt)
	if spec == "" {
		return cli.Main(args)
	}
	return sortWithCrash(args, spec)
}

// sortWithCrash runs `sort [--mode M] [--backup DIR] SRC DEST` as cli would configure it,
// recording the same command line in the journal, through fsx.Faults.
func sortWithCrash(args []string, spec string) int {
	mode, backup, src, dest, err := parseSortArgs(args)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	tmpl, err := layout.Parse(cli.DefaultTemplate)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fsys := fsx.NewFaults(fsx.OS)
	if err := fsxtest.ExitAtCrashPoint(fsys, spec); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", envCrashAt, err)
		return 2
	}
	cfg := pipeline.Config{
		Sources: []string{src}, Dest: dest, Template: tmpl, UnknownDir: "unknown",
		Mode: mode, Workers: 4, Dedup: true, VideoTZ: time.Local, Args: args, FS: fsys, Backup: backup,
	}
	run, err := pipeline.Open(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	err = run.All(context.Background())
	if cerr := run.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0 // the crash point was never reached that often
}

func parseSortArgs(args []string) (mode transfer.Mode, backup, src, dest string, err error) {
	mode = transfer.Copy
	rest := args
	if len(rest) > 0 && rest[0] == "sort" {
		rest = rest[1:]
	}
	if len(rest) >= 2 && rest[0] == "--mode" {
		if mode, err = transfer.ParseMode(rest[1]); err != nil {
			return mode, "", "", "", err
		}
		rest = rest[2:]
	}
	if len(rest) >= 2 && rest[0] == "--backup" {
		backup, rest = rest[1], rest[2:]
	}
	if len(rest) != 2 {
		return mode, "", "", "", fmt.Errorf("crash child: want sort [--mode M] [--backup DIR] SRC DEST, got %q", args)
	}
	return mode, backup, rest[0], rest[1], nil
}
