package cli

import (
	"path/filepath"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/pipeline"
)

// TestJSONLinesMatchSummary: with --json every stdout line is one JSON
// object, the summary comes last, and it counts exactly the op lines
// before it, in a dry run and in a real one.
func TestJSONLinesMatchSummary(t *testing.T) {
	rt := newReportTree(t)
	for _, dry := range []bool{true, false} {
		args := []string{"sort", "--no-mtime", "--json", rt.src1, rt.src2, rt.lib}
		if dry {
			args = append(args, "--dry-run")
		}
		r := rt.run(args...)
		if r.code != ExitIncomplete {
			t.Fatalf("want exit 3 (the tree has unreadable files):\n%s", r)
		}
		events, sum := jsonSummary(t, r.stdout)
		if sum.DryRun != dry {
			t.Errorf("summary dry_run = %v, want %v", sum.DryRun, dry)
		}
		checkOpCounts(t, events, sum, dry)
	}
}

func checkOpCounts(t *testing.T, events []pipeline.Event, sum pipeline.Summary, dry bool) {
	t.Helper()
	by := map[pipeline.Outcome]int64{}
	var scanProblems, withoutSrc int64
	for _, ev := range events {
		if ev.Type == "op" {
			by[ev.Outcome]++
			if ev.Src == "" {
				withoutSrc++
			}
		}
		if ev.Type == "problem" && ev.Stage == "scan" {
			scanProblems++
		}
	}
	plain, renamed := pipeline.OutTransferred, pipeline.OutRenamed
	if dry {
		plain, renamed = pipeline.OutPlanned, pipeline.OutPlannedAs
		if by[pipeline.OutTransferred]+by[pipeline.OutRenamed] > 0 {
			t.Errorf("a dry run reports files as transferred: %v", by)
		}
	}
	checks := []struct {
		what      string
		ops, summ int64
	}{
		{"transferred", by[plain] + by[renamed], sum.Transferred},
		{"renamed", by[renamed], sum.Renamed},
		{"skip-identical", by[pipeline.OutIdentical], sum.Identical},
		{"duplicate", by[pipeline.OutDuplicate], sum.Duplicates},
		{"ignored", by[pipeline.OutIgnored], sum.Ignored},
		{"failed", by[pipeline.OutFailed], sum.Failed},
		{"scan problems", scanProblems, sum.Problems},
		{"media", by[plain] + by[renamed] + by[pipeline.OutIdentical] + by[pipeline.OutDuplicate] + by[pipeline.OutFailed], sum.Media},
	}
	for _, c := range checks {
		if c.ops != c.summ {
			t.Errorf("%s: %d op lines, summary says %d", c.what, c.ops, c.summ)
		}
	}
	if withoutSrc > 0 {
		t.Errorf("%d op lines without a src", withoutSrc)
	}
	if sum.Transferred == 0 || sum.Failed == 0 || sum.Duplicates == 0 {
		t.Errorf("the tree should give transfers, failures and duplicates: %+v", sum)
	}
}

// TestJSONKeepsStdoutClean: progress and stage lines never go to stdout
// with --json, even in a dry run, which otherwise prints its plan there.
func TestJSONKeepsStdoutClean(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "card")
	card(t, src, 3, 1<<10)
	r := shoebox("sort", "--json", "--dry-run", src, filepath.Join(base, "lib"))
	if r.code != ExitOK {
		t.Fatalf("dry run:\n%s", r)
	}
	events, sum := jsonSummary(t, r.stdout)
	if len(events) != 3 || sum.Transferred != 3 {
		t.Errorf("want 3 planned ops and a summary of 3, got %d events, %+v", len(events), sum)
	}
}
